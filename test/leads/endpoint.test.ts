import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { rateLimitKey } from "../../server/platform/http/rate-limit";
import { LEAD_MAX_BODY_BYTES, LEAD_RATE_LIMIT } from "../../server/shop/leads/controller";
import { hashIp, IP_HASH_SECRET_FILE } from "../../server/shop/leads/service";
import { createTestSite, type TestSite } from "../support/app";

const sites: TestSite[] = [];
afterEach(() => {
  for (const site of sites.splice(0)) site.close();
});
async function site(env: Record<string, string> = {}, now?: () => Date) {
  const s = await createTestSite({ env, now });
  sites.push(s);
  return s;
}

type LeadRow = { id: number; email: string; source: string; ip_hash: string | null; locale: string; created_at: number };
const rows = (s: TestSite) => s.db.$client.query<LeadRow, []>("SELECT * FROM email_leads ORDER BY id").all();

const postJson = (s: TestSite, body: unknown, headers: Record<string, string> = {}) =>
  s.request("/api/leads", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const postForm = (s: TestSite, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  s.request("/api/leads", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

test("a new lead is stored in SQLite and answered with 201", async () => {
  const s = await site({}, () => new Date("2026-03-01T10:00:00Z"));
  const res = await postJson(s, { email: "  Claire@Exemple.FR ", source: "exit_popup", ip_hash: null, locale: "en" });
  expect(res.status).toBe(201);
  expect(await res.json()).toEqual({ ok: true });
  const [row, ...others] = rows(s);
  expect(others).toEqual([]);
  expect(row).toMatchObject({
    email: "claire@exemple.fr",
    source: "exit_popup",
    locale: "en",
    created_at: Date.parse("2026-03-01T10:00:00Z"),
  });
});

test("the spec's payload without a locale is stored as French", async () => {
  const s = await site();
  expect((await postJson(s, { email: "a@b.co", source: "exit_popup", ip_hash: null })).status).toBe(201);
  expect(rows(s)[0]?.locale).toBe("fr");
});

test("the stored ip_hash is a keyed hash of the client address, and the address itself is stored nowhere", async () => {
  const ip = "203.0.113.77";
  const s = await site({ TRUST_PROXY: "true" });
  expect((await postJson(s, { email: "a@b.co", source: "exit_popup", ip_hash: null }, { "x-forwarded-for": ip })).status).toBe(201);
  const row = rows(s)[0]!;
  // Keyed with the secret generated in DATA_DIR (IP_HASH_SECRET is not set here).
  const secret = readFileSync(join(s.dataDir, IP_HASH_SECRET_FILE), "utf8").trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(statSync(join(s.dataDir, IP_HASH_SECRET_FILE)).mode & 0o077).toBe(0);
  expect(row.ip_hash).toBe(hashIp(secret, ip));
  expect(row.ip_hash).not.toContain(ip);
  // Not in any column, nor anywhere in the database files (main file and WAL).
  s.db.$client.exec("PRAGMA wal_checkpoint(PASSIVE)");
  for (const file of readdirSync(s.dataDir)) {
    expect(readFileSync(join(s.dataDir, file)).includes(ip)).toBe(false);
  }
  expect(s.logs.join("\n")).not.toContain(ip);
});

test("a configured IP_HASH_SECRET keys the hash and no secret file is written", async () => {
  const s = await site({ TRUST_PROXY: "true", IP_HASH_SECRET: "owner-chosen-secret-0123456789" });
  await postJson(s, { email: "a@b.co", source: "exit_popup", ip_hash: null }, { "x-forwarded-for": "198.51.100.4" });
  expect(rows(s)[0]?.ip_hash).toBe(hashIp("owner-chosen-secret-0123456789", "198.51.100.4"));
  expect(readdirSync(s.dataDir)).not.toContain(IP_HASH_SECRET_FILE);
});

test("an address already stored gets the same answer and no second row", async () => {
  const s = await site();
  const first = await postJson(s, { email: "dup@example.com", source: "exit_popup", ip_hash: null });
  const again = await postJson(s, { email: " DUP@example.com", source: "exit_popup", ip_hash: null, locale: "it" });
  expect(again.status).toBe(first.status);
  expect(await again.text()).toBe(await first.text());
  expect(rows(s).map((r) => [r.email, r.locale])).toEqual([["dup@example.com", "fr"]]);
});

test("an invalid address is refused with 400 and a clear message, and nothing is stored", async () => {
  const s = await site();
  for (const [email, message] of [
    ["not-an-address", "Invalid email address"],
    // Not an address, short as it is: the visitor is told it is invalid, not that it is short.
    ["a@b", "Invalid email address"],
    [`${"a".repeat(250)}@example.com`, "Email too long"],
  ] as const) {
    const res = await postJson(s, { email, source: "exit_popup", ip_hash: null });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(`email: ${message}`);
  }
  const unknownSource = await postJson(s, { email: "a@b.co", source: "newsletter", ip_hash: null });
  expect(unknownSource.status).toBe(400);
  expect((await unknownSource.json()).error).toContain("source");
  expect(rows(s)).toEqual([]);
});

test("whatever a client sends gets a clear 4xx JSON answer, never a 500", async () => {
  const s = await site();
  const bodies: [string, string, number][] = [
    ["application/json", "{not json", 400],
    ["application/json", "", 400],
    ["application/json", "null", 400],
    ["application/json", "[]", 400],
    ["application/json", '"a@b.co"', 400],
    ["application/json", '{"email":["a@b.co"],"source":"exit_popup"}', 400],
    ["application/json", '{"email":"a@b.co","source":"exit_popup","ip_hash":"1.2.3.4"}', 400],
    ["application/json; charset=utf-8", '{"email":"ok@example.com","source":"exit_popup","ip_hash":null}', 201],
  ];
  for (const [type, body, status] of bodies) {
    const res = await s.request("/api/leads", { method: "POST", headers: { "content-type": type }, body });
    expect([body, res.status]).toEqual([body, status]);
    expect(res.headers.get("content-type")).toContain("application/json");
  }
});

test("a body that is neither JSON nor a form is refused with 415", async () => {
  const s = await site();
  for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml", ""]) {
    const res = await s.request("/api/leads", {
      method: "POST",
      headers: type ? { "content-type": type } : {},
      body: '{"email":"a@b.co","source":"exit_popup"}',
    });
    expect(res.status).toBe(415);
    expect((await res.json()).error).toContain("Unsupported content type");
  }
  expect(rows(s)).toEqual([]);
});

test("a body over a few kilobytes is refused with 413, also when sent without a length", async () => {
  const s = await site();
  const big = JSON.stringify({ email: "a@b.co", source: "exit_popup", ip_hash: null, padding: "x".repeat(LEAD_MAX_BODY_BYTES) });
  const res = await postJson(s, JSON.parse(big));
  expect(res.status).toBe(413);
  expect((await res.json()).error).toContain("too large");
  const chunked = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
      controller.close();
    },
  });
  const streamed = await s.request("/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: chunked });
  expect(streamed.status).toBe(413);
  expect(rows(s)).toEqual([]);
});

test("one client sending too many gets 429 with Retry-After and a Rate limit message; others are not affected", async () => {
  const clock = Date.parse("2026-03-01T10:00:00Z");
  const s = await site({ TRUST_PROXY: "true" }, () => new Date(clock));
  const from = (ip: string, n: number) =>
    postJson(s, { email: `lead${n}@example.com`, source: "exit_popup", ip_hash: null }, { "x-forwarded-for": ip });
  for (let n = 0; n < LEAD_RATE_LIMIT.limit; n++) expect((await from("203.0.113.1", n)).status).toBe(201);
  const limited = await from("203.0.113.1", 99);
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LEAD_RATE_LIMIT.windowMs / 1000);
  expect((await limited.json()).error).toContain("Rate limit");
  expect(rows(s).some((r) => r.email === "lead99@example.com")).toBe(false);
  // Another client, and the right-most forwarded entry is the one that counts.
  expect((await from("198.51.100.9", 100)).status).toBe(201);
  expect((await from("203.0.113.1, 198.51.100.10", 101)).status).toBe(201);
});

test("an IPv6 client rotating addresses inside its /64 is still one client for the limit", async () => {
  const s = await site({ TRUST_PROXY: "true" });
  const from = (ip: string, n: number) =>
    postJson(s, { email: `v6-${n}@example.com`, source: "exit_popup", ip_hash: null }, { "x-forwarded-for": ip });
  for (let n = 0; n < LEAD_RATE_LIMIT.limit; n++) expect((await from(`2001:db8:aa:bb:${n.toString(16)}::1`, n)).status).toBe(201);
  const limited = await from("2001:0db8:00aa:00bb:ffff:1:2:3", 99);
  expect(limited.status).toBe(429);
  expect((await limited.json()).error).toContain("Rate limit");
  // The neighbouring /64 is someone else.
  expect((await from("2001:db8:aa:bc::1", 100)).status).toBe(201);
  // Each stored hash is still of the full address, so distinct addresses stay distinct.
  expect(new Set(rows(s).map((r) => r.ip_hash)).size).toBe(LEAD_RATE_LIMIT.limit + 1);
});

test("rate-limit keys: IPv4 per address, IPv4-mapped as IPv4, IPv6 per /64, junk as itself", () => {
  expect(rateLimitKey("203.0.113.5")).toBe("203.0.113.5");
  expect(rateLimitKey("::ffff:203.0.113.5")).toBe("203.0.113.5");
  expect(rateLimitKey("2001:DB8::1")).toBe("2001:db8:0:0::/64");
  expect(rateLimitKey("2001:db8:0:0:1:2:3:4")).toBe("2001:db8:0:0::/64");
  expect(rateLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  expect(rateLimitKey("::1")).toBe("0:0:0:0::/64");
  expect(rateLimitKey("1:2:3:4:5:6:7:8:9")).toBe("1:2:3:4:5:6:7:8:9");
  expect(rateLimitKey("1::2::3")).toBe("1::2::3");
  expect(rateLimitKey("unknown")).toBe("unknown");
});

test("without TRUST_PROXY a forged X-Forwarded-For does not get around the limit", async () => {
  const s = await site();
  let last = 0;
  for (let n = 0; n <= LEAD_RATE_LIMIT.limit; n++) {
    const res = await postJson(
      s,
      { email: `lead${n}@example.com`, source: "exit_popup", ip_hash: null },
      { "x-forwarded-for": `10.0.0.${n}` },
    );
    last = res.status;
  }
  expect(last).toBe(429);
});

test("a plain form post stores the lead and redirects back to the page's form with a confirmation", async () => {
  const s = await site();
  const res = await postForm(s, { email: "Form@Example.com", source: "exit_popup", locale: "es" });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/es?lead=sent#free-demo");
  expect(rows(s)[0]).toMatchObject({ email: "form@example.com", locale: "es" });

  const page = await s.request(res.headers.get("location")!);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html.includes("¡Solicitud recibida! Revisa tu bandeja de entrada.")).toBe(true);
  expect(html.includes("Si no llega nada en unos minutos, mira en la carpeta de spam.")).toBe(true);
  expect(html.includes('id="free-demo"')).toBe(true);
});

test("a form post with an invalid address redirects back with the e-mail error shown", async () => {
  const s = await site();
  const res = await postForm(s, { email: "nope", source: "exit_popup", locale: "fr" });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/?lead=invalid#free-demo");
  expect(rows(s)).toEqual([]);
  const html = await (await s.request("/?lead=invalid")).text();
  expect(html.includes("Cette adresse email n'est pas valide. Vérifiez-la et réessayez.")).toBe(true);
});

test("a rate-limited form post redirects back with the rate-limit text", async () => {
  const s = await site();
  let res: Response | undefined;
  for (let n = 0; n <= LEAD_RATE_LIMIT.limit; n++)
    res = await postForm(s, { email: `f${n}@example.com`, source: "exit_popup", locale: "en" });
  expect(res?.headers.get("location")).toBe("/en?lead=rate-limited#free-demo");
  const html = await (await s.request("/en?lead=rate-limited")).text();
  expect(html.includes("Too many submissions. Please try again later.")).toBe(true);
});

test("security headers are set on the API answers too", async () => {
  const s = await site();
  const res = await postJson(s, { email: "a@b.co", source: "exit_popup", ip_hash: null });
  expect(res.headers.get("content-security-policy")).toContain("default-src");
});
