import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { licenseActivations, licenses, orders } from "../../db/schema";
import { mailLinks } from "../../server/shop/licenses/tokens";
import { createTestSite, SITE_SECRET, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { type FailingDisk, mountFailingDisk, mountSmallDisk, type SmallDisk } from "../support/tmpfs";

// The data folder's file system full, or turned read-only under the running server: every write
// endpoint answers 503 with Retry-After, never a 500, writes nothing; once space is freed (or the
// disk repaired) the same requests go through and every write acknowledged before is still there.

let site: TestSite | undefined;
let disk: SmallDisk | FailingDisk | undefined;
afterEach(async () => {
  await site?.close();
  disk?.unmount();
  site = undefined;
  disk = undefined;
});

const JSON_HEADERS = { "content-type": "application/json" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const TABLES = ["email_leads", "orders", "licenses", "license_activations", "chat_messages", "mail_outbox", "access_resends"];

function rowCounts(s: TestSite): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = s.db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? -1;
  return counts;
}

/** One request to every endpoint that writes, as a visitor or the app would send it. */
function writeRequests(
  s: TestSite,
  ctx: { key: string; instanceId: string; cardPage: string; unsubscribeToken: string; devices: URL; refund: URL },
) {
  const post = (path: string, body: unknown) => s.request(path, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  const card = new URLSearchParams({
    email: "late@example.com",
    name: "Léa",
    city: "Nice",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  return {
    lead: () => post("/api/leads", { email: "full-disk@example.com", source: "exit_popup", locale: "fr", ip_hash: null }),
    "lead form": () =>
      s.request("/api/leads", { method: "POST", headers: FORM, body: "email=full-disk-form%40example.com&source=exit_popup&locale=en" }),
    "payment start": () => s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=fr&acceptTerms=yes" }),
    "test card payment": () => s.request(ctx.cardPage, { method: "POST", headers: FORM, body: card.toString() }),
    "licence activate": () => post("/api/licenses/activate", { key: ctx.key, instanceName: "Salon TV" }),
    "licence deactivate": () => post("/api/licenses/deactivate", { key: ctx.key, instanceId: ctx.instanceId }),
    chat: () => post("/api/chat", { messages: [{ role: "user", content: "Combien ça coûte ?" }], locale: "fr" }),
    unsubscribe: () => s.request(`/unsubscribe?token=${ctx.unsubscribeToken}`),
    "one-click unsubscribe": () =>
      s.request(`/unsubscribe?token=${ctx.unsubscribeToken}`, { method: "POST", body: "List-Unsubscribe=One-Click" }),
    "access recovery": () => post("/api/access/resend", { email: "buyer@example.com", locale: "fr" }),
    "device freed": () =>
      s.request("/api/devices/free", {
        method: "POST",
        headers: FORM,
        body: new URLSearchParams({ t: ctx.devices.searchParams.get("t") ?? "", instanceId: ctx.instanceId, locale: "en" }).toString(),
      }),
    refund: () =>
      s.request("/api/refund", {
        method: "POST",
        headers: FORM,
        body: new URLSearchParams({
          order: ctx.refund.searchParams.get("order") ?? "",
          t: ctx.refund.searchParams.get("t") ?? "",
          locale: "en",
          confirm: "yes",
        }).toString(),
      }),
  };
}

/**
 * What the site acknowledged before the storage failed: a lead, a purchase, its licence on one
 * device, a second checkout waiting on its card page, and the links the buyer's e-mail carries.
 */
async function acknowledgedWrites(s: TestSite) {
  expect(
    (
      await s.request("/api/leads", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify({ email: "early@example.com", source: "exit_popup", locale: "fr", ip_hash: null }),
      })
    ).status,
  ).toBe(201);
  await payWithTestCard(s, { locale: "fr", email: "buyer@example.com" });
  const key = s.db.select().from(licenses).all()[0]!.key;
  const activated = await s.request("/api/licenses/activate", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ key, instanceName: "Phone" }),
  });
  expect(activated.status).toBe(201);
  const instanceId = s.db.select().from(licenseActivations).all()[0]!.instanceId;
  const pending = await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=fr&acceptTerms=yes" });
  const cardPage = pending.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  const unsubscribeToken = s.db.$client
    .query<{ t: string }, []>("SELECT unsubscribe_token AS t FROM email_leads WHERE email = 'early@example.com'")
    .get()!.t;
  const order = s.db.select().from(orders).all()[0]!;
  const links = mailLinks(s.licenseKeys, s.config.publicBaseUrl, () => new Date(), SITE_SECRET);
  const devices = new URL(await links.devices(order.reference, "en"));
  const refund = new URL(await links.refund(order.reference, "en"));
  return writeRequests(s, { key, instanceId, cardPage, unsubscribeToken, devices, refund });
}

/** Every write endpoint answers 503 with Retry-After, says nothing of SQLite, and writes nothing. */
async function expectEveryWriteRefused(s: TestSite, requests: ReturnType<typeof writeRequests>, counts: () => Record<string, number>) {
  const before = counts();
  for (const [name, send] of Object.entries(requests)) {
    const response = await send();
    expect({ name, status: response.status }).toEqual({ name, status: 503 });
    expect({ name, retryAfter: Number(response.headers.get("retry-after")) > 0 }).toEqual({ name, retryAfter: true });
    const text = await response.text();
    expect(text).not.toContain("SQLITE");
    expect(text).not.toContain("    at ");
  }
  expect(counts()).toEqual(before);
  expect(s.logs.some((line) => line.includes("unhandled error"))).toBe(false);
  // Pages are still served.
  expect((await s.request("/en")).status).toBe(200);
}

/** Once the storage is back, the same requests go through. */
async function expectEveryWriteAccepted(requests: ReturnType<typeof writeRequests>) {
  const statuses: Record<string, number> = {};
  for (const [name, send] of Object.entries(requests)) statuses[name] = (await send()).status;
  expect(statuses).toEqual({
    lead: 201,
    "lead form": 303,
    "payment start": 303,
    "test card payment": 303,
    "licence activate": 201,
    "licence deactivate": 200,
    chat: 200,
    unsubscribe: 200,
    "one-click unsubscribe": 200,
    "access recovery": 202,
    // The device was freed by the deactivation just before; the page says so.
    "device freed": 303,
    refund: 303,
  });
}

test("with the data folder's disk full, every write answers 503 with Retry-After and writes nothing; after space is freed they succeed and nothing acknowledged is lost", async () => {
  const small = mountSmallDisk({ sizeKb: 2048 });
  disk = small;
  const s = (site = await createTestSite({ dataDir: small.dir }));
  const requests = await acknowledgedWrites(s);

  // Every page of the write-ahead log back into the database, so that any new write needs new space.
  s.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const limits = new Database(`${small.dir}/rate-limits.db`);
  limits.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  limits.close();
  small.fill();

  await expectEveryWriteRefused(s, requests, () => rowCounts(s));
  expect(s.logs.some((line) => line.includes('"level":"error"') && line.includes("disk full"))).toBe(true);

  small.free();
  await expectEveryWriteAccepted(requests);
  const emails = s.db.$client
    .query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY email")
    .all()
    .map((row) => row.email);
  expect(emails).toEqual(["early@example.com", "full-disk-form@example.com", "full-disk@example.com"]);
  const paid = s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM orders WHERE status = 'paid'").get()!.n;
  expect(paid).toBe(1);
  expect(s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM orders WHERE status = 'refunded'").get()!.n).toBe(1);
  expect(rowCounts(s).licenses).toBe(2);
  // Its first activation survived; the one made after the disk came back is there too.
  expect(rowCounts(s).license_activations).toBe(2);
});

test("with the data folder's file system turned read-only under the running server, every write answers 503 with Retry-After; after a repair nothing acknowledged is lost", async () => {
  const failing = mountFailingDisk();
  disk = failing;
  const s = (site = await createTestSite({ dataDir: failing.dir }));
  const requests = await acknowledgedWrites(s);
  const acknowledged = rowCounts(s);

  failing.turnReadOnly();
  // Counted by a connection of its own: the site's may be left in any state by the failure.
  const counts = () => {
    const db = new Database(`${failing.dir}/site.db`, { readonly: true });
    try {
      return Object.fromEntries(TABLES.map((t) => [t, db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${t}`).get()?.n ?? -1]));
    } finally {
      db.close();
    }
  };
  await expectEveryWriteRefused(s, requests, counts);
  expect(s.logs.some((line) => line.includes('"level":"error"') && /storage (read-only|I\/O error)/.test(line))).toBe(true);

  await s.close();
  site = undefined;
  failing.repair();
  const again = (site = await createTestSite({ dataDir: failing.dir }));
  expect(rowCounts(again)).toEqual(acknowledged);
});
