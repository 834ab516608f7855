import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeS3, startFakeS3 } from "../support/fake-s3";
import { useSmtp } from "../support/smtp";
import { restoreDrill } from "./restore-drill";

// The restore drill (restore-drill.ts) with its replica on S3-compatible storage.

const smtp = useSmtp();
let s3: FakeS3;
beforeAll(() => {
  s3 = startFakeS3("site-backups");
});
afterAll(() => s3.stop());

test("the same drill against S3-compatible storage (a fake S3 on loopback)", async () => {
  await restoreDrill(
    "s3",
    {
      BACKUP_URL: "s3://site-backups/drill",
      BACKUP_S3_ENDPOINT: s3.url,
      BACKUP_S3_REGION: "us-east-1",
      BACKUP_S3_ACCESS_KEY_ID: "test-key-id",
      BACKUP_S3_SECRET_ACCESS_KEY: "test-secret-key",
    },
    "drill",
    { smtp, s3 },
  );
  expect(s3.unknown).toEqual([]);
}, 240_000);
