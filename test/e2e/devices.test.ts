import { afterAll, beforeAll, expect, test } from "bun:test";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, startSmtp, type TestSmtp } from "../support/smtp";
import { plainSpaces } from "../support/text";
import { until } from "../support/wait";
import { axeViolations } from "./axe";
import { type RunningServer, startServer, watchConsole } from "./harness";
import { useBrowser } from "./shared-browser";
import { visit } from "./visit";

// The buyer frees a device on their own: the real server, the access e-mail caught by a real SMTP
// server on loopback, its "manage my devices" link opened in Chromium, with and without JavaScript,
// and the licence API asked afterwards, as the app would.

let smtp: TestSmtp;
let server: RunningServer;
const browser = useBrowser();

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const request = (path: string, init?: RequestInit) => fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init });
const api = async (action: string, body: unknown) =>
  (
    await request(`/api/licenses/${action}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).json();

/** A purchase, three devices activated by the app, and the devices link of the access e-mail (path and query). */
async function buyerWithDevices(email: string, locale: string) {
  await payWithTestCard({ request }, { locale, email });
  const { mail } = await until(`the access e-mail to ${email}`, () => mailsTo(smtp, email)[0], { timeoutMs: 60_000 });
  const href = String(mail.html).match(/href="([^"]*\/devices\?t=[^"]+)"/)?.[1];
  if (href === undefined) throw new Error("no devices link in the access e-mail");
  const link = new URL(href.replace(/&amp;/g, "&"));
  const key = String(mail.text).match(/[2-9A-Z]{5}(?:-[2-9A-Z]{5}){4}/)?.[0] ?? "";
  const instances: Record<string, string> = {};
  for (const name of ["Salon TV", "Pixel 8", "MacBook"]) instances[name] = (await api("activate", { key, instanceName: name })).instanceId;
  return { key, instances, path: link.pathname + link.search };
}

test("with JavaScript: the link from the e-mail lists the devices, one is freed in place, and the API agrees", async () => {
  const { key, instances, path } = await buyerWithDevices("camille@example.com", "fr");
  expect(path.startsWith("/devices?t=")).toBe(true);
  const context = await browser.newContext({ baseURL: server.baseUrl, bypassCSP: true });
  const page = await context.newPage();
  const console = watchConsole(page);
  await visit(page, path);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Mes appareils");
  await expect(page.getByText("Appareils utilisés : 3 sur 5").isVisible()).resolves.toBe(true);
  expect(await axeViolations(page, "devices (fr)")).toEqual([]);

  // The island is hydrated once it is seen; the button is then the script's, not a plain form post.
  await page.locator('[data-island="devices"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="devices"]')?.dataset.islandState === "hydrated");
  await page.getByRole("button", { name: "Libérer cet appareil : Pixel 8" }).click();
  await page.getByTestId("devices-flash").waitFor();
  expect(plainSpaces(await page.getByTestId("devices-flash").textContent())).toBe("Appareil libéré : sa place est de nouveau disponible.");
  expect(new URL(page.url()).pathname).toBe("/devices");
  await expect(page.getByText("Pixel 8").count()).resolves.toBe(0);
  await expect(page.getByText("Appareils utilisés : 2 sur 5").isVisible()).resolves.toBe(true);
  // The outcome has the focus: a keyboard user goes on from there.
  expect(await page.evaluate(() => document.activeElement?.classList.contains("devices__status"))).toBe(true);
  expect(await axeViolations(page, "devices after freeing (fr)")).toEqual([]);
  expect(console.errors).toEqual([]);
  await context.close();

  expect(await api("verify", { key, instanceId: instances["Pixel 8"] })).toMatchObject({ valid: false, instance: "freed", activations: 2 });
  expect(await api("verify", { key, instanceId: instances["Salon TV"] })).toMatchObject({ valid: true, instance: "active" });
  expect((await api("verify", { key, instanceId: instances["Pixel 8"] })).token).toBeUndefined();
});

test("without JavaScript: the same link in English, a plain form post frees a device, and the API agrees", async () => {
  const { key, instances, path } = await buyerWithDevices("sam@example.com", "en");
  expect(path.startsWith("/en/devices?t=")).toBe(true);
  const context = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("My devices");
  await page.getByRole("button", { name: "Free this device: MacBook" }).click();
  await page.waitForURL("**/en/devices?t=*&status=freed");
  await expect(page.getByText("Device freed: its slot is available again.").isVisible()).resolves.toBe(true);
  await expect(page.getByText("Devices in use: 2 of 5").isVisible()).resolves.toBe(true);
  await expect(page.getByText("MacBook").count()).resolves.toBe(0);
  await context.close();

  expect(await api("verify", { key, instanceId: instances.MacBook })).toMatchObject({ valid: false, instance: "freed" });
  expect(await api("verify", { key })).toMatchObject({ valid: true, activations: 2 });
});

test("a link that is not valid shows no device and the recovery form, in every language, with nothing for axe to report", async () => {
  const context = await browser.newContext({ baseURL: server.baseUrl, bypassCSP: true });
  const page = await context.newPage();
  for (const [prefix, title] of [
    ["", "Ce lien n'est plus valable"],
    ["/en", "This link is no longer valid"],
    ["/it", "Questo link non è più valido"],
    ["/es", "Este enlace ya no es válido"],
  ] as const) {
    await visit(page, `${prefix}/devices?t=aaaa.bbbb.cccc`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(title);
    await expect(page.locator("form.access-form").count()).resolves.toBe(1);
    expect(await axeViolations(page, `devices, invalid link (${prefix || "/fr"})`)).toEqual([]);
  }
  await context.close();
});
