import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkServerIdentity, connect, type PeerCertificate } from "node:tls";
import { freePort, type Pebble, startPebble, waitFor } from "../support/pebble";
import { spawnSite } from "../support/site-process";

// DOMAIN set: the real server gets its certificate from Pebble (Let's Encrypt's ACME test server)
// over http-01 on its own HTTP port, serves HTTPS with it, redirects HTTP, and with a CA that
// refuses, says so in its log while HTTP answers a page saying the certificate is pending.

const ROOT = join(import.meta.dir, "..", "..");
const DOMAIN = "shop.example.test";

type Site = { output: string[]; stop(): Promise<void>; dataDir: string; spawnedAt: number };

function startSite(env: Record<string, string>): Site {
  const dataDir = mkdtempSync(join(tmpdir(), "site-tls-"));
  const spawnedAt = performance.now();
  const { output, process: proc } = spawnSite({ DATA_DIR: dataDir, WORKERS: "1", ...env });
  return {
    output,
    dataDir,
    spawnedAt,
    // How it stops is not under test here (a SIGTERM drains for 1 to 4 s): ended at once.
    async stop() {
      proc.kill("SIGKILL");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fetches over HTTPS from 127.0.0.1, checking the certificate against `ca` for DOMAIN. */
const httpsFetch = (port: number, ca: string, path = "/") =>
  fetch(`https://127.0.0.1:${port}${path}`, {
    headers: { host: DOMAIN },
    redirect: "manual",
    tls: { ca, checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(DOMAIN, cert) },
  });

describeFirstStart();

function describeFirstStart() {
  const httpPort = freePort();
  const httpsPort = freePort();
  let pebble: Pebble;
  let site: Site;
  let firstAnswerMs = 0;
  let issuers = "";

  beforeAll(async () => {
    pebble = await startPebble({ httpPort });
    issuers = await pebble.issuers();
    site = startSite({
      DOMAIN,
      HOST: "127.0.0.1",
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      ACME_DIRECTORY: pebble.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      OWNER_EMAIL: "owner@shop.example.test",
    });
    // The first HTTPS answer: the certificate obtained over ACME and served (90 s: key generation,
    // the client build and the CA's checks on a loaded machine).
    await waitFor(
      `the first HTTPS answer\n${site.output.join("\n")}`,
      async () => ((await httpsFetch(httpsPort, issuers)).status === 200 ? true : null),
      90_000,
    );
    firstAnswerMs = performance.now() - site.spawnedAt;
    console.log(`time to first HTTPS answer on a first start with Pebble: ${Math.round(firstAnswerMs)} ms`);
  }, 180_000);

  afterAll(async () => {
    await site?.stop();
    await pebble?.stop();
  });

  test("the site is served over HTTPS with the certificate from the CA, with HSTS", async () => {
    const answer = await httpsFetch(httpsPort, issuers);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("strict-transport-security")).toContain("max-age=");
    expect(await answer.text()).toContain("<html");
    // Not only the pages answered from memory: the app's routes too (an HTTPS URL once routed as a 404).
    const health = await httpsFetch(httpsPort, issuers, "/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    // The certificate names the domain and is kept in DATA_DIR/tls/, with the ACME account's key.
    expect(existsSync(join(site.dataDir, "tls", "certificate.pem"))).toBe(true);
    expect(existsSync(join(site.dataDir, "tls", "account.key"))).toBe(true);
    const served = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        {
          host: "127.0.0.1",
          port: httpsPort,
          servername: DOMAIN,
          ca: issuers,
          checkServerIdentity: (_h, cert) => checkServerIdentity(DOMAIN, cert),
        },
        () => {
          resolve(socket.getPeerCertificate().subjectaltname ?? "");
          socket.end();
        },
      );
      socket.on("error", reject);
    });
    expect(served).toContain(`DNS:${DOMAIN}`);
    expect(site.output.some((line) => line.includes("HTTPS certificate obtained"))).toBe(true);
  });

  test("HTTP redirects to the same path over HTTPS; the ACME challenge path is not redirected", async () => {
    const answer = await fetch(`http://127.0.0.1:${httpPort}/en/?a=1`, { headers: { host: DOMAIN }, redirect: "manual" });
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe(`https://${DOMAIN}:${httpsPort}/en/?a=1`);
    // Someone else's Host never chooses where the redirect goes.
    const foreign = await fetch(`http://127.0.0.1:${httpPort}/`, { headers: { host: "evil.example" }, redirect: "manual" });
    expect(foreign.headers.get("location")).toBe(`https://${DOMAIN}:${httpsPort}/`);
    const challenge = await fetch(`http://127.0.0.1:${httpPort}/.well-known/acme-challenge/unknownTokenAbcdefghijkl`, {
      redirect: "manual",
    });
    expect(challenge.status).toBe(404);
  });

  test("the start-up line names both ports and PUBLIC_BASE_URL comes from the domain", async () => {
    const line = site.output.find((l) => l.includes('"msg":"listening on'));
    expect(line).toContain(`https://127.0.0.1:${httpsPort}`);
    expect(line).toContain(`http://127.0.0.1:${httpPort}`);
    // The page's absolute links (Open Graph image) are built from PUBLIC_BASE_URL, which DOMAIN set.
    const page = await (await httpsFetch(httpsPort, issuers, "/en")).text();
    expect(page).toContain(`content="https://${DOMAIN}:${httpsPort}/assets/og-image`);
  });
}

test("a CA that refuses: a clear error in the log, HTTP answers a page saying the certificate is pending", async () => {
  const httpPort = freePort();
  const httpsPort = freePort();
  // Pebble checks the challenge on a port where nothing listens: it refuses every authorisation.
  const pebble = await startPebble({ httpPort: freePort() });
  const site = startSite({
    DOMAIN,
    HOST: "127.0.0.1",
    HTTP_PORT: String(httpPort),
    HTTPS_PORT: String(httpsPort),
    ACME_DIRECTORY: pebble.directoryUrl,
    ACME_CA_FILE: pebble.caFile,
  });
  try {
    const failure = await waitFor(
      `the failure in the log\n${site.output.join("\n")}`,
      async () => site.output.find((line) => line.includes("HTTPS certificate not obtained")) ?? null,
      120_000,
    );
    const logged = JSON.parse(failure);
    expect(logged.level).toBe("error");
    expect(logged.error).toMatch(/connection refused|connect/i);
    expect(logged.retryInSeconds).toBeGreaterThan(0);
    const page = await fetch(`http://127.0.0.1:${httpPort}/`, { headers: { host: DOMAIN }, redirect: "manual" });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("60");
    const html = await page.text();
    for (const locale of ["fr", "en", "it", "es"]) {
      const texts = JSON.parse(readFileSync(join(ROOT, "locales", `${locale}.json`), "utf8"));
      expect(html).toContain(`<section lang="${locale}">`);
      expect(html).toContain(texts["tlsPending.title"]);
    }
    // The console and the digest read the failure from here.
    const status = JSON.parse(readFileSync(join(site.dataDir, "tls", "status.json"), "utf8"));
    expect(status.lastError).toBe(logged.error);
    // Nothing listens on the HTTPS port without a certificate, and the start-up line says so.
    await expect(fetch(`https://127.0.0.1:${httpsPort}/`, { tls: { rejectUnauthorized: false } })).rejects.toThrow();
    const line = site.output.find((l) => l.includes('"msg":"listening on'));
    expect(line).toContain(`listening on http://127.0.0.1:${httpPort} (a page saying the certificate is pending`);
  } finally {
    await site.stop();
    await pebble.stop();
  }
}, 180_000);

test("a CA that cannot be reached: the log, the console's status and the digest's name the address and the reason", async () => {
  const closed = freePort();
  const directory = `https://127.0.0.1:${closed}/dir`;
  const site = startSite({
    DOMAIN,
    HOST: "127.0.0.1",
    HTTP_PORT: String(freePort()),
    HTTPS_PORT: String(freePort()),
    ACME_DIRECTORY: directory,
  });
  try {
    const failure = await waitFor(
      `the failure in the log\n${site.output.join("\n")}`,
      async () => site.output.find((line) => line.includes("HTTPS certificate not obtained")) ?? null,
      60_000,
    );
    const logged = JSON.parse(failure);
    expect(logged.error).toBe(`The certificate authority's ACME directory ${directory} cannot be reached: connection refused.`);
    const status = JSON.parse(readFileSync(join(site.dataDir, "tls", "status.json"), "utf8"));
    expect(status.lastError).toBe(logged.error);
  } finally {
    await site.stop();
  }
}, 90_000);
