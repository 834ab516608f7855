import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeS3, startFakeS3 } from "../support/fake-s3";
import { useSmtp } from "../support/smtp";
import { disasterDrill } from "./disaster-drill";

// The disaster drill (disaster-drill.ts) replicating to S3-compatible storage.

const smtp = useSmtp();
let s3: FakeS3;
beforeAll(() => {
  s3 = startFakeS3("site-backups");
});
afterAll(() => s3.stop());

test("replicated to S3-compatible storage (a fake S3 on loopback): the same drill, the IP-hash secret stored beside the replica", async () => {
  await disasterDrill(
    "s3",
    {
      BACKUP_URL: "s3://site-backups/shop",
      BACKUP_S3_ENDPOINT: s3.url,
      BACKUP_S3_REGION: "us-east-1",
      BACKUP_S3_ACCESS_KEY_ID: "test-key-id",
      BACKUP_S3_SECRET_ACCESS_KEY: "test-secret-key",
    },
    smtp,
  );
  expect(s3.unknown).toEqual([]);
  expect([...s3.objects.keys()].some((k) => k.startsWith("shop/site-files/"))).toBe(true);
}, 240_000);
