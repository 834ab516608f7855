import { expect, test } from "bun:test";
import { overview } from "../../server/owner/console/overview";
import { restoredCopyReason } from "../../server/platform/backup/identity";
import { writeReplicationStatus } from "../../server/platform/backup/status";
import { ownerCookie } from "../console/owner";
import { createTestSite } from "../support/app";

// A server that does not replicate on purpose (a restored copy not promoted, a replica another
// database holds) is not "backups on" in the console: the checklist item stays to do, and says why.

test("the console's backups item says why a server on a restored copy does not replicate, and the command that changes it", async () => {
  const site = await createTestSite({ env: { BACKUP_URL: "file:///mnt/other-disk/site" } });
  try {
    const reason = restoredCopyReason({ from: "file:///mnt/other-disk/site", at: "2026-11-27T20:00:00.000Z" });
    writeReplicationStatus(site.dataDir, {
      enabled: true,
      target: "file:///mnt/other-disk/site",
      running: false,
      // The replica's last replication, by the database this one was restored from.
      lastReplicatedAt: new Date("2026-11-27T19:59:00Z"),
      lastError: null,
      restarts: 0,
      held: reason,
      database: "0123456789abcdef",
    });
    const backups = overview(site.db, site.config, new Date(), site.content.current().site);
    expect(backups.checklist.find((i) => i.id === "backups")?.ok).toBe(false);
    expect(backups.backup.lastError).toBe(reason);
    const cookie = await ownerCookie(site);
    const html = await (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    expect(html).toContain("this database was restored from file:///mnt/other-disk/site");
    expect(html).toContain("site backup promote");
  } finally {
    await site.close();
  }
}, 30_000);
