import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { licenseActivations, licenses } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { mountSmallDisk, type SmallDisk } from "../support/tmpfs";

// The data folder's file system full: every write endpoint answers 503 with Retry-After, never a
// 500, writes nothing; once space is freed the same requests go through and every write
// acknowledged before is still there.

let site: TestSite | undefined;
let disk: SmallDisk | undefined;
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
function writeRequests(s: TestSite, ctx: { key: string; instanceId: string; cardPage: string; unsubscribeToken: string }) {
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
  };
}

test("with the data folder's disk full, every write answers 503 with Retry-After and writes nothing; after space is freed they succeed and nothing acknowledged is lost", async () => {
  disk = mountSmallDisk({ sizeKb: 2048 });
  const s = (site = await createTestSite({ dataDir: disk.dir }));

  // Acknowledged before the disk fills: a lead, a purchase and its licence on one device.
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
  const requests = writeRequests(s, { key, instanceId, cardPage, unsubscribeToken });

  // Every page of the write-ahead log back into the database, so that any new write needs new space.
  s.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const limits = new Database(`${disk.dir}/rate-limits.db`);
  limits.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  limits.close();
  const before = rowCounts(s);
  disk.fill();

  for (const [name, send] of Object.entries(requests)) {
    const response = await send();
    expect({ name, status: response.status }).toEqual({ name, status: 503 });
    expect({ name, retryAfter: Number(response.headers.get("retry-after")) > 0 }).toEqual({ name, retryAfter: true });
    const text = await response.text();
    expect(text).not.toContain("SQLITE");
    expect(text).not.toContain("    at ");
  }
  expect(rowCounts(s)).toEqual(before);
  expect(s.logs.some((line) => line.includes('"level":"error"') && line.includes("disk full"))).toBe(true);
  expect(s.logs.some((line) => line.includes("unhandled error"))).toBe(false);

  disk.free();
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
  });
  const emails = s.db.$client
    .query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY email")
    .all()
    .map((row) => row.email);
  expect(emails).toEqual(["early@example.com", "full-disk-form@example.com", "full-disk@example.com"]);
  const paid = s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM orders WHERE status = 'paid'").get()!.n;
  expect(paid).toBe(2);
  expect(rowCounts(s).licenses).toBe(2);
  // Its first activation survived; the one made after the disk came back is there too.
  expect(rowCounts(s).license_activations).toBe(2);
});
