import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { describe as describeCertificate } from "../../server/platform/tls/files";
import { keepAliveClient } from "../support/keep-alive-client";
import { freePort, type Pebble, startPebble, waitFor } from "../support/pebble";
import { type SiteProcess, spawnSite } from "../support/site-process";

// DOMAIN with WORKERS=2: every process serves HTTPS on the shared port, and a renewal made by the
// first process is served by all of them without a restart. Then a new server replaces the
// running one on the same ports and data folder without a refused request (decision 022).

const DOMAIN = "workers.example.test";

type Site = SiteProcess;

const startSite = (env: Record<string, string>, dataDir: string): Site => spawnSite({ DATA_DIR: dataDir, ...env });

/** One request on a new TLS connection: its status and the serial of the certificate presented. */
function askOnce(port: number, ca: string): Promise<{ status: number; serial: string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    let serial = "";
    const socket = connect({ host: "127.0.0.1", port, servername: DOMAIN, ca }, () => {
      serial = socket.getPeerCertificate().serialNumber;
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${DOMAIN}:${port}\r\nConnection: close\r\n\r\n`);
    });
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.on("end", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), serial }));
    socket.on("error", reject);
  });
}

const httpPort = freePort();
const httpsPort = freePort();
const dataDir = mkdtempSync(join(tmpdir(), "site-tls-workers-"));
let pebble: Pebble;
let issuers = "";
let env: Record<string, string> = {};
let site: Site;

beforeAll(async () => {
  // Certificates of 30 s: renewal is due with a third of their life left, 20 s after issuance
  // (the renewal this file waits for), leaving 10 s for the CA to issue the next one before the
  // first expires (Pebble answers at once here: PEBBLE_VA_NOSLEEP); each renewal is issued in
  // about a second. Every later certificate is renewed the same way while the swap below runs.
  pebble = await startPebble({ httpPort, validitySeconds: 30 });
  issuers = await pebble.issuers();
  env = {
    DOMAIN,
    HOST: "127.0.0.1",
    HTTP_PORT: String(httpPort),
    HTTPS_PORT: String(httpsPort),
    ACME_DIRECTORY: pebble.directoryUrl,
    ACME_CA_FILE: pebble.caFile,
    WORKERS: "2",
  };
  site = startSite(env, dataDir);
  // A deadline, not a wait: key generation, the build and the CA's checks on a loaded machine.
  await waitFor(
    `the worker serving HTTPS\n${site.output.join("\n")}`,
    async () => (site.output.some((l) => l.includes('"msg":"HTTPS certificate served"') && l.includes('"worker":1')) ? true : null),
    120_000,
  );
}, 180_000);

afterAll(async () => {
  site?.process.kill("SIGTERM");
  await site?.process.exited;
  await pebble?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const requestsBy = (output: string[], worker: boolean) =>
  output.filter((l) => l.includes('"msg":"request"') && l.includes('"path":"/healthz"') && l.includes('"worker":1') === worker).length;

test("with WORKERS=2 every process answers HTTPS, and a renewal is served by each without a restart", async () => {
  const first = describeCertificate(readFileSync(join(dataDir, "tls", "certificate.pem"), "utf8")).serial;
  // Twenty-four new connections: the kernel spreads them between the two processes' sockets.
  const answers = await Promise.all(Array.from({ length: 24 }, () => askOnce(httpsPort, issuers)));
  expect(answers.map((a) => a.status)).toEqual(Array(24).fill(200));
  await waitFor("the requests in the log", async () =>
    requestsBy(site.output, true) + requestsBy(site.output, false) >= 24 ? true : null,
  );
  expect(requestsBy(site.output, true)).toBeGreaterThan(0);
  expect(requestsBy(site.output, false)).toBeGreaterThan(0);

  // The renewal, made by the first process when due (20 s after issuance), without a restart.
  await waitFor(
    `the renewal\n${site.output.join("\n")}`,
    async () => (site.output.some((l) => l.includes('"msg":"HTTPS certificate renewed"')) ? true : null),
    180_000,
  );
  // The worker takes it up, and every new connection, whichever process takes it, presents a renewed one.
  await waitFor(`the worker serving the renewed certificate\n${site.output.join("\n")}`, async () =>
    site.output.some((l) => l.includes('"msg":"HTTPS certificate served"') && l.includes('"worker":1') && !l.includes(first)) ? true : null,
  );
  const after = await Promise.all(Array.from({ length: 24 }, () => askOnce(httpsPort, issuers)));
  expect(after.map((a) => a.status)).toEqual(Array(24).fill(200));
  expect(after.filter((a) => a.serial === first)).toEqual([]);
  expect(site.process.exitCode).toBeNull();
}, 300_000);

test("with DOMAIN, a new server replaces the running one on the same ports without a refused request", async () => {
  let oldGone = false;
  let asked = 0;
  let incoming: Site | null = null;
  // Until the new server listens, the clients only talk to the old one as any day's visitors do: at
  // a walk (a request every 20 ms each) rather than as fast as they can, which cost seconds of CPU
  // on both sides before anything was swapped. From then on, as fast as they can.
  let swapping = false;
  const restMs = () => {
    swapping ||= incoming?.output.some((l) => l.includes('"msg":"listening on')) === true;
    return swapping ? 0 : 20;
  };
  const client = () => {
    let after = 0;
    // Bounded: a swap that never ends fails the test by its time-out, not by looping forever.
    return keepAliveClient(
      `https://127.0.0.1:${httpsPort}`,
      ["/healthz", "/en"],
      () => {
        asked++;
        if (oldGone) after++;
        return after <= 20 && asked < 1_000_000;
      },
      { ca: issuers, servername: DOMAIN },
      restMs,
    );
  };
  const clients = Array.from({ length: 12 }, client);
  while (asked < 100) await Bun.sleep(10);

  const old = site;
  const replacement = startSite(env, dataDir);
  incoming = replacement;
  site = replacement;
  const replaced = await waitFor(
    `the replacement taking over\n${replacement.output.join("\n")}`,
    async () => replacement.output.find((l) => l.includes('"msg":"replaced the server running before"')) ?? null,
    120_000,
  );
  expect(JSON.parse(replaced).pid).toBe(old.process.pid);
  expect(await old.process.exited).toBe(0);
  oldGone = true;
  const results = await Promise.all(clients);
  expect(results.flatMap((r) => r.failures)).toEqual([]);
  expect(results.every((r) => r.answered > 20)).toBe(true);
  expect(JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")).pid).toBe(replacement.process.pid);
  // The new server's start-up line, and HTTPS served by it alone now.
  expect(replacement.output.some((l) => l.includes('"msg":"listening on https://') && l.includes('"replacing"'))).toBe(true);
  expect((await askOnce(httpsPort, issuers)).status).toBe(200);
}, 300_000);
