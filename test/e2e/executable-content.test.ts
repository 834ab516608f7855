import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Subprocess, spawn, spawnSync } from "bun";
import type { ContentDocument } from "../../shared/content";
import { until } from "../support/wait";
import { builtExecutable } from "./built-executable";

// The executable follows the owner's published content: a publish made with its own
// `site content import` is served without a restart, and after a restart the published pages are
// served from the first request on, never the build's texts.

const root = join(import.meta.dir, "..", "..");
const exe = join(root, "dist", "site");
const workDir = mkdtempSync(join(tmpdir(), "site-exe-content-"));
const env = { PATH: process.env.PATH ?? "", HOME: workDir, PORT: "0", LOG_LEVEL: "info", DATA_DIR: join(workDir, "data") };
const running: Subprocess[] = [];
afterAll(async () => {
  for (const server of running) {
    server.kill("SIGTERM");
    await server.exited;
  }
  rmSync(workDir, { recursive: true, force: true });
});

/** Starts the executable and resolves with its address once it listens. */
async function start(): Promise<{ base: string; server: Subprocess<"ignore", "pipe", "pipe"> }> {
  const server = spawn({ cmd: [exe], cwd: workDir, env, stdout: "pipe", stderr: "pipe" });
  running.push(server);
  const reader = server.stdout.getReader();
  let out = "";
  for (;;) {
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    if (port !== undefined && /listening on[^\n]*\n/.test(out)) {
      reader.releaseLock();
      return { base: `http://127.0.0.1:${port}`, server };
    }
    const { done, value } = await reader.read();
    if (done) throw new Error(`executable exited: ${out}${await new Response(server.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
}

const get = async (base: string, path: string) => {
  const response = await fetch(base + path);
  return { etag: response.headers.get("etag"), html: await response.text() };
};

// Its own deadline: the build compiles the whole site (about 20 s alone, several times that on a
// loaded machine), and the executable starts twice.
test("content published with the executable's own command is served at once, and still after a restart", async () => {
  await builtExecutable();

  const first = await start();
  const built = await get(first.base, "/en");
  expect(built.html.includes("Every film and series. One payment. For life.")).toBe(true);
  expect((await get(first.base, "/en/guide")).html.includes("Windows computers")).toBe(true);

  const exported = spawnSync({ cmd: [exe, "content", "export"], cwd: workDir, env });
  expect(exported.exitCode).toBe(0);
  const file: ContentDocument = JSON.parse(exported.stdout.toString());
  file.texts.heroTitle = { ...file.texts.heroTitle, en: "Your own cinema, published." };
  file.guide.devices = file.guide.devices.filter((device) => device.id !== "windows");
  const path = join(workDir, "content.json");
  writeFileSync(path, JSON.stringify(file, null, 2));
  const imported = spawnSync({ cmd: [exe, "content", "import", path], cwd: workDir, env });
  expect({ code: imported.exitCode, out: imported.stdout.toString() }).toEqual({
    code: 0,
    out: expect.stringContaining("Published version 1"),
  });

  // The running executable follows the publish without a restart.
  const published = await until("the running executable to serve the published page", async () => {
    const page = await get(first.base, "/en");
    return page.html.includes("Your own cinema, published.") ? page : null;
  });
  expect(published.etag).not.toBe(built.etag);
  const guide = await until("the running executable to serve the published guide", async () => {
    const page = await get(first.base, "/en/guide");
    return page.html.includes("Windows computers") ? null : page;
  });

  first.server.kill("SIGTERM");
  expect(await first.server.exited).toBe(0);

  // Restarted: the very first answers are the published pages, the same bytes as before the restart.
  const second = await start();
  const again = await get(second.base, "/en");
  expect(again.html.includes("Your own cinema, published.")).toBe(true);
  expect(again.html.includes("Every film and series. One payment. For life.")).toBe(false);
  expect(again.etag).toBe(published.etag);
  const guideAgain = await get(second.base, "/en/guide");
  expect(guideAgain.html.includes("Windows computers")).toBe(false);
  expect(guideAgain.etag).toBe(guide.etag);
}, 300_000);
