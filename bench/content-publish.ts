// From "Publish" to the new bytes on every process: the server from source with two processes
// (WORKERS=2), twenty publishes made through the console's own endpoints (signed in with a
// recovery code), each timed from the publish's answer to (a) both processes taking the new
// version (their "content published" log lines) and (b) ten requests in a row, each over a new
// connection (so either process may answer), serving the new `/` and `/en`.
// Run: ./node_modules/.bin/bun run bench/content-publish.ts [publishes]
import { join } from "node:path";
import { openDb } from "../db/client";
import { createWriter } from "../db/writer";
import { issueRecoveryCodes } from "../server/owner/console/recovery-codes";
import { readDraft } from "../server/site/content/store";
import { startServer } from "../test/e2e/harness";
import { rawRequest } from "../test/server/raw-http";
import { logEntries } from "../test/support/logs";

const publishes = Number(process.argv[2] ?? 20);
const server = await startServer({ env: { WORKERS: "2" } });
const { baseUrl, dataDir } = server;
const host = new URL(baseUrl).host;

const waitFor = async (what: string, done: () => boolean | Promise<boolean>) => {
  for (const started = Date.now(); !(await done()); await Bun.sleep(5))
    if (Date.now() - started > 60_000) throw new Error(`timed out: ${what}`);
};
const serving = (version: number) =>
  new Set(
    logEntries(server.output)
      .filter((e) => e.msg === "content published" && e.version === version)
      .map((e) => String(e.worker ?? "first")),
  ).size;
const fresh = async (path: string) =>
  Buffer.from((await rawRequest(baseUrl, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).body, "latin1").toString(
    "utf8",
  );

try {
  await waitFor("the worker", () => logEntries(server.output).some((e) => e.msg === "worker listening"));
  const db = openDb(join(dataDir, "site.db"));
  const write = createWriter(db, { waitMs: 5000 });
  const [code] = await write((tx) => issueRecoveryCodes(tx, new Date()));
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const signIn = await fetch(`${baseUrl}/admin/sign-in/recovery`, {
    method: "POST",
    headers: form,
    body: `code=${code}`,
    redirect: "manual",
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { ...form, cookie },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });

  const switched: number[] = [];
  const bytes: number[] = [];
  for (let i = 1; i <= publishes; i++) {
    const title = `Publish number ${i}, for the bench`;
    await post("/admin/content/texts/hero", {
      revision: String(readDraft(db).revision),
      "text:heroTitle:fr": title,
      "text:heroTitle:en": title,
    });
    const answer = await post("/admin/content/publish", { revision: String(readDraft(db).revision) });
    if (answer.status !== 303) throw new Error(`publish answered ${answer.status}`);
    const at = performance.now();
    const atWall = Date.now();
    // Counted to the first of ten answers in a row with the new bytes (the other nine only confirm it).
    let inARow = 0;
    let streakFrom = 0;
    await waitFor("the new bytes", async () => {
      const asked = performance.now();
      const ok = (await fresh("/")).includes(title) && (await fresh("/en")).includes(title);
      if (ok && inARow === 0) streakFrom = asked;
      inARow = ok ? inARow + 1 : 0;
      return inARow >= 10;
    });
    bytes.push(streakFrom - at);
    // When each process took the version, by its own log line's time (the same clock: one machine).
    await waitFor("both processes", () => serving(i) === 2);
    const times = logEntries(server.output)
      .filter((e) => e.msg === "content published" && e.version === i)
      .map((e) => Date.parse(e.time));
    switched.push(Math.max(...times) - atWall);
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
  };
  console.log(`${publishes} publishes, WORKERS=2:`);
  console.log(`  both processes on the new version: p50 ${pct(switched, 50)} ms, p99 ${pct(switched, 99)} ms`);
  console.log(`  10 fresh connections in a row with the new / and /en: p50 ${pct(bytes, 50)} ms, p99 ${pct(bytes, 99)} ms `);
  db.$client.close();
} finally {
  await server.stop();
}
