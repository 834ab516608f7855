// Image conversion time per upload, as the owner waits for it: one picture per request to the
// console's upload route, on the server started from the sources (`bun run start`) and on the
// compiled executable (`dist/site`, whose image library is inside it: scripts/embedded-sharp.ts).
// Each on a fresh data folder, signed in with a recovery code. Builds dist/site when it is missing.
//   ./node_modules/.bin/bun run bench/picture-uploads.ts

import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { hashToken } from "../server/owner/console/tokens";
import { startBenchServer } from "./load";
import { noisyJpeg } from "./pictures";
import { loadAverage } from "./site";

const root = join(import.meta.dir, "..");
const exe = join(root, "dist", "site");
if (!existsSync(exe)) await $`${process.execPath} run ${join(root, "scripts/build.ts")}`.cwd(root).quiet();
const dir = mkdtempSync(join(tmpdir(), "bench-uploads-"));
const POSTERS = 24;
const posters = await Promise.all(Array.from({ length: POSTERS }, (_, i) => noisyJpeg(i, 600, 900)));
const shot = await noisyJpeg(99, 2560, 1600);

async function measure(name: string, cmd: string[], cwd: string) {
  const dataDir = join(dir, name);
  const server = await startBenchServer(cmd, { DATA_DIR: dataDir, WORKERS: "1" }, cwd);
  try {
    const code = "BENCH-CODES";
    const db = new Database(join(dataDir, "site.db"));
    db.run("PRAGMA busy_timeout = 10000");
    db.query("INSERT INTO owner_recovery_codes (code_hash, created_at) VALUES (?, ?)").run(hashToken(code), Date.now());
    db.close();
    const signIn = await fetch(`${server.base}/admin/sign-in/recovery`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ code }).toString(),
      redirect: "manual",
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const upload = async (path: string, form: FormData) => {
      const started = performance.now();
      const answer = await fetch(server.base + path, { method: "POST", headers: { cookie }, body: form, redirect: "manual" });
      if (answer.status !== 303) throw new Error(`${name}: ${path} answered ${answer.status}`);
      return performance.now() - started;
    };
    const times: number[] = [];
    for (const [i, bytes] of posters.entries()) {
      const form = new FormData();
      form.append("posters", new File([new Uint8Array(bytes)], `p${i}.jpg`, { type: "image/jpeg" }));
      times.push(await upload("/admin/catalogue/posters", form));
    }
    const first = times[0] ?? 0;
    const rest = times.slice(1).sort((a, b) => a - b);
    const form = new FormData();
    form.set("slot", "previewComputer");
    form.set("file", new File([new Uint8Array(shot)], "shot.jpg", { type: "image/jpeg" }));
    const screenshot = await upload("/admin/catalogue/media", form);
    console.log(
      `${name}: poster 600×900 upload median ${rest[Math.floor(rest.length / 2)]?.toFixed(0)} ms, max ${rest.at(-1)?.toFixed(0)} ms (${POSTERS - 1} uploads; the first, loading the library, ${first.toFixed(0)} ms); screenshot 2560×1600 ${screenshot.toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

console.log(loadAverage());
try {
  await measure("bun run start", [process.execPath, "run", join(root, "server/main.ts")], root);
  await measure("dist/site", [exe], dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
