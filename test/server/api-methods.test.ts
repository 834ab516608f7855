import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";

// A method an API path does not take is 405 with the one it does take, not 404.

let site: TestSite;
afterEach(() => site?.close());

test("other methods than GET on /api/social-proof are 405 with Allow: GET", async () => {
  site = await createTestSite();
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const response = await site.request("/api/social-proof", { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect(await response.json()).toEqual({ error: "Method not allowed: use GET" });
  }
  expect((await site.request("/api/social-proof")).status).toBe(200);
});
