import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";

// The headers every answer carries, pages and API, success and error alike.

let site: TestSite;
afterEach(() => site?.close());

const answers = (s: TestSite) => [
  s.request("/"),
  s.request("/en/paiement"),
  s.request("/api/social-proof"),
  s.request("/no-such-page"),
  s.request("/api/leads", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }),
  s.request("/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
  s.request("/api/chat", { method: "GET" }),
];

test("every answer forbids other sites to embed the site's resources (Cross-Origin-Resource-Policy)", async () => {
  site = await createTestSite();
  for (const response of await Promise.all(answers(site))) {
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  }
});

test("Permissions-Policy no longer names the abandoned interest-cohort (FLoC) feature", async () => {
  site = await createTestSite();
  for (const response of await Promise.all(answers(site))) {
    const policy = response.headers.get("permissions-policy") ?? "";
    expect(policy).toContain("camera=()");
    expect(policy).not.toContain("interest-cohort");
  }
});
