import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BunPlugin } from "bun";

// sharp inside the compiled executable (docs/decisions/024-sharp-in-the-executable.md). sharp's
// own loader (sharp/dist/sharp.mjs) looks for its native part in node_modules, which a server
// running only `dist/site` does not have. The build puts that native part (the Node-API addon and
// libvips, from the npm packages of this platform) inside the executable and replaces sharp's
// loader by one that writes them to a private folder and loads them from there
// (server/platform/embedded-addon.ts). `bun run start` keeps sharp's own loader.

const root = join(import.meta.dir, "..");

/** The platform packages sharp installed here: `@img/sharp-<platform>` and `@img/sharp-libvips-<platform>`. */
function installedPlatform(): { platform: string; addonDir: string; libvipsDir: string } | null {
  for (const platform of [`${process.platform}-${process.arch}`, `${process.platform}musl-${process.arch}`]) {
    const addonDir = join(root, "node_modules", "@img", `sharp-${platform}`, "lib");
    const libvipsDir = join(root, "node_modules", "@img", `sharp-libvips-${platform}`, "lib");
    if (existsSync(addonDir) && existsSync(libvipsDir)) return { platform, addonDir, libvipsDir };
  }
  return null;
}

/** What the build says and embeds: null when this platform has no prebuilt sharp in node_modules. */
export function embeddedSharp(): { plugin: BunPlugin; said: string } | null {
  const found = installedPlatform();
  if (found === null) return null;
  const addon = readdirSync(found.addonDir).find((name) => name.endsWith(".node"));
  // libvips and, on some platforms, the few libraries beside it: every shared library of the package.
  const libraries = readdirSync(found.libvipsDir).filter((name) => /\.so(\.\d+)*$|\.dylib$/.test(name));
  if (addon === undefined || libraries.length === 0) return null;
  const files = [
    { from: join(found.addonDir, addon), at: `@img/sharp-${found.platform}/lib/${addon}` },
    ...libraries.map((name) => ({ from: join(found.libvipsDir, name), at: `@img/sharp-libvips-${found.platform}/lib/${name}` })),
  ];
  const source = [
    `import { loadEmbeddedAddon } from ${JSON.stringify(join(root, "server", "platform", "embedded-addon.ts"))};`,
    ...files.map((file, i) => `import f${i} from ${JSON.stringify(file.from)} with { type: "file" };`),
    `const [addon, ...libraries] = [${files.map((file, i) => `{ embedded: f${i}, at: ${JSON.stringify(file.at)} }`).join(", ")}];`,
    "const sharp = await loadEmbeddedAddon(addon, libraries);",
    // The check sharp's own loader makes: its Linux x64 binaries need an x86-64-v2 processor.
    'if (typeof sharp._isUsingX64V2 === "function" && !sharp._isUsingX64V2()) throw new Error("sharp\'s prebuilt binaries for Linux x64 need an x86-64-v2 processor");',
    "export default sharp;",
  ].join("\n");
  const plugin: BunPlugin = {
    name: "embedded-sharp",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]sharp[\\/]dist[\\/]sharp\.mjs$/ }, () => ({ contents: source, loader: "js" }));
    },
  };
  const bytes = files.reduce((sum, file) => sum + statSync(file.from).size, 0);
  return { plugin, said: `sharp's native files for ${found.platform} (${(bytes / 1024 / 1024).toFixed(1)} MiB)` };
}
