import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pullKeptFiles, pushKeptFiles } from "../../server/platform/backup/kept-files";

// The HTTPS certificate, its key and the ACME account go to the backup with the other kept files,
// and come back with a restore: a restored server serves HTTPS at once, with the same account.
// The challenge answers and the status of the last attempt do not: they mean nothing elsewhere.

test("tls/ certificate, key and ACME account are backed up and restored; challenges and status are not", async () => {
  const root = mkdtempSync(join(tmpdir(), "site-tls-kept-"));
  try {
    const data = join(root, "data");
    const target = join(root, "replica");
    mkdirSync(join(data, "tls", "challenges"), { recursive: true });
    const files = {
      "account.key": "ACCOUNT KEY",
      "account.json": '{"directory":"d","url":"u"}',
      "certificate.pem": "CHAIN",
      "certificate.key": "KEY",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(data, "tls", name), text);
    writeFileSync(join(data, "tls", "status.json"), "{}");
    writeFileSync(join(data, "tls", "challenges", "abcdefghijklmnopqrstuvwxyz"), "answer");

    const copied = await pushKeptFiles(data, { kind: "file", url: `file://${target}`, path: target }, new Map());
    expect(copied.sort()).toEqual(
      Object.keys(files)
        .map((name) => `tls/${name}`)
        .sort(),
    );

    const restored = join(root, "restored");
    await pullKeptFiles(restored, { kind: "file", url: `file://${target}`, path: target });
    for (const [name, text] of Object.entries(files)) expect(readFileSync(join(restored, "tls", name), "utf8")).toBe(text);
    expect(existsSync(join(restored, "tls", "status.json"))).toBe(false);
    expect(existsSync(join(restored, "tls", "challenges"))).toBe(false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
