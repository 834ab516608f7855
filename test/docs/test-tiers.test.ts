import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// The fast tier (`npm run test:fast`) runs in the test runner's own processes: a file that starts
// the site, a command, a CA or a drill as a process of its own is a system test
// (`*.system.test.ts`, `npm run test:system`), and the browser journeys are test/e2e's. The names
// say which tier a file is in, so a slow start added to a quick file moves it, rather than the
// quick loop slowing down unseen.
const root = join(import.meta.dir, "..", "..");
const STARTS_A_PROCESS = /startServer|spawnSite|Bun\.spawn|\bspawn\(|spawnSync|startPebble|node:child_process|restoreDrill|disasterDrill/;

test("every test file outside the browser journeys that starts a process is named a system test, and only those", () => {
  const files = [...new Bun.Glob("test/**/*.test.{ts,tsx}").scanSync({ cwd: root })].filter(
    (f) => !f.startsWith("test/e2e/") && f !== "test/docs/test-tiers.test.ts",
  );
  expect(files.length).toBeGreaterThan(100);
  const misnamed = files.filter(
    (file) => STARTS_A_PROCESS.test(readFileSync(join(root, file), "utf8")) !== /\.system\.test\.tsx?$/.test(file),
  );
  expect(misnamed).toEqual([]);
});

test("the fast tier leaves out the browser journeys and the system tests, which have scripts of their own", () => {
  const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  expect(scripts["test:fast"]).toContain("--path-ignore-patterns='test/e2e/**'");
  expect(scripts["test:fast"]).toContain("--path-ignore-patterns='**/*.system.test.*'");
  expect(scripts["test:system"]).toEndWith(" .system.test.");
  expect(scripts["test:e2e"]).toEndWith(" test/e2e");
  // `npm test`, which CI runs, runs them all.
  expect(scripts.test).not.toContain("--path-ignore-patterns");
});
