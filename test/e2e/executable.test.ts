import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, spawnSync } from "bun";
import { hashToken } from "../../server/owner/console/tokens";
import { catalogueCsv, posterJpeg, posterPng } from "../catalogue/fixtures";
import { mountSmallDisk } from "../support/tmpfs";
import { until } from "../support/wait";
import { builtExecutable } from "./built-executable";

// The owner's way to run the site: one file, started from any directory.
const root = join(import.meta.dir, "..", "..");
const workDir = mkdtempSync(join(tmpdir(), "site-exe-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// Its own deadline: the build compiles the whole site (about 20 s alone, several times that on a
// loaded machine).
test("npm run build makes one executable that serves the whole site from another directory", async () => {
  await builtExecutable();

  const server = spawn({
    cmd: [join(root, "dist", "site")],
    cwd: workDir,
    // No HOST: by default the site listens on loopback alone, and its start-up line says so.
    env: { PATH: process.env.PATH ?? "", PORT: "0", LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const reader = server.stdout.getReader();
    let out = "";
    let port = "";
    // Until the whole start-up line is in (its fields come after the address).
    while (port === "" || !/listening on[^\n]*\n/.test(out)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`executable exited: ${out}`);
      out += new TextDecoder().decode(value);
      port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1] ?? "";
    }
    const base = `http://127.0.0.1:${port}`;
    // The build it is, said the same by the start-up line, /healthz and `site version`.
    const version = spawnSync({ cmd: [join(root, "dist", "site"), "--version"], cwd: workDir, env: { PATH: process.env.PATH ?? "" } });
    const commit = spawnSync({ cmd: ["git", "-C", root, "log", "-1", "--format=%h"] })
      .stdout.toString()
      .trim();
    const said = /^site (\d+\.\d+\.\d+) \(commit ([0-9a-f]+(?:\+changes)?), built (\S+)\)\n$/.exec(version.stdout.toString());
    expect(said?.[2]?.replace("+changes", "")).toBe(commit);
    const health = await (await fetch(`${base}/healthz`)).json();
    expect(health).toEqual({ ok: true, version: said?.[1], commit: said?.[2], date: said?.[3], from: "executable" });
    expect(JSON.parse(out.split("\n").find((line) => line.includes("listening on")) ?? "{}")).toMatchObject({
      version: said?.[1],
      commit: said?.[2],
      built: said?.[3],
    });
    const html = await (await fetch(`${base}/en`)).text();
    expect(html).toContain('<html lang="en"');
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(3);
    for (const url of assets) expect({ url, status: (await fetch(base + url)).status }).toEqual({ url, status: 200 });
    // The islands' code: every chunk the loader's script imports, directly or through another chunk.
    const scripts = assets.filter((url) => url.endsWith(".js"));
    const chunks = new Set<string>();
    for (let i = 0; i < scripts.length; i++) {
      const code = await (await fetch(base + scripts[i])).text();
      for (const m of code.matchAll(/"\.\/(chunk-[a-z0-9]+\.js)"/g)) {
        const url = `/assets/${m[1]}`;
        if (!chunks.has(url)) scripts.push(url);
        chunks.add(url);
      }
    }
    expect(chunks.size).toBeGreaterThan(5);
    for (const url of chunks) expect({ url, status: (await fetch(base + url)).status }).toEqual({ url, status: 200 });
    const video = await fetch(`${base}/demo-video.mp4`);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    // The owner's console, its bundle inside the executable: the sign-in page, its script and
    // stylesheet, each compressed, and the passkey sign-in's first step (the WebAuthn options).
    const signIn = await fetch(`${base}/admin/sign-in`, { headers: { "accept-encoding": "br", "accept-language": "en" } });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(signIn.headers.get("content-encoding")).toBe("br");
    const signInHtml = await signIn.text();
    expect(signInHtml).toContain("Sign in with a passkey");
    const consoleFiles = [...signInHtml.matchAll(/(?:href|src)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(consoleFiles.map((f) => f.slice(f.lastIndexOf(".") + 1)).sort()).toEqual(["css", "js"]);
    for (const file of consoleFiles) {
      const response = await fetch(base + file, { headers: { "accept-encoding": "br, gzip" } });
      expect({ file, status: response.status, encoding: response.headers.get("content-encoding") }).toEqual({
        file,
        status: 200,
        encoding: "br",
      });
      expect(response.headers.get("content-type")).toBe(
        file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
      );
      expect((await response.text()).length).toBeGreaterThan(1000);
    }
    const options = await fetch(`${base}/admin/api/sign-in/options`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: "{}",
    });
    expect(options.status).toBe(200);
    const { options: webauthn } = await options.json();
    expect(webauthn.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(webauthn.userVerification).toBe("required");
    // The owner's first step, from the executable too: 'site owner invite' prints a link that opens
    // the passkey page of the running server and lets it start a registration.
    const invite = spawnSync({ cmd: [join(root, "dist", "site"), "owner", "invite"], cwd: workDir, env: { PATH: process.env.PATH ?? "" } });
    expect(invite.exitCode).toBe(0);
    const link = new URL(/https?:\/\/\S+\/admin\/invite\/\S+/.exec(invite.stdout.toString())?.[0] ?? "http://invalid/");
    const invitePage = await fetch(`${base}${link.pathname}`, { headers: { "accept-language": "en" } });
    expect(invitePage.status).toBe(200);
    expect(await invitePage.text()).toContain('data-passkey="register"');
    const registration = await fetch(`${base}/admin/api/passkeys/register-options`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ invite: link.pathname.split("/").at(-1) }),
    });
    expect(registration.status).toBe(200);
    expect((await registration.json()).options.authenticatorSelection.userVerification).toBe("required");
    // Its SQLite file is created, with every migration, where it was started.
    expect(await Bun.file(join(workDir, "data", "site.db")).exists()).toBe(true);
    // A test payment: the access e-mail (React Email inside the executable) lands in data/mail, with
    // the invoice and the terms as PDFs (pdfkit and its fonts inside the executable).
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const start = await fetch(`${base}/api/payment`, {
      method: "POST",
      headers: form,
      body: "locale=en&acceptTerms=yes",
      redirect: "manual",
    });
    const card = new URLSearchParams({
      email: "exe@example.com",
      name: "Exe",
      city: "Paris",
      card: "4242 4242 4242 4242",
      expiry: "12/34",
      cvc: "123",
    });
    expect(
      (await fetch(`${base}${start.headers.get("location")}`, { method: "POST", headers: form, body: card.toString(), redirect: "manual" }))
        .status,
    ).toBe(303);
    const eml = join(workDir, "data", "mail", "1.eml");
    for (let i = 0; i < 100 && !existsSync(eml); i++) await Bun.sleep(50);
    const mail = readFileSync(eml, "utf8");
    expect(mail).toContain("Subject: Your Lifetime Stream licence key and receipt");
    expect(mail.match(/Content-Type: application\/pdf/gi)).toHaveLength(2);
  } finally {
    server.kill();
    await server.exited;
  }

  const exported = spawn({ cmd: [join(root, "dist", "site"), "orders", "export"], cwd: workDir, stdout: "pipe" });
  expect(await exported.exited).toBe(0);
  expect((await new Response(exported.stdout).text()).split("\r\n")[0]).toStartWith("id,reference,provider,checkout_id,status");
}, 240_000);

/** The executable built above, started on `dataDir` (two processes); its log as it comes. */
function startExecutable(dataDir: string, env: Record<string, string> = {}) {
  const server = spawn({
    cmd: [join(root, "dist", "site")],
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", DATA_DIR: dataDir, WORKERS: "2", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  // Its log is read as it comes, all of it: a full pipe would stop the server at its next line.
  let out = "";
  let ended = false;
  let wake = () => {};
  void (async () => {
    const decoder = new TextDecoder();
    const reader = server.stdout.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      out += decoder.decode(read.value);
      wake();
    }
    ended = true;
    wake();
  })();
  const logLine = async (pattern: RegExp): Promise<string> => {
    for (;;) {
      const line = out.split("\n").find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (ended) throw new Error(`executable exited: ${out}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return { server, logLine };
}

const pageBytes = async (url: string) =>
  new Uint8Array(await (await fetch(url, { headers: { "accept-encoding": "br" }, decompress: false })).arrayBuffer());

test("a first start answers with the right pages while they are rendered, and a restart serves them without rendering again", async () => {
  // The default early-bird offer ends 14 days after the first start on this data folder: the build
  // could not render these pages, the first start does.
  const dataDir = join(workDir, "restart-data");
  const first = startExecutable(dataDir);
  let before: Uint8Array;
  try {
    const port = /127\.0\.0\.1:(\d+)/.exec(await first.logLine(/listening on/))?.[1];
    const base = `http://127.0.0.1:${port}`;
    const early = await pageBytes(`${base}/`);
    const ready = JSON.parse(await first.logLine(/"pages ready"/));
    expect(ready.rendered + ready.renderedApart).toBeGreaterThan(40);
    before = await pageBytes(`${base}/`);
    expect(Buffer.from(early).equals(Buffer.from(before))).toBe(true);
    await first.logLine(/worker listening/);
  } finally {
    first.server.kill();
    await first.server.exited;
  }

  const again = startExecutable(dataDir);
  try {
    const port = /127\.0\.0\.1:(\d+)/.exec(await again.logLine(/listening on/))?.[1];
    const ready = JSON.parse(await again.logLine(/"pages ready"/));
    expect({ rendered: ready.rendered, renderedApart: ready.renderedApart }).toEqual({ rendered: 0, renderedApart: 0 });
    expect(Buffer.from(await pageBytes(`http://127.0.0.1:${port}/`)).equals(Buffer.from(before))).toBe(true);
  } finally {
    again.server.kill();
    await again.server.exited;
  }
});

/** Every picture URL of a page's srcsets (`<source>` and `<img>`), by format. */
function srcsetPictures(html: string): { avif: string[]; webp: string[] } {
  const urls = [...html.matchAll(/srcSet="([^"]+)"|srcset="([^"]+)"/g)].flatMap((m) =>
    (m[1] ?? m[2] ?? "").split(",").map((entry) => entry.trim().split(" ")[0] ?? ""),
  );
  const owned = urls.filter((url) => url.startsWith("/media/"));
  return { avif: owned.filter((url) => url.endsWith(".avif")), webp: owned.filter((url) => url.endsWith(".webp")) };
}

/**
 * The console's uploads as the signed-in owner. The owner signs in with a recovery code, written
 * where the first passkey's registration puts them (the passkey itself needs a browser's
 * authenticator: test/e2e/catalogue.test.ts registers one).
 */
async function ownerUploads(base: string, dataDir: string) {
  const code = "ABCDE-FGHJK";
  const db = new Database(join(dataDir, "site.db"));
  try {
    db.run("PRAGMA busy_timeout = 10000");
    db.query("INSERT INTO owner_recovery_codes (code_hash, created_at) VALUES (?, ?)").run(hashToken(code), Date.now());
  } finally {
    db.close();
  }
  const signIn = await fetch(`${base}/admin/sign-in/recovery`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ code }).toString(),
    redirect: "manual",
  });
  expect(signIn.status).toBe(303);
  const headers = { cookie: (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "", "accept-language": "en" };
  return (path: string, form: FormData) => fetch(base + path, { method: "POST", headers, body: form, redirect: "manual" });
}

const fileOf = (bytes: Uint8Array | string, name: string, type: string) =>
  new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });

test("pictures uploaded to the executable are converted by it, and after a restart it serves them as AVIF and WebP, immutable, with 304s", async () => {
  const dataDir = join(workDir, "media-data");
  const first = startExecutable(dataDir);
  try {
    const port = /127\.0\.0\.1:(\d+)/.exec(await first.logLine(/listening on/))?.[1];
    const base = `http://127.0.0.1:${port}`;
    const upload = await ownerUploads(base, dataDir);
    // Three posters with a catalogue that names them, and a computer screenshot: each converted by
    // the executable's own image library (a refusal would say it cannot convert pictures, 503).
    const catalogue = new FormData();
    catalogue.set("csv", fileOf(catalogueCsv(30, ["one.png", "two.jpg", "three.png"]), "titles.csv", "text/csv"));
    catalogue.append("posters", fileOf(await posterPng(400, 600, "#1d3557"), "one.png", "image/png"));
    catalogue.append("posters", fileOf(await posterJpeg(400, 600, "#e63946"), "two.jpg", "image/jpeg"));
    catalogue.append("posters", fileOf(await posterPng(400, 600, "#2a9d8f"), "three.png", "image/png"));
    const imported = await upload("/admin/catalogue/import", catalogue);
    expect({ status: imported.status, location: imported.headers.get("location") }).toEqual({
      status: 303,
      location: "/admin/catalogue?done=imported#imported",
    });
    const shot = new FormData();
    shot.set("slot", "previewComputer");
    shot.set("file", fileOf(await posterPng(1600, 1000, "#264653"), "computer.png", "image/png"));
    expect((await upload("/admin/catalogue/media", shot)).status).toBe(303);
    // Both processes follow the publish (within 2 s): the page of either shows the pictures.
    await until("the running executable to show the uploaded pictures", async () => {
      const html = await (await fetch(`${base}/en`)).text();
      return srcsetPictures(html).avif.some((url) => url.endsWith("-960.avif"));
    });
  } finally {
    first.server.kill();
    await first.server.exited;
  }

  const again = startExecutable(dataDir);
  try {
    const port = /127\.0\.0\.1:(\d+)/.exec(await again.logLine(/listening on/))?.[1];
    const base = `http://127.0.0.1:${port}`;
    for (const path of ["/", "/en", "/catalogue", "/en/catalogue"]) {
      const html = await (await fetch(base + path)).text();
      const pictures = srcsetPictures(html);
      // Posters at 160 and 320 px in both formats (the screenshot at 640 to 1280 px on the landing page).
      expect({ path, avif: pictures.avif.some((u) => /\/media\/[0-9a-f]{16}-160\.avif$/.test(u)) }).toEqual({ path, avif: true });
      expect({ path, webp: pictures.webp.some((u) => /\/media\/[0-9a-f]{16}-320\.webp$/.test(u)) }).toEqual({ path, webp: true });
      if (!path.includes("catalogue"))
        expect({ path, screenshot: pictures.webp.some((u) => u.endsWith("-1280.webp")) }).toEqual({ path, screenshot: true });
      for (const url of new Set([...pictures.avif, ...pictures.webp])) {
        const picture = await fetch(base + url);
        const type = url.endsWith(".avif") ? "image/avif" : "image/webp";
        expect({ url, status: picture.status, type: picture.headers.get("content-type") }).toEqual({ url, status: 200, type });
        expect(picture.headers.get("cache-control")).toContain("immutable");
        expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(100);
        const revalidated = await fetch(base + url, { headers: { "if-none-match": picture.headers.get("etag") ?? "" } });
        expect({ url, status: revalidated.status }).toEqual({ url, status: 304 });
      }
    }
  } finally {
    again.server.kill();
    await again.server.exited;
  }
}, 120_000);

test("where the temporary folder cannot load libraries, a picture upload is refused with the reason and the way out, and nothing is stored", async () => {
  const noExec = mountSmallDisk({ sizeKb: 65_536, noExec: true });
  const dataDir = join(workDir, "noexec-data");
  const server = startExecutable(dataDir, { TMPDIR: noExec.dir, WORKERS: "1" });
  try {
    const port = /127\.0\.0\.1:(\d+)/.exec(await server.logLine(/listening on/))?.[1];
    const upload = await ownerUploads(`http://127.0.0.1:${port}`, dataDir);
    const form = new FormData();
    form.append("posters", fileOf(await posterPng(400, 600, "#1d3557"), "one.png", "image/png"));
    const refused = await upload("/admin/catalogue/posters", form);
    expect(refused.status).toBe(503);
    const page = await refused.text();
    expect(page).toContain("pictures cannot be converted on this server");
    expect(page).toContain("failed to map segment");
    expect(page).toContain("TMPDIR");
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    try {
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM media").get()?.n).toBe(0);
    } finally {
      db.close();
    }
    // The library's files were not left in the temporary folder.
    expect(readdirSync(noExec.dir)).toEqual([]);
  } finally {
    server.server.kill();
    await server.server.exited;
    noExec.unmount();
  }
});
