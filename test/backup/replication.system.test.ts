import { test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSmtp } from "../support/smtp";
import { disasterDrill } from "./disaster-drill";

// The disaster drill (disaster-drill.ts) replicating to a folder; to S3 in replication-s3.system.test.ts.

const smtp = useSmtp();

test("replicated to a folder (file://): killed, data folder deleted, restored: every order, licence and lead back, keys verify, no e-mail twice", async () => {
  const replica = mkdtempSync(join(tmpdir(), "site-replica-"));
  try {
    await disasterDrill("file", { BACKUP_URL: `file://${replica}` }, smtp);
  } finally {
    rmSync(replica, { recursive: true, force: true });
  }
}, 240_000);
