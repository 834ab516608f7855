import { expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { Elysia } from "elysia";
import { createLogger } from "../../server/platform/log";
import { RENEW_BEFORE_MS } from "../../server/platform/tls/certificates";
import { readTlsStatus } from "../../server/platform/tls/files";
import type { TlsSettings } from "../../server/platform/tls/settings";
import { startHttpsSite } from "../../server/platform/tls/start";
import { freePort, startPebble, waitFor } from "../support/pebble";

// The certificate is renewed by the running server when the clock reaches 30 days before its end,
// and the new one is served on the same port without a restart; a renewal the CA refuses is
// recorded for the console and retried, while the certificate in use stays served.

const DOMAIN = "renew.example.test";

/** The serial number of the certificate the HTTPS port presents now. */
function servedSerial(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: DOMAIN, ca, checkServerIdentity: () => undefined }, () => {
      resolve(socket.getPeerCertificate().serialNumber);
      socket.end();
    });
    socket.on("error", reject);
  });
}

test("moved to 30 days before expiry, the running server renews and serves the new certificate; a refused renewal is retried", async () => {
  const httpPort = freePort();
  const pebble = await startPebble({ httpPort });
  const dataDir = mkdtempSync(join(tmpdir(), "site-renew-"));
  let clock = new Date();
  const lines: string[] = [];
  const log = createLogger("info", (line) => lines.push(line));
  const settings: TlsSettings = {
    domains: [DOMAIN],
    httpPort,
    httpsPort: freePort(),
    directoryUrl: pebble.directoryUrl,
    // A copy: stopping Pebble below removes its folder, and the CA is to be found unreachable, not unread.
    caFile: join(dataDir, "acme-ca.pem"),
    email: undefined,
    dir: join(dataDir, "tls"),
  };
  copyFileSync(pebble.caFile, settings.caFile ?? "");
  const app = new Elysia().get("/", () => "served");
  let changes = 0;
  const { site, certificates } = await startHttpsSite({
    app,
    config: { host: "127.0.0.1" },
    settings,
    log,
    now: () => clock,
    pendingPage: "pending",
    onCertificate: () => {
      changes++;
    },
  });
  try {
    const issuers = await pebble.issuers();
    const first = await waitFor(
      "the first certificate",
      async () => (changes >= 1 ? servedSerial(settings.httpsPort, issuers) : null),
      60_000,
    );
    const firstCert = certificates.current();
    expect(firstCert).not.toBeNull();

    // A day before renewal is due: nothing happens.
    clock = new Date((firstCert?.notAfter.getTime() ?? 0) - RENEW_BEFORE_MS - 24 * 60 * 60 * 1000);
    await certificates.check();
    expect(changes).toBe(1);

    // Due: renewed in the running server, the new certificate served on the same port.
    clock = new Date((firstCert?.notAfter.getTime() ?? 0) - RENEW_BEFORE_MS + 60_000);
    await certificates.check();
    const second = await waitFor(`the renewed certificate served\n${lines.join("\n")}`, async () => {
      const serial = await servedSerial(settings.httpsPort, issuers);
      return serial !== first ? serial : null;
    });
    expect(second).not.toBe(first);
    expect(lines.some((line) => line.includes("HTTPS certificate renewed"))).toBe(true);
    expect(await (await fetch(`https://127.0.0.1:${settings.httpsPort}/`, { tls: { rejectUnauthorized: false } })).text()).toBe("served");

    // The CA gone when the next renewal is due: logged, recorded, retried later; the certificate stays served.
    await pebble.stop();
    clock = new Date((certificates.current()?.notAfter.getTime() ?? 0) - RENEW_BEFORE_MS + 60_000);
    await certificates.check();
    const failure = lines.find((line) => line.includes("HTTPS certificate renewal failed"));
    expect(failure).toBeDefined();
    expect(JSON.parse(failure ?? "{}").retryInSeconds).toBe(60);
    // In words an owner can act on, not acme-client's own after its retries.
    expect(JSON.parse(failure ?? "{}").error).toBe(
      `The certificate authority's ACME directory ${pebble.directoryUrl} cannot be reached: connection refused.`,
    );
    const status = readTlsStatus(settings.dir);
    expect(status.lastError).not.toBeNull();
    expect(status.nextAttemptAt?.getTime()).toBe(clock.getTime() + 60_000);
    expect(await servedSerial(settings.httpsPort, issuers)).toBe(second);
  } finally {
    certificates.stop();
    await Promise.all([site.stopHttp(), app.stop(true)]);
    await pebble.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
