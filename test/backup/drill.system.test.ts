import { test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSmtp } from "../support/smtp";
import { restoreDrill } from "./restore-drill";

// The restore drill with a file:// replica (restore-drill.ts); the S3 one is in drill-s3.system.test.ts.

const smtp = useSmtp();

test("restore drill with the live BACKUP_URL (file://): the copy replicates nothing; the next restore has the live sale made meanwhile, its licence active", async () => {
  const replica = mkdtempSync(join(tmpdir(), "site-drill-replica-"));
  try {
    await restoreDrill("file", { BACKUP_URL: `file://${replica}` }, replica, { smtp });
  } finally {
    rmSync(replica, { recursive: true, force: true });
  }
}, 240_000);
