import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Message keys are typed (shared/i18n.ts MessageKey): a misspelt key fails the typecheck, also one
// built from a template string, and so does a key an island component did not declare. Proven by
// compiling a file of deliberate typos with the project's compiler settings.

const ROOT = join(import.meta.dir, "..", "..");
const FIXTURE = join("test", "fixtures", "message-key-typos.tsx");

test("a misspelt message key fails the typecheck with the expected error, and only the misspelt ones do", async () => {
  const expected = readFileSync(join(ROOT, FIXTURE), "utf8")
    .split("\n")
    .flatMap((line, i) => {
      const code = /\/\/ typo (TS\d+)/.exec(line)?.[1];
      return code === undefined ? [] : [`${i + 1} ${code}`];
    });
  expect(expected.length).toBe(5);

  const dir = mkdtempSync(join(tmpdir(), "message-key-typos-"));
  const config = join(dir, "tsconfig.json");
  // The project's settings; type packages are looked up from the config's folder, so say where they are.
  const compilerOptions = { typeRoots: [join(ROOT, "node_modules", "@types")] };
  writeFileSync(
    config,
    JSON.stringify({ extends: join(ROOT, "tsconfig.json"), compilerOptions, include: [], exclude: [], files: [join(ROOT, FIXTURE)] }),
  );
  try {
    const tsc = Bun.spawn([join(ROOT, "node_modules", ".bin", "tsc"), "--noEmit", "-p", config], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = await new Response(tsc.stdout).text();
    expect(await tsc.exited).not.toBe(0);
    const errors = [...output.matchAll(/message-key-typos\.tsx\((\d+),\d+\): error (TS\d+)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect({ errors, other: output.split("\n").filter((l) => /error TS/.test(l) && !l.includes("message-key-typos.tsx")) }).toEqual({
      errors: expected,
      other: [],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
