import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";
import { logEntries } from "../support/logs";

let site: TestSite | undefined;
afterEach(() => site?.close());

const accessLines = (s: TestSite) => logEntries(s.logs).filter((e) => e.msg === "request");

test("every request gets one access-log line (method, path, status, duration, id) and the id in x-request-id", async () => {
  site = await createTestSite();
  const cases: [string, RequestInit, number][] = [
    ["/en", {}, 200],
    ["/healthz", {}, 200],
    ["/en/no-such-page?token=secret-token", {}, 404],
    ["/api/nope", {}, 404],
    ["/api/leads", { method: "GET" }, 405],
    ["/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }, 400],
  ];
  const ids: string[] = [];
  for (const [path, init, status] of cases) {
    const response = await site.request(path, init);
    await response.arrayBuffer();
    expect({ path, status: response.status }).toEqual({ path, status });
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    ids.push(id!);
  }
  expect(new Set(ids).size).toBe(cases.length);
  const lines = accessLines(site);
  expect(lines.map((l) => [l.method, l.path, l.status, l.requestId])).toEqual(
    cases.map(([path, init, status], i) => [init.method ?? "GET", path.split("?")[0], status, ids[i]]),
  );
  for (const line of lines) expect(typeof line.ms === "number" && line.ms >= 0).toBe(true);
  // The query is left out: it may carry a token.
  expect(site.logs.join("\n")).not.toContain("secret-token");
});

test("a proxy's request id is kept only behind a trusted proxy, and only when it is sane", async () => {
  site = await createTestSite();
  const untrusted = await site.request("/healthz", { headers: { "x-request-id": "from-the-client-1234" } });
  expect(untrusted.headers.get("x-request-id")).not.toBe("from-the-client-1234");
  await site.close();

  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
  const trusted = await site.request("/healthz", { headers: { "x-request-id": "nginx-9f8e7d6c5b4a" } });
  expect(trusted.headers.get("x-request-id")).toBe("nginx-9f8e7d6c5b4a");
  for (const insane of ["has space", "x".repeat(129), 'quote"d', "new\\nline"]) {
    const response = await site.request("/healthz", { headers: { "x-request-id": insane } });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  }
  expect(accessLines(site).map((l) => l.requestId)[0]).toBe("nginx-9f8e7d6c5b4a");
});
