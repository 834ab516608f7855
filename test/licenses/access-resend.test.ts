import { afterEach, expect, test } from "bun:test";
import { accessRequests, accessResends, licenses, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { ACCESS_RESENDS_PER_DAY } from "../../server/shop/licenses/service";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { outboxDrained, until } from "../support/wait";

// "Lost your access e-mail?": POST /api/access/resend always answers the same, and only a buyer's
// address gets the access e-mail again, at most three times a day.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function shopWithBuyer(now?: () => Date) {
  const s = (site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example", TRUST_PROXY: "true" },
    transport: createSmtpTransport(smtp.url),
    ...(now ? { now } : {}),
  }));
  await payWithTestCard(s, { locale: "en", email: "buyer@example.com", name: "Sam", city: "Leeds" });
  await smtp.waitFor(1);
  return s;
}
/** The recorded requests handled (a moment after the answer: their row goes in the transaction that
 * queues their e-mail) and the outbox idle, so that the e-mails counted next are all there will be. */
async function handled(s: TestSite) {
  await until("the access requests to be handled", () => s.db.select().from(accessRequests).all().length === 0);
  await outboxDrained(s);
}

const resend = (s: TestSite, email: string, locale = "en", ip = "198.51.100.9") =>
  s.request("/api/access/resend", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ email, locale }),
  });

test("a buyer's address gets exactly one more access e-mail, with the same key", async () => {
  const s = await shopWithBuyer();
  const response = await resend(s, "  Buyer@Example.com ");
  expect(response.status).toBe(202);
  expect(await response.json()).toEqual({
    ok: true,
    message: "If this address bought access, the e-mail is on its way: check your inbox, and your spam folder, in a few minutes.",
  });
  await handled(s);
  const copies = mailsTo(smtp, "buyer@example.com");
  expect(copies).toHaveLength(2);
  const key = s.db.select().from(licenses).all()[0]!.key;
  expect(copies[1]!.mail.subject).toBe("Your Lifetime Stream licence key and receipt");
  expect(copies[1]!.mail.text).toContain(key);
});

test("an address that bought nothing gets the same answer and no e-mail", async () => {
  const s = await shopWithBuyer();
  const buyer = await resend(s, "buyer@example.com");
  const stranger = await resend(s, "stranger@example.com");
  expect(stranger.status).toBe(buyer.status);
  expect(await stranger.json()).toEqual(await buyer.json());
  await handled(s);
  expect(mailsTo(smtp, "buyer@example.com")).toHaveLength(2);
  expect(mailsTo(smtp, "stranger@example.com")).toHaveLength(0);
  // Nothing of the stranger's address is kept once the request is handled.
  expect(
    s.db
      .select()
      .from(accessResends)
      .all()
      .map((r) => r.email),
  ).toEqual(["buyer@example.com"]);
});

test("the fourth request of the day sends nothing; the next day works again", async () => {
  const clock = testClock();
  const s = await shopWithBuyer(clock.now);
  for (let i = 0; i < ACCESS_RESENDS_PER_DAY + 1; i++)
    expect((await resend(s, "buyer@example.com", "en", `198.51.100.${i}`)).status).toBe(202);
  await handled(s);
  expect(mailsTo(smtp, "buyer@example.com")).toHaveLength(1 + ACCESS_RESENDS_PER_DAY);
  clock.advance(24 * 60 * 60 * 1000 + 1000);
  await resend(s, "buyer@example.com", "en", "198.51.100.50");
  await handled(s);
  expect(mailsTo(smtp, "buyer@example.com")).toHaveLength(2 + ACCESS_RESENDS_PER_DAY);
});

test("a refunded order's address gets nothing", async () => {
  const s = await shopWithBuyer();
  const [order] = s.db.select().from(orders).all();
  await runCommand(
    ["orders", "refund", String(order!.id)],
    s.config,
    () => {},
    () => {},
  );
  await s.mailer!.deliverDue();
  const before = mailsTo(smtp, "buyer@example.com").length;
  expect((await resend(s, "buyer@example.com")).status).toBe(202);
  await handled(s);
  expect(mailsTo(smtp, "buyer@example.com")).toHaveLength(before);
});

test("without JavaScript: a form post redirects to the access page in the visitor's language, which confirms", async () => {
  const s = await shopWithBuyer();
  const response = await s.request("/api/access/resend", { method: "POST", headers: FORM, body: "email=buyer%40example.com&locale=es" });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/es/access?status=sent#lost-access");
  const page = await (await s.request("/es/access?status=sent")).text();
  expect(page).toContain('<html lang="es"');
  expect(page).toContain("Si esta dirección compró un acceso, el email va de camino");
  const invalid = await s.request("/api/access/resend", { method: "POST", headers: FORM, body: "email=nope&locale=fr" });
  expect(invalid.headers.get("location")).toBe("/access?status=invalid#lost-access");
  await smtp.waitFor(2);
});

test("bad input is refused without an e-mail: an address that is not one 422, wrong type 415, too large 413; many requests 429", async () => {
  const s = await shopWithBuyer();
  expect((await resend(s, "not-an-address")).status).toBe(422);
  expect((await s.request("/api/access/resend", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).status).toBe(
    415,
  );
  expect(
    (
      await s.request("/api/access/resend", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a".repeat(4000) }),
      })
    ).status,
  ).toBe(413);
  let last = 0;
  for (let i = 0; i < 12; i++) last = (await resend(s, `x${i}@example.com`, "en", "203.0.113.99")).status;
  expect(last).toBe(429);
});

test("a refused form post goes back to the access page in its own language, saying why: invalid, too many", async () => {
  const s = (site = await createTestSite({ env: { TRUST_PROXY: "true" }, transport: createSmtpTransport(smtp.url) }));
  const post = (body: string, ip: string) =>
    s.request("/api/access/resend", { method: "POST", headers: { ...FORM, "x-forwarded-for": ip }, body });
  const invalid = await post("email=nope&locale=it", "198.51.100.20");
  expect(invalid.status).toBe(303);
  expect(invalid.headers.get("location")).toBe("/it/access?status=invalid#lost-access");
  // The limit is counted before the body is read; a form post still goes back in its language.
  let last: Response | undefined;
  for (let i = 0; i < 12; i++) last = await post(`email=x${i}%40example.com&locale=es`, "203.0.113.50");
  expect(last?.status).toBe(303);
  expect(last?.headers.get("location")).toBe("/es/access?status=rate-limited#lost-access");
});

test("a request answered just before the server stopped is handled when it starts again: the e-mail still goes out", async () => {
  const first = await shopWithBuyer();
  const dataDir = first.dataDir;
  // Recorded and answered, as if the process stopped before its batch (the row the request leaves).
  first.db.insert(accessRequests).values({ email: "buyer@example.com", createdAt: new Date() }).run();
  await first.mailer?.stop();
  first.db.$client.close();
  const again = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example", TRUST_PROXY: "true" },
    transport: createSmtpTransport(smtp.url),
    dataDir,
  });
  try {
    await handled(again);
    await smtp.waitFor(2);
    expect(mailsTo(smtp, "buyer@example.com")).toHaveLength(2);
  } finally {
    await again.close();
  }
});
