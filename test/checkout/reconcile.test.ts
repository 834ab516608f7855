import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { runCommand } from "../../server/owner/cli";
import { createTestSite, type TestSite } from "../support/app";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";
import { STRIPE_TEST_SITE } from "./stripe-events";

// `site orders reconcile --since DATE` against the fake Stripe API on loopback: what Stripe knows
// and the database does not (after a restore, missed webhooks) is applied through the same
// fulfilment code; running it again changes nothing.

const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_reconcile", STRIPE_WEBHOOK_SECRET: "whsec_reconcile", PUBLIC_BASE_URL: STRIPE_TEST_SITE };
let fake: FakeStripe;
let site: TestSite | undefined;
beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
  fake.sessions.clear();
  fake.charges.clear();
});

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function paidSession(id: string, email: string, created: number, paymentIntent: string) {
  fake.sessions.set(id, {
    id,
    object: "checkout.session",
    created,
    status: "complete",
    payment_status: "paid",
    amount_total: 2999,
    currency: "eur",
    // The mark this site puts on its checkouts (its origin): a checkout without it is another product's.
    metadata: { locale: "fr", site: STRIPE_TEST_SITE },
    customer_details: { email, name: "Camille Durand", address: { city: "Lyon" } },
    payment_intent: paymentIntent,
  });
}

async function reconcile(s: TestSite, since: string) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runCommand(
    ["orders", "reconcile", "--since", since],
    s.config,
    (l) => out.push(l),
    (l) => errors.push(l),
    { stripeConnection: fake.connection },
  );
  return { code, out: out.join(""), err: errors.join("") };
}

const count = (s: TestSite, sql: string) => s.db.$client.query<{ n: number }, []>(sql).get()?.n ?? -1;
const snapshot = (s: TestSite) => ({
  orders: s.db.$client.query("SELECT checkout_id, status, customer_email FROM orders ORDER BY checkout_id").all(),
  licenses: count(s, "SELECT count(*) AS n FROM licenses"),
  accessMails: count(s, "SELECT count(*) AS n FROM mail_outbox WHERE kind = 'access'"),
  events: count(s, "SELECT count(*) AS n FROM processed_events"),
});

test("a paid Stripe checkout missing from the database becomes a paid order with one licence and one e-mail; running again changes nothing", async () => {
  const s = (site = await createTestSite({ env: STRIPE_ENV, stripeConnection: fake.connection }));
  paidSession("cs_test_lost", "lost@example.com", at("2026-05-02T10:00:00Z"), "pi_lost");
  paidSession("cs_test_old", "old@example.com", at("2026-04-01T10:00:00Z"), "pi_old");
  fake.sessions.set("cs_test_gone", {
    id: "cs_test_gone",
    object: "checkout.session",
    created: at("2026-05-03T10:00:00Z"),
    status: "expired",
    payment_status: "unpaid",
    amount_total: 2999,
    currency: "eur",
    metadata: { locale: "en", site: STRIPE_TEST_SITE },
    customer_details: null,
    payment_intent: null,
  });

  // Another product sold on the same Stripe account, with a locale of its own: never an order.
  paidSession("cs_test_other_product", "other@example.com", at("2026-05-02T11:00:00Z"), "pi_other");
  const other = fake.sessions.get("cs_test_other_product");
  if (other !== undefined) other.metadata = { locale: "fr" };

  const first = await reconcile(s, "2026-05-01");
  expect(first.code).toBe(0);
  expect(first.out).toContain("2 applied");
  expect(first.out).toContain("1 not this site's");
  const after = snapshot(s);
  expect(after.orders).toEqual([
    { checkout_id: "cs_test_gone", status: "expired", customer_email: null },
    { checkout_id: "cs_test_lost", status: "paid", customer_email: "lost@example.com" },
  ]);
  expect(after.licenses).toBe(1);
  expect(count(s, "SELECT count(*) AS n FROM mail_outbox WHERE kind = 'access' AND recipient = 'lost@example.com'")).toBe(1);
  // Stripe was asked for the sessions since the date given, not before.
  const listed = fake.requests.find((r) => r.path === "/v1/checkout/sessions" && r.method === "GET");
  expect(listed).toBeDefined();

  const second = await reconcile(s, "2026-05-01");
  expect(second.code).toBe(0);
  expect(second.out).toContain("0 applied");
  expect(snapshot(s)).toEqual(after);
});

test("a payment refunded in full at Stripe refunds the order the database still had as paid, once", async () => {
  const s = (site = await createTestSite({ env: STRIPE_ENV, stripeConnection: fake.connection }));
  paidSession("cs_test_refund", "refund@example.com", at("2026-05-02T10:00:00Z"), "pi_refund");
  expect((await reconcile(s, "2026-05-01")).code).toBe(0);
  fake.charges.set("ch_refund", {
    id: "ch_refund",
    object: "charge",
    created: at("2026-05-02T10:00:05Z"),
    refunded: true,
    payment_intent: "pi_refund",
  });
  const first = await reconcile(s, "2026-05-01");
  expect(first.out).toContain("1 applied");
  expect(count(s, "SELECT count(*) AS n FROM orders WHERE status = 'refunded'")).toBe(1);
  const refundMails = count(s, "SELECT count(*) AS n FROM mail_outbox WHERE kind = 'refund'");
  expect(refundMails).toBe(1);
  await reconcile(s, "2026-05-01");
  expect(count(s, "SELECT count(*) AS n FROM mail_outbox WHERE kind = 'refund'")).toBe(refundMails);
});

test("without Stripe configured, or without a date, reconcile says what is missing and changes nothing", async () => {
  const s = (site = await createTestSite());
  const noStripe = await reconcile(s, "2026-05-01");
  expect(noStripe.code).toBe(2);
  expect(noStripe.err).toContain("STRIPE_SECRET_KEY");
  const withStripe = (site = await createTestSite({ env: STRIPE_ENV, stripeConnection: fake.connection }));
  await s.close();
  const badDate = await reconcile(withStripe, "yesterday-ish");
  expect(badDate.code).toBe(2);
  expect(badDate.err).toContain("--since");
});
