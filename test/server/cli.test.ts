import { expect, test } from "bun:test";
import { spawnSync } from "bun";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const main = join(import.meta.dir, "..", "..", "server", "main.ts");
const run = (args: string[], env: Record<string, string>) =>
  spawnSync({ cmd: [process.execPath, "run", main, ...args], env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });

test("an export run where there is no database says so and creates nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "site-cli-"));
  try {
    const dataDir = join(dir, "not-here");
    const result = run(["leads", "export"], { DATA_DIR: dataDir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.toString()).toContain(`No database at ${join(dataDir, "site.db")}`);
    expect(result.stdout.toString()).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a bad setting stops the program with a message naming the variable; an unknown command shows the usage", () => {
  const bad = run([], { PORT: "eighty" });
  expect(bad.exitCode).toBe(1);
  expect(bad.stderr.toString()).toContain("PORT");
  const unknown = run(["leads", "delete"], {});
  expect(unknown.exitCode).toBe(2);
  expect(unknown.stderr.toString()).toContain("Usage:");
});
