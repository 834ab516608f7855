import { expect, test } from "bun:test";
import { join } from "node:path";

// `bun test` strips types without checking them, so CI has to run the type checker itself.

test("CI typechecks after installing and before running the tests", async () => {
  const script = await Bun.file(join(import.meta.dir, "..", "..", ".ci", "run")).text();
  const commands = script
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const install = commands.findIndex((c) => c.startsWith("npm ci"));
  const typecheck = commands.findIndex((c) => c === "npm run typecheck" || c === "npx tsc --noEmit");
  const tests = commands.indexOf("npm test");
  expect(install).toBeGreaterThanOrEqual(0);
  expect(typecheck).toBeGreaterThan(install);
  expect(tests).toBeGreaterThan(typecheck);
});

test("the typecheck script runs the compiler without emitting", async () => {
  const pkg: unknown = await Bun.file(join(import.meta.dir, "..", "..", "package.json")).json();
  expect(pkg).toMatchObject({ scripts: { typecheck: "tsc --noEmit" } });
});
