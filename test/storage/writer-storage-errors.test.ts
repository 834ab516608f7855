import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { openDb } from "../../db/client";
import * as schema from "../../db/schema";
import { StorageUnavailableError } from "../../db/storage";
import { createWriter } from "../../db/writer";

// A write on a connection whose storage refuses it (here a read-only one, as on a file system
// remounted read-only under a running server) fails at once with StorageUnavailableError, which
// the HTTP layer answers 503, and nothing is written.

test("a write refused by read-only storage fails at once as storage unavailable, with nothing written", async () => {
  const dir = mkdtempSync(join(tmpdir(), "site-ro-"));
  try {
    const path = join(dir, "site.db");
    openDb(path).$client.close();
    const client = new Database(path, { readonly: true });
    let waited = false;
    const write = createWriter(drizzle({ client, schema }), { waitMs: 5_000, onWait: () => (waited = true) });
    const error = await write((tx) => tx.insert(schema.siteSettings).values({ key: "k", value: "v", createdAt: new Date() }).run()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error instanceof StorageUnavailableError ? error.failure : null).toBe("read-only");
    expect(error instanceof StorageUnavailableError ? error.retryAfterSeconds : 0).toBeGreaterThan(0);
    // Not waited for like a lock: the owner has to act.
    expect(waited).toBe(false);
    expect(client.query("SELECT count(*) AS n FROM site_settings WHERE key = 'k'").get()).toEqual({ n: 0 });
    client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
