import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { litestreamBinary, litestreamConfig } from "../../server/platform/backup/litestream";
import { untilInReplica } from "../backup/support";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { posterPng } from "./fixtures";

// The owner's uploads live in the database (docs/decisions/019-catalogue-and-media.md), so the
// backups replicate them with everything else and `site restore` into an empty data folder brings
// them back: the restored site serves the same screenshot, byte for byte.

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "site-media-restore-"));
const sites: TestSite[] = [];
afterAll(async () => {
  for (const s of sites) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

test("site restore into an empty folder brings back an uploaded screenshot, served as before", async () => {
  const site = await createTestSite({ dataDir: join(dir, "live") });
  sites.push(site);
  const cookie = await ownerCookie(site);
  const form = new FormData();
  form.set("slot", "previewComputer");
  form.set("file", new File([new Uint8Array(await posterPng(1400, 900, "#446688"))], "computer.png", { type: "image/png" }));
  const uploaded = await site.request("/admin/catalogue/media", { method: "POST", headers: { cookie }, body: form });
  expect(uploaded.status).toBe(303);
  const url = /\/media\/[0-9a-f]{16}-1280\.webp/.exec(await (await site.request("/")).text())?.[0];
  expect(url).toBeDefined();
  const original = new Uint8Array(await (await site.request(url ?? "")).arrayBuffer());

  const replica = join(dir, "replica");
  const config = join(dir, "litestream.yml");
  writeFileSync(config, litestreamConfig(site.config.dbPath, { kind: "file", url: `file://${replica}`, path: replica }));
  const child = Bun.spawn({ cmd: [litestreamBinary(undefined), "replicate", "-config", config], stdout: "ignore", stderr: "ignore" });
  const name = url?.slice("/media/".length) ?? "";
  const holdsUpload = (db: import("bun:sqlite").Database) => db.query("SELECT 1 FROM media_files WHERE name = ?").get(name) !== null;
  // Until a restore of the replica, as it is, holds the upload (Litestream's first snapshot).
  expect(await untilInReplica({ BACKUP_URL: `file://${replica}` }, holdsUpload, 20_000)).toBe(true);
  child.kill("SIGTERM");
  await child.exited;

  const restored = join(dir, "restored");
  mkdirSync(restored);
  const result = Bun.spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "restore"],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      LOG_LEVEL: "silent",
      BACKUP_URL: `file://${replica}`,
      DATA_DIR: restored,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect({ code: result.exitCode, err: result.stderr.toString() }).toEqual({ code: 0, err: "" });

  const again = await createTestSite({ dataDir: restored });
  sites.push(again);
  expect(await (await again.request("/")).text()).toContain(url ?? "");
  const served = await again.request(url ?? "");
  expect(served.headers.get("content-type")).toBe("image/webp");
  expect(new Uint8Array(await served.arrayBuffer())).toEqual(original);
}, 60_000);
