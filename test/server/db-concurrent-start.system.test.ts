import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../db/migrations";

// Two servers (or a server and an export) starting at once on a new data folder must both come up:
// one of them migrates, the other waits for it and then finds nothing left to do.

const SCRIPT = join(import.meta.dir, "open-db-script.ts");

async function startTogether(path: string, count: number) {
  const runs = Array.from({ length: count }, () =>
    Bun.spawn({ cmd: [process.execPath, "run", SCRIPT, path], stdout: "pipe", stderr: "pipe" }),
  );
  return Promise.all(runs.map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })));
}

test("20 processes opening a fresh database at the same moment all succeed, and each migration runs once", async () => {
  // Several fresh folders: the race is lost only now and then by one process of the twenty.
  for (let round = 0; round < 5; round++) {
    const dir = mkdtempSync(join(tmpdir(), "site-concurrent-"));
    try {
      const path = join(dir, "data", "site.db");
      const failures = (await startTogether(path, 20)).filter((r) => r.code !== 0);
      expect(
        failures.map(
          (f) =>
            f.stderr
              .trim()
              .split("\n")
              .find((line) => line.includes("Error")) ?? f.stderr,
        ),
      ).toEqual([]);

      const sqlite = new Database(path, { readonly: true });
      const applied = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get();
      const mode = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get();
      sqlite.close();
      expect(applied?.n).toBe(MIGRATIONS.length);
      expect(mode?.journal_mode).toBe("wal");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}, 60_000);
