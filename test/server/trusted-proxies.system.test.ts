import { afterAll, beforeAll, expect, test } from "bun:test";
import { ConfigError } from "../../server/platform/config-error";
import { forwardedClient } from "../../server/platform/http/trusted-proxies";
import { startupWarnings } from "../../server/platform/production-readiness";
import { LEAD_RATE_LIMIT } from "../../server/shop/leads/controller";
import { ACCESS_RATE_LIMIT, LICENSE_RATE_LIMIT } from "../../server/shop/licenses/controller";
import { type RunningServer, startServer } from "../e2e/harness";
import { testConfig } from "../support/config";
import { endServer } from "../support/end-server";
import { until } from "../support/wait";

// TRUST_PROXY names the reverse proxy's addresses or ranges: X-Forwarded-For (and -Proto,
// X-Request-Id) are believed only from them, so a client reaching the port directly cannot pick a
// new address per request to escape the rate limits.

const proxies = (value: string) => testConfig({ TRUST_PROXY: value }).trustedProxies;

test("TRUST_PROXY takes addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else naming the variable", () => {
  const trusted = proxies("127.0.0.1, 10.0.0.0/8,fd00::/8, ::1");
  expect(trusted.kind).toBe("list");
  const client = (socket: string, header: string | null) => forwardedClient(trusted, socket, header);
  // From a trusted proxy: the right-most address that is not a proxy, whatever the client wrote left of it.
  expect(client("127.0.0.1", "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7");
  expect(client("10.1.2.3", "6.6.6.6, 203.0.113.7, 10.0.0.5")).toBe("203.0.113.7");
  expect(client("::ffff:10.1.2.3", "2001:db8::1, fd12::3")).toBe("2001:db8::1");
  expect(client("::1", "198.51.100.2")).toBe("198.51.100.2");
  // From anyone else: the socket's address, the header ignored.
  expect(client("192.0.2.9", "203.0.113.7")).toBe("192.0.2.9");
  expect(client("11.0.0.1", "10.0.0.1")).toBe("11.0.0.1");
  for (const bad of ["10.0.0.0/33", "banana", "10.0.0.1/8/2", "::1/129", "300.1.1.1"]) {
    expect(() => testConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    expect(() => testConfig({ TRUST_PROXY: bad })).toThrow("TRUST_PROXY");
  }
});

test("TRUST_PROXY=true keeps believing every peer, with a start-up warning; false believes none", () => {
  const any = testConfig({ TRUST_PROXY: "true" });
  expect(forwardedClient(any.trustedProxies, "192.0.2.9", "203.0.113.7")).toBe("203.0.113.7");
  expect(startupWarnings(any).some((w) => w.includes("TRUST_PROXY=true"))).toBe(true);
  const none = testConfig({ TRUST_PROXY: "false" });
  expect(forwardedClient(none.trustedProxies, "192.0.2.9", "203.0.113.7")).toBe("192.0.2.9");
  expect(startupWarnings(none).some((w) => w.includes("TRUST_PROXY"))).toBe(false);
  expect(startupWarnings(testConfig({ TRUST_PROXY: "127.0.0.1" })).some((w) => w.includes("TRUST_PROXY"))).toBe(false);
});

// A real server: this test's requests come from 127.0.0.1, which is not the proxy.
let server: RunningServer;
beforeAll(async () => {
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  server = await startServer({ env: { TRUST_PROXY: "10.9.9.9, fd00::/8", WORKERS: "1" } });
});
afterAll(async () => {
  await endServer(server);
});

let spoofed = 0;
const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${++spoofed % 250}`, ...extra },
    body: JSON.stringify(body),
  });

async function statuses(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await send(i)).status);
  return seen;
}

test("a client that is not the trusted proxy cannot escape the lead, licence and access-recovery limits with a varied X-Forwarded-For", async () => {
  const leads = await statuses(LEAD_RATE_LIMIT.limit + 2, (i) =>
    post("/api/leads", { email: `spoof${i}@example.com`, source: "exit_popup", ip_hash: null, locale: "fr" }),
  );
  expect(leads.slice(0, LEAD_RATE_LIMIT.limit).every((s) => s === 201)).toBe(true);
  expect(leads.slice(LEAD_RATE_LIMIT.limit)).toEqual([429, 429]);

  const access = await statuses(ACCESS_RATE_LIMIT.limit + 2, (i) =>
    post("/api/access/resend", { email: `who${i}@example.com`, locale: "fr" }),
  );
  expect(access.slice(ACCESS_RATE_LIMIT.limit)).toEqual([429, 429]);

  const guesses = await statuses(LICENSE_RATE_LIMIT.limit + 2, (i) =>
    post("/api/licenses/verify", { key: `ABCD-EFGH-JKLM-${String(i).padStart(4, "0")}` }),
  );
  expect(guesses.slice(0, LICENSE_RATE_LIMIT.limit).includes(429)).toBe(false);
  expect(guesses.slice(LICENSE_RATE_LIMIT.limit)).toEqual([429, 429]);
});

test("a client that is not the trusted proxy cannot claim HTTPS or choose the request id in the log", async () => {
  const response = await fetch(`${server.baseUrl}/`, { headers: { "x-forwarded-proto": "https", "x-request-id": "chosen-by-client" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("strict-transport-security")).toBeNull();
  expect(response.headers.get("x-request-id")).not.toBe("chosen-by-client");
});

test("a page answered by Bun's own route and one passed on to Elysia each get one access-log line, its id, and no claimed HTTPS", async () => {
  // `/en` is answered from memory by the page route; with a query, and with a trailing slash, it goes on to Elysia.
  for (const path of ["/en", "/en?utm_source=x", "/en/"]) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { "x-forwarded-proto": "https", "x-request-id": "chosen-by-client" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    const id = response.headers.get("x-request-id");
    expect(id).not.toBeNull();
    expect(id).not.toBe("chosen-by-client");
    // The line is written within 10 ms of the answer (the log's batching); a second would come with it.
    const lines = await until(`the log line of ${path}`, () => {
      const found = server.output.filter((line) => line.includes(`"requestId":"${id}"`));
      return found.length > 0 ? found : null;
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ method: "GET", path: path.split("?")[0], status: 200 });
  }
});

test("from the trusted proxy, X-Forwarded-For, -Proto and X-Request-Id are believed: each forwarded client has its own limit", async () => {
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  const behindProxy = await startServer({ env: { TRUST_PROXY: "127.0.0.0/8", WORKERS: "1" } });
  try {
    const leads = await statuses(LEAD_RATE_LIMIT.limit + 2, (i) =>
      fetch(`${behindProxy.baseUrl}/api/leads`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `6.6.6.6, 203.0.113.${i}` },
        body: JSON.stringify({ email: `real${i}@example.com`, source: "exit_popup", ip_hash: null, locale: "fr" }),
      }),
    );
    expect(leads.every((s) => s === 201)).toBe(true);
    const page = await fetch(`${behindProxy.baseUrl}/`, { headers: { "x-forwarded-proto": "https", "x-request-id": "from-the-proxy" } });
    expect(page.headers.get("strict-transport-security")).not.toBeNull();
    expect(page.headers.get("x-request-id")).toBe("from-the-proxy");
  } finally {
    await endServer(behindProxy);
  }
});
