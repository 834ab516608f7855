import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";

// Routing depends on the path alone, whatever the Host: Elysia's default skipped the first 11
// characters of the URL, so with a Host of 1 to 3 characters the first path segment was lost.

let site: TestSite;
afterEach(() => site?.close());

const leadCount = (s: TestSite) => s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads").get()?.n;

test("with a one-letter Host, /xxxx/healthz and /zz/api/leads are not found, and /healthz still answers", async () => {
  site = await createTestSite();
  for (const origin of ["http://a", "http://ab", "http://abc", "http://a:3000"]) {
    expect((await site.app.handle(new Request(`${origin}/xxxx/healthz`))).status).toBe(404);
    expect((await site.app.handle(new Request(`${origin}/healthz`))).status).toBe(200);
    expect((await site.app.handle(new Request(`${origin}/en/paiement`))).status).toBe(200);
    const lead = await site.app.handle(
      new Request(`${origin}/zz/api/leads`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", source: "exit_popup" }),
      }),
    );
    expect(lead.status).toBe(404);
  }
  expect(leadCount(site)).toBe(0);
});

test("serving HTTPS itself (DOMAIN), the app's routes answer on https:// addresses, and a Host too short to route by is refused", async () => {
  site = await createTestSite({ env: { DOMAIN: "shop.example.test", HTTP_PORT: "8080", HTTPS_PORT: "8443" } });
  for (const origin of ["https://shop.example.test:8443", "https://shop.example.test", "https://abc"]) {
    expect((await site.app.handle(new Request(`${origin}/healthz`))).status).toBe(200);
    expect((await site.app.handle(new Request(`${origin}/xxxx/healthz`))).status).toBe(404);
    expect((await site.app.handle(new Request(`${origin}/api/leads`))).status).toBe(405);
  }
  for (const origin of ["https://a", "https://ab"]) {
    expect((await site.app.handle(new Request(`${origin}/zz/healthz`))).status).toBe(400);
  }
});
