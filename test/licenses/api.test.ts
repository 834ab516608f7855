import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenseActivations, licenses, orders } from "../../db/schema";
import { LICENSE_RATE_LIMIT } from "../../server/shop/licenses/controller";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand } from "../support/cli";
import { payWithTestCard } from "../support/purchase";

// The licence API the app calls, through app.handle: verify, activate up to the limit, deactivate,
// refunds, bad input, form bodies, the rate limit and activations racing each other.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** A site with one paid order (through the test checkout); returns its licence key. */
async function shopWithSale(env: Record<string, string> = {}): Promise<{ s: TestSite; key: string }> {
  const s = (site = await createTestSite({ env }));
  await payWithTestCard(s, { locale: "fr", email: "buyer@example.com" });
  return { s, key: s.db.select().from(licenses).all()[0]!.key };
}

const call = (s: TestSite, action: string, body: unknown, headers: Record<string, string> = {}) =>
  s.request(`/api/licenses/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

test("verify: a new key is valid and inactive, with the activation limit; nothing about the buyer comes back", async () => {
  const { s, key } = await shopWithSale();
  const response = await call(s, "verify", { key });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body).toEqual({ valid: true, status: "inactive", activations: 0, activationLimit: 5 });
  expect(JSON.stringify(body)).not.toContain("buyer");
});

test("keys are accepted in any case, with or without dashes, with spaces around", async () => {
  const { s, key } = await shopWithSale();
  for (const typed of [key.toLowerCase(), key.replace(/-/g, ""), `  ${key}  `, key.replace(/-/g, " ")]) {
    expect({ typed, status: (await call(s, "verify", { key: typed })).status }).toEqual({ typed, status: 200 });
  }
});

test("activate up to the limit, then 409 with a clear message; deactivating one frees a place", async () => {
  const { s, key } = await shopWithSale({ LICENSE_ACTIVATION_LIMIT: "3" });
  const ids: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const response = await call(s, "activate", { key, instanceName: `Device ${i}` });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ activations: i, activationLimit: 3 });
    expect(body.instanceId).toMatch(/^ins_[0-9a-f]{24}$/);
    ids.push(body.instanceId);
  }
  const full = await call(s, "activate", { key, instanceName: "Device 4" });
  expect(full.status).toBe(409);
  expect((await full.json()).error).toContain("limit");
  expect(await (await call(s, "verify", { key })).json()).toEqual({ valid: true, status: "active", activations: 3, activationLimit: 3 });

  const freed = await call(s, "deactivate", { key, instanceId: ids[0] });
  expect(freed.status).toBe(200);
  expect(await freed.json()).toMatchObject({ deactivated: true, activations: 2 });
  // The same instance twice, or one never given out: 404.
  expect((await call(s, "deactivate", { key, instanceId: ids[0] })).status).toBe(404);
  expect((await call(s, "deactivate", { key, instanceId: "ins_000000000000000000000000" })).status).toBe(404);
  expect((await call(s, "activate", { key, instanceName: "Device 4" })).status).toBe(201);
});

test("20 activations at the same moment with a limit of 5 give exactly 5 instances", async () => {
  const { s, key } = await shopWithSale();
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(s, "activate", { key, instanceName: `TV ${i}` }, { "x-forwarded-for": `10.0.0.${i}` })),
  );
  const statuses = answers.map((r) => r.status).sort();
  expect(statuses.filter((st) => st === 201)).toHaveLength(5);
  expect(statuses.filter((st) => st === 409)).toHaveLength(15);
  const [license] = s.db.select().from(licenses).all();
  expect(s.db.select().from(licenseActivations).where(eq(licenseActivations.licenseId, license!.id)).all()).toHaveLength(5);
});

test("a refund disables the key: verify says disabled, activation is refused with 403, deactivation still works", async () => {
  const { s, key } = await shopWithSale();
  const { instanceId } = await (await call(s, "activate", { key, instanceName: "Phone" })).json();
  const [order] = s.db.select().from(orders).all();
  expect((await runSiteCommand(s, "orders", "refund", String(order!.id))).code).toBe(0);
  expect(await (await call(s, "verify", { key })).json()).toEqual({ valid: false, status: "disabled", activations: 1, activationLimit: 5 });
  const refused = await call(s, "activate", { key, instanceName: "Tablet" });
  expect(refused.status).toBe(403);
  expect((await refused.json()).error).toContain("disabled");
  expect((await call(s, "deactivate", { key, instanceId })).status).toBe(200);
  // The owner cannot give a refunded order its access back by mistake; the reason stays "refunded".
  const enabled = await runSiteCommand(s, "licenses", "enable", key);
  expect(enabled.code).toBe(1);
  expect(enabled.said).toContain("refunded order");
  expect(s.db.select().from(licenses).all()[0]).toMatchObject({ status: "disabled", disabledReason: "refunded" });
});

test("unknown keys answer 404 { valid: false }; malformed input 400 or 422, never 500, and changes nothing", async () => {
  const { s } = await shopWithSale();
  const unknown = await call(s, "verify", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23" });
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({ valid: false });
  expect((await call(s, "activate", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23", instanceName: "x" })).status).toBe(404);

  const cases: [string, unknown, number][] = [
    ["verify", { key: "too-short" }, 422],
    ["verify", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ2O" }, 422],
    ["verify", {}, 400],
    ["verify", { key: 12345 }, 400],
    ["verify", null, 400],
    ["verify", [], 400],
    ["activate", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23" }, 400],
    ["activate", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23", instanceName: "   " }, 422],
    ["activate", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23", instanceName: "x".repeat(101) }, 422],
    ["deactivate", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23", instanceId: "not-ours" }, 422],
  ];
  for (const [action, body, status] of cases) {
    const response = await call(s, action, body);
    expect({ action, body, status: response.status }).toEqual({ action, body, status });
    expect(typeof (await response.json()).error).toBe("string");
  }
  expect(await (await call(s, "verify", {})).json()).toEqual({ error: "key: send the licence key as the field key" });
  expect(await (await call(s, "verify", { key: 123 })).json()).toEqual({ error: "key: key must be text" });
  const notJson = await s.request("/api/licenses/verify", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{nope",
  });
  expect(notJson.status).toBe(400);
  const wrongType = await s.request("/api/licenses/verify", { method: "POST", headers: { "content-type": "text/plain" }, body: "key" });
  expect(wrongType.status).toBe(415);
  const huge = await s.request("/api/licenses/verify", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: "x".repeat(5000) }),
  });
  expect(huge.status).toBe(413);
  expect((await s.request("/api/licenses/verify")).status).toBe(405);
  expect(s.db.select().from(licenseActivations).all()).toHaveLength(0);
});

test("form-encoded bodies work like JSON", async () => {
  const { s, key } = await shopWithSale();
  const verify = await s.request("/api/licenses/verify", {
    method: "POST",
    headers: FORM,
    body: `key=${encodeURIComponent(key.toLowerCase())}`,
  });
  expect(verify.status).toBe(200);
  const activate = await s.request("/api/licenses/activate", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ key, instanceName: "Living-room TV" }).toString(),
  });
  expect(activate.status).toBe(201);
  const { instanceId } = await activate.json();
  const deactivate = await s.request("/api/licenses/deactivate", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ key, instanceId }).toString(),
  });
  expect(deactivate.status).toBe(200);
});

test("one client guessing keys is cut off with 429 and Retry-After; another client is not", async () => {
  const { s } = await shopWithSale({ TRUST_PROXY: "true" });
  const guess = (ip: string) => call(s, "verify", { key: "ABCDE-FGHJK-MNPQR-STUVW-XYZ23" }, { "x-forwarded-for": ip });
  for (let i = 0; i < LICENSE_RATE_LIMIT.limit; i++) expect((await guess("203.0.113.7")).status).toBe(404);
  const blocked = await guess("203.0.113.7");
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await guess("198.51.100.1")).status).toBe(404);
});

test("the owner's CLI shows a licence by key or e-mail, disables and enables it, resets its devices, exports CSV", async () => {
  const { s, key } = await shopWithSale();
  await call(s, "activate", { key, instanceName: "Phone" });
  const run = async (...argv: string[]) => {
    const { code, said } = await runSiteCommand(s, ...argv);
    return { code, text: said };
  };
  const shown = await run("licenses", "show", key.toLowerCase().replace(/-/g, ""));
  expect(shown.code).toBe(0);
  const reference = s.db.select({ reference: orders.reference }).from(orders).get()?.reference ?? "";
  expect(reference).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  expect(shown.text).toContain(`${key}\tactive\torder ${reference} (paid)\tbuyer@example.com\t1/5 devices`);
  expect(shown.text).toContain("Phone");
  expect((await run("licenses", "show", "BUYER@example.com")).text).toContain(key);
  expect((await run("licenses", "show", "nobody@example.com")).code).toBe(1);

  expect((await run("licenses", "disable", key)).code).toBe(0);
  expect((await (await call(s, "verify", { key })).json()).status).toBe("disabled");
  expect((await run("licenses", "enable", key)).code).toBe(0);
  expect((await (await call(s, "verify", { key })).json()).status).toBe("active");
  expect((await run("licenses", "reset", key)).text).toContain("1 device(s) freed");
  expect((await (await call(s, "verify", { key })).json()).status).toBe("inactive");
  expect((await run("licenses", "disable", "nonsense")).code).toBe(2);

  const csv = (await run("licenses", "export")).text.split("\r\n");
  expect(csv[0]).toBe("\uFEFFkey,status,disabled_reason,order_id,order_reference,customer_email,order_status,activations,created_at");
  expect(csv[1]).toMatch(new RegExp(`^${key},active,,1,[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4},buyer@example\\.com,paid,0,`));
});
