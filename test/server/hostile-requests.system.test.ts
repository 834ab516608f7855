import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import { logEntries, problems } from "../support/logs";
import { until } from "../support/wait";
import { hangUpMidUpload, type RawAnswer, rawRequest } from "./raw-http";

// The real server process, spoken to over raw TCP: what a scanner, a broken client or a proxy may
// send. Each answer is the site's own (its headers, no stack trace, never Bun's development page).

let server: RunningServer;
beforeAll(async () => {
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  server = await startServer({ env: { LOG_LEVEL: "debug", WORKERS: "1" } });
});
afterAll(() => endServer(server));

const get = (path: string, headerLines: string[], version = "1.1") =>
  rawRequest(server.baseUrl, [`GET ${path} HTTP/${version}`, ...headerLines, "Connection: close", "", ""].join("\r\n"));

const post = (path: string, body: string | Uint8Array, host = "127.0.0.1", type = "application/json") => {
  const head = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return rawRequest(server.baseUrl, typeof body === "string" ? head + body : Buffer.concat([Buffer.from(head), body]), 15_000);
};

function expectSiteAnswer(answer: RawAnswer) {
  expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["cross-origin-resource-policy"]).toBe("same-origin");
  expect(answer.body).not.toContain("__bunfallback");
  expect(answer.body).not.toContain("/server/");
}

/** The answer names its request id, and exactly one access-log line has that id. */
async function expectOneAccessLine(answer: RawAnswer, status: number, path?: string) {
  const id = answer.headers["x-request-id"];
  expect(id).toBeString();
  const linesOf = () => logEntries(server.output).filter((e) => e.msg === "request" && e.requestId === id);
  // The log is written once per turn of the server's event loop, so a line may follow its answer.
  await until(`the access-log line of ${id}`, () => linesOf().length > 0);
  const lines = linesOf();
  expect(lines.map((l) => l.status)).toEqual([status]);
  if (path !== undefined) expect(lines[0]?.path).toBe(path);
}

const leadCount = () => {
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads").get()?.n;
  } finally {
    db.close();
  }
};

test("an unusable Host header is answered 400 with the site's headers, for pages and the API alike", async () => {
  for (const host of ["a b", "a:99999", "a/b", "@evil", ""]) {
    const page = await get("/", [`Host: ${host}`]);
    expect({ host, status: page.status }).toEqual({ host, status: 400 });
    expectSiteAnswer(page);
    const api = await post("/api/leads", JSON.stringify({ email: "x@example.com", source: "exit_popup" }), host);
    expect({ host, status: api.status }).toEqual({ host, status: 400 });
    expectSiteAnswer(api);
    for (const answer of [page, api]) await expectOneAccessLine(answer, 400);
  }
  expect(leadCount()).toBe(0);
  expect(logEntries(server.output).filter((e) => e.level === "error")).toEqual([]);
});

test("an HTTP/1.0 request without Host gets the site's own pages", async () => {
  const home = await get("/", [], "1.0");
  expect(home.status).toBe(200);
  expect(home.body).toContain('<html lang="fr"');
  expectSiteAnswer(home);
  const health = await get("/healthz", [], "1.0");
  expect(health.status).toBe(200);
  expect(JSON.parse(health.body)).toMatchObject({ ok: true });
  const english = await get("/en/paiement", [], "1.0");
  expect(english.status).toBe(200);
  expect(english.body).toContain('<html lang="en"');
  const missing = await get("/no/such/page", [], "1.0");
  expect(missing.status).toBe(404);
  expectSiteAnswer(missing);
  // Answered by a second pass through the app, yet logged once, under the id the client got.
  await expectOneAccessLine(health, 200, "/healthz");
  await expectOneAccessLine(missing, 404, "/no/such/page");
});

test("a Host of one to three characters does not shift routing by a path segment", async () => {
  for (const host of ["a", "ab", "abc"]) {
    expect((await get("/xxxx/healthz", [`Host: ${host}`])).status).toBe(404);
    expect((await get("/healthz", [`Host: ${host}`])).status).toBe(200);
    const lead = await post("/zz/api/leads", JSON.stringify({ email: `${host}@example.com`, source: "exit_popup" }), host);
    expect(lead.status).toBe(404);
  }
  expect(leadCount()).toBe(0);
});

test("a body far over an endpoint's limit, sent in one go, gets the 413 answer rather than a reset", async () => {
  for (const size of [2 * 1024 * 1024, 8 * 1024 * 1024]) {
    for (const path of ["/api/leads", "/api/chat", "/api/payment"]) {
      const answer = await post(path, new Uint8Array(size).fill(120));
      expect({ path, size, status: answer.status, socketError: answer.socketError }).toEqual({
        path,
        size,
        status: 413,
        socketError: null,
      });
      expect(JSON.parse(answer.body).error).toContain("too large");
      expectSiteAnswer(answer);
    }
  }
});

test("a client that hangs up mid-upload is logged as a client abort at debug level, never as an error", async () => {
  const head = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
  const before = server.output.length;
  for (const path of ["/api/leads", "/api/chat", "/api/payment"]) await hangUpMidUpload(server.baseUrl, head(path), '{"email":"half');
  // The server notices each hang-up when its read of the body fails: wait for the three lines.
  const aborts = () =>
    logEntries(server.output.slice(before)).filter((e) => e.level === "debug" && e.msg === "client closed the connection");
  await until("three client-abort log lines", () => aborts().length >= 3);
  const lines = server.output.slice(before);
  expect(problems(lines)).toEqual([]);
  expect(logEntries(lines).filter((e) => e.level === "debug" && e.msg === "client closed the connection")).toHaveLength(3);
});
