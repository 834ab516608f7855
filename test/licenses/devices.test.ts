import { afterEach, expect, test } from "bun:test";
import { licenses, orders } from "../../db/schema";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";

// The buyer's "manage my devices" page, reached from the signed link of the access e-mail: it lists
// the devices and frees one, with a plain form post or with JSON from its script.

const DAY = 24 * 60 * 60 * 1000;
const BASE = "https://shop.example";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const smtp = useSmtp();

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function buyerWithDevices(clock = testClock(), locale: "fr" | "en" | "it" | "es" = "en") {
  const s = (site = await createTestSite({
    env: { PUBLIC_BASE_URL: BASE },
    transport: createSmtpTransport(smtp.url),
    now: clock.now,
  }));
  await payWithTestCard(s, { locale, email: "buyer@example.com" });
  await smtp.waitFor(1);
  const key = s.db.select().from(licenses).all()[0]!.key;
  const instances: string[] = [];
  for (const name of ["Living-room TV", "Phone"]) {
    const response = await s.request("/api/licenses/activate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, instanceName: name }),
    });
    instances.push((await response.json()).instanceId);
  }
  const mail = mailsTo(smtp, "buyer@example.com")[0]!.mail;
  const link = String(mail.html).match(/href="(https:\/\/shop\.example\/[^"]*devices\?t=[^"]+)"/)?.[1];
  if (link === undefined) throw new Error("no devices link in the access e-mail");
  return { s, key, instances, link: new URL(link.replace(/&amp;/g, "&")), clock };
}

const verify = async (s: TestSite, key: string, instanceId: string) =>
  (
    await s.request("/api/licenses/verify", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, instanceId }),
    })
  ).json();

test("the access e-mail links to the devices page in the buyer's language, which lists the devices", async () => {
  const { s, link } = await buyerWithDevices(testClock(), "it");
  expect(link.pathname).toBe("/it/devices");
  const page = await s.request(link.pathname + link.search);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toBe("no-store");
  expect(page.headers.get("referrer-policy")).toBe("strict-origin");
  const html = await page.text();
  expect(html).toContain("I miei dispositivi");
  expect(html).toContain("Living-room TV");
  expect(html).toContain("Phone");
  expect(html).toContain("Dispositivi in uso: 2 su 5");
  expect(html).toContain('<meta name="robots" content="noindex"/>');
});

test("the link's token, which anyone holding the e-mail can decode, names the order by its reference, not its row number", async () => {
  const { s, link } = await buyerWithDevices();
  const order = s.db.select().from(orders).get()!;
  const payload = (link.searchParams.get("t") ?? "").split(".")[1] ?? "";
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  expect(claims).toMatchObject({ aud: "devices", sub: order.reference });
  expect(Object.values(claims)).not.toContain(String(order.id));
});

test("without JavaScript: the form post frees the device, comes back to the page that says so, and the API agrees", async () => {
  const { s, key, instances, link } = await buyerWithDevices();
  const t = link.searchParams.get("t") ?? "";
  const response = await s.request("/api/devices/free", {
    method: "POST",
    headers: { ...FORM, origin: "http://localhost" },
    body: new URLSearchParams({ t, instanceId: instances[0]!, locale: "en" }).toString(),
  });
  expect(response.status).toBe(303);
  const back = response.headers.get("location") ?? "";
  expect(back).toBe(`/en/devices?t=${t}&status=freed`);
  const html = await (await s.request(back)).text();
  expect(html).toContain("Device freed: its slot is available again.");
  expect(html).not.toContain("Living-room TV");
  expect(html).toContain("Devices in use: 1 of 5");

  expect(await verify(s, key, instances[0]!)).toMatchObject({ valid: false, instance: "freed", activations: 1 });
  expect(await verify(s, key, instances[1]!)).toMatchObject({ valid: true, instance: "active" });
});

test("with JavaScript: JSON in, the devices left out; freeing it twice says it is not active", async () => {
  const { s, instances, link } = await buyerWithDevices();
  const t = link.searchParams.get("t") ?? "";
  const free = () =>
    s.request("/api/devices/free", {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ t, instanceId: instances[1] }),
    });
  const first = await free();
  expect(first.status).toBe(200);
  expect((await first.json()).devices.map((d: { name: string }) => d.name)).toEqual(["Living-room TV"]);
  const second = await free();
  expect(second.status).toBe(404);
});

test("an altered or expired link shows no device and offers a new one; freeing through it changes nothing", async () => {
  const clock = testClock();
  const { s, key, instances, link } = await buyerWithDevices(clock);
  const t = link.searchParams.get("t") ?? "";
  const altered = t.slice(0, -3) + (t.endsWith("AAA") ? "BBB" : "AAA");
  for (const bad of [altered, "x.y.z"]) {
    const html = await (await s.request(`/en/devices?t=${bad}`)).text();
    expect(html).toContain("This link is no longer valid");
    expect(html).not.toContain("Living-room TV");
  }
  const refused = await s.request("/api/devices/free", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ t: altered, instanceId: instances[0] }),
  });
  expect(refused.status).toBe(403);

  clock.advance(31 * DAY);
  const expired = await (await s.request(link.pathname + link.search)).text();
  expect(expired).toContain("This link is no longer valid");
  const late = await s.request("/api/devices/free", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ t, instanceId: instances[0] }),
  });
  expect(late.status).toBe(403);
  expect(await verify(s, key, instances[0]!)).toMatchObject({ instance: "active" });
});

test("a licence token cannot stand for a devices link", async () => {
  const { s, key } = await buyerWithDevices();
  const activated = await s.request("/api/licenses/activate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, instanceName: "Tablet" }),
  });
  const { token } = await activated.json();
  const html = await (await s.request(`/en/devices?t=${token}`)).text();
  expect(html).toContain("This link is no longer valid");
});

test("another site's page cannot free a device through the visitor's browser", async () => {
  const { s, key, instances, link } = await buyerWithDevices();
  const response = await s.request("/api/devices/free", {
    method: "POST",
    headers: { ...FORM, "sec-fetch-site": "cross-site" },
    body: new URLSearchParams({ t: link.searchParams.get("t") ?? "", instanceId: instances[0]! }).toString(),
  });
  expect(response.status).toBe(403);
  expect(await verify(s, key, instances[0]!)).toMatchObject({ instance: "active" });
});

test("the access-recovery form sends the devices link again, freshly signed", async () => {
  const clock = testClock();
  const { s, link } = await buyerWithDevices(clock);
  clock.advance(40 * DAY);
  const response = await s.request("/api/access/resend", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "buyer@example.com", locale: "en" }),
  });
  expect(response.status).toBe(202);
  await smtp.waitFor(2);
  const again = mailsTo(smtp, "buyer@example.com")[1]!.mail;
  const fresh = String(again.html).match(/href="(https:\/\/shop\.example\/[^"]*devices\?t=[^"]+)"/)?.[1] ?? "";
  expect(fresh).not.toBe(link.href);
  const url = new URL(fresh.replace(/&amp;/g, "&"));
  expect(await (await s.request(url.pathname + url.search)).text()).toContain("Living-room TV");
});
