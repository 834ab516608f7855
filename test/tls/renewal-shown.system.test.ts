import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { overview } from "../../server/owner/console/overview";
import { lastEndedPeriod } from "../../server/owner/digest/period";
import { queueDigest } from "../../server/owner/digest/service";
import { createLogger } from "../../server/platform/log";
import { RENEW_BEFORE_MS } from "../../server/platform/tls/certificates";
import { startHttpsSite } from "../../server/platform/tls/start";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { ownerCookie } from "../console/owner";
import { createTestSite } from "../support/app";
import { freePort, startPebble, waitFor } from "../support/pebble";
import { mailsTo, useSmtp } from "../support/smtp";
import { plainSpaces } from "../support/text";

// A renewal the CA refuses is not only a log line: the console's checklist shows it beside the
// HTTPS item (with the certificate still served and the next attempt), and the owner's digest
// e-mail carries it, weeks before a visitor would see an expired certificate.

const smtp = useSmtp();
const DOMAIN = "shown.example.test";
const OWNER = "owner@shop.example";

test("a failed renewal is shown in the console's checklist and in the digest e-mail", async () => {
  const httpPort = freePort();
  const pebble = await startPebble({ httpPort });
  // The certificates' clock, moved to the renewal; the site (console sessions, digest) keeps the real one.
  let clock = new Date();
  const site = await createTestSite({
    env: {
      DOMAIN,
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(freePort()),
      ACME_DIRECTORY: pebble.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      OWNER_EMAIL: OWNER,
    },
    transport: createSmtpTransport(smtp.url),
  });
  const settings = site.config.tls;
  if (settings === null) throw new Error("DOMAIN was not read");
  const lines: string[] = [];
  // The running server's certificate side, on the site's own tls folder (what the console reads).
  const app = new Elysia().get("/", () => "served");
  let changes = 0;
  const { site: https, certificates } = await startHttpsSite({
    app,
    config: { host: "127.0.0.1" },
    settings,
    log: createLogger("info", (line) => lines.push(line)),
    now: () => clock,
    pendingPage: "pending",
    onCertificate: () => {
      changes++;
    },
  });
  try {
    const cookie = await ownerCookie(site);
    const checklistText = async (language: string) => {
      const html = await (await site.request("/admin", { headers: { cookie, "accept-language": language } })).text();
      const item = /data-testid="certificate-state">([^<]*)</.exec(html)?.[1] ?? "";
      return plainSpaces(item.replaceAll("&#x27;", "'").replaceAll("&#39;", "'"));
    };
    const httpsItem = () => overview(site.db, site.config, new Date(), site.content.current().site).checklist.find((i) => i.id === "https");

    await waitFor(`the first certificate\n${lines.join("\n")}`, async () => (changes >= 1 ? true : null), 60_000);
    expect(httpsItem()?.ok).toBe(true);
    expect(await checklistText("en")).toContain(`certificate for ${DOMAIN} valid until`);
    expect(await checklistText("en")).not.toContain("failed");

    // The CA out of reach when the renewal is due: the certificate in use stays, the failure is shown.
    await pebble.stop();
    clock = new Date((certificates.current()?.notAfter.getTime() ?? 0) - RENEW_BEFORE_MS + 60_000);
    await certificates.check();
    expect(lines.some((line) => line.includes("HTTPS certificate renewal failed"))).toBe(true);
    expect(httpsItem()?.ok).toBe(false);
    const en = await checklistText("en");
    expect(en).toContain(`certificate for ${DOMAIN} valid until`);
    expect(en).toMatch(/the last attempt to get or renew it failed on .+: .+; next attempt /);
    const fr = await checklistText("fr");
    expect(fr).toContain("la dernière tentative pour l'obtenir ou le renouveler a échoué le");

    // The next digest says so, in the owner's language (French here: no console language chosen).
    const queued = await queueDigest(
      { db: site.db, write: site.write, config: site.config, now: () => new Date() },
      lastEndedPeriod("daily", new Date()),
      { byHand: true },
    );
    expect(queued.status).toBe("queued");
    await site.mailer?.deliverDue();
    const [digest] = mailsTo(smtp, OWNER);
    const body = plainSpaces(digest?.mail.text ?? "").replace(/\s+/g, " ");
    expect(body).toContain("Certificat HTTPS");
    expect(body).toContain(`Le certificat HTTPS pour ${DOMAIN} n'a pas pu être obtenu ou renouvelé le`);
    expect(body).toContain("Le certificat en service reste valable jusqu'au");
  } finally {
    certificates.stop();
    await Promise.all([https.stopHttp(), app.stop(true)]);
    await pebble.stop();
    await site.close();
  }
}, 180_000);
