import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRequestMigration } from "../../server/platform/http/migrate-requests";

// The kernel setting a swap relies on, read from a file standing in for /proc/sys: the real one is
// this machine's, and the swap test (swap.system.test.ts) is where a server turns it on for real.
const dir = mkdtempSync(join(tmpdir(), "site-migrate-req-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a server replacing another turns the kernel's hand-over of queued connections on when it is off and it may", () => {
  const setting = join(dir, "off");
  writeFileSync(setting, "0\n");
  expect(ensureRequestMigration(setting)).toBe("turned on");
  expect(readFileSync(setting, "utf8")).toBe("1\n");
  // Already on: left as it is.
  expect(ensureRequestMigration(setting)).toBe("on");
  expect(readFileSync(setting, "utf8")).toBe("1\n");
});

test("off and not ours to change (not root), or missing from the kernel: it says which, and changes nothing", () => {
  const refused = {
    read: () => "0\n",
    write: () => {
      throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    },
  };
  expect(ensureRequestMigration("/proc/sys/net/ipv4/tcp_migrate_req", refused)).toBe("off");
  expect(ensureRequestMigration(join(dir, "absent"))).toBe("absent");
});
