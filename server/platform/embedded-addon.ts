import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A file the build embedded in the executable (`import … with { type: "file" }`), and where it goes. */
export type EmbeddedFile = {
  /** Its path inside the executable (`/$bunfs/root/…`). */
  embedded: string;
  /** Its path in the folder it is written to, relative, the layout its package has in node_modules. */
  at: string;
};

/**
 * Loads a Node-API addon carried inside the compiled executable together with the shared libraries
 * it links to (sharp's `sharp.node` and libvips). The system's loader reads files, not the
 * executable's embedded ones, and finds the libraries through the addon's RPATH
 * (`$ORIGIN/../../sharp-libvips-linux-x64/lib`): so the files are written to a private folder
 * (mkdtemp: 0700, a fresh name, nothing another user could have put there) in the node_modules
 * layout that RPATH expects, loaded, and the folder removed at once (what is loaded stays mapped).
 * TMPDIR chooses where; the folder must allow loading libraries (not mounted noexec).
 */
export async function loadEmbeddedAddon(addon: EmbeddedFile, libraries: EmbeddedFile[]): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), "site-addon-"));
  try {
    for (const file of [addon, ...libraries]) {
      const path = join(dir, file.at);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, await Bun.file(file.embedded).bytes());
    }
    const module: { exports: unknown } = { exports: {} };
    process.dlopen(module, join(dir, addon.at));
    return module.exports;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
