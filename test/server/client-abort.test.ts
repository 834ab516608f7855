import { afterEach, expect, test } from "bun:test";
import { maskPath } from "../../server/platform/log-mask";
import { createTestSite, type TestSite } from "../support/app";
import { type LogEntry, logEntries, problems } from "../support/logs";
import { until } from "../support/wait";

// A client that hangs up halfway through sending its body, on every endpoint that reads one: the
// request is dropped without an error or warning in the log (anyone could otherwise flood it), and
// one debug line says what happened.

const sites: TestSite[] = [];
afterEach(() => {
  for (const site of sites.splice(0)) site.close();
});

/** A request as Bun hands it over when the client disconnects mid-body: the stream fails, the signal is aborted. */
function hungUp(url: string, contentType: string, firstBytes: string): Request {
  const connection = new AbortController();
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode(firstBytes));
        return;
      }
      connection.abort();
      controller.error(new DOMException("The connection was closed.", "AbortError"));
    },
  });
  return new Request(url, {
    method: "POST",
    headers: { "content-type": contentType, "content-length": "5000" },
    body,
    signal: connection.signal,
  });
}

async function expectQuietAbort(site: TestSite, request: Request) {
  const path = new URL(request.url).pathname;
  const before = site.logs.length;
  const response = await site.app.handle(request);
  expect({ path, status: response.status }).not.toEqual({ path, status: 500 });
  // The line names the path as every log line does: its capabilities masked (the test card page's checkout id).
  const logged = maskPath(path);
  const aborted = (e: LogEntry) => e.level === "debug" && e.msg === "client closed the connection" && e.path === logged;
  // The abort is logged once the body's read fails, which may be after the answer.
  await until("the client abort's log line", () => logEntries(site.logs.slice(before)).some(aborted));
  const lines = site.logs.slice(before);
  expect(problems(lines)).toEqual([]);
  expect(logEntries(lines).filter(aborted)).toHaveLength(1);
}

test("hanging up mid-upload on the leads, payment, chat and test card endpoints is a debug line, not an error", async () => {
  const site = await createTestSite();
  sites.push(site);
  const created = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  const { url }: { url: string } = await created.json();
  const json = "application/json";
  const form = "application/x-www-form-urlencoded";
  await expectQuietAbort(site, hungUp("http://localhost/api/leads", json, '{"email":"ha'));
  await expectQuietAbort(site, hungUp("http://localhost/api/leads", form, "email=ha"));
  await expectQuietAbort(site, hungUp("http://localhost/api/payment", json, '{"loc'));
  await expectQuietAbort(site, hungUp("http://localhost/api/payment", form, "loc"));
  await expectQuietAbort(site, hungUp("http://localhost/api/chat", json, '{"messages":['));
  await expectQuietAbort(site, hungUp(`http://localhost${url}`, form, "email=a%40b.c&card=4242"));
});

test("hanging up mid-delivery on the Stripe webhook is a debug line, not an error", async () => {
  const site = await createTestSite({ env: { STRIPE_SECRET_KEY: "sk_test_abort", STRIPE_WEBHOOK_SECRET: "whsec_abort" } });
  sites.push(site);
  const request = hungUp("http://localhost/api/stripe/webhook", "application/json", '{"id":"evt_');
  request.headers.set("stripe-signature", "t=1,v1=x");
  await expectQuietAbort(site, request);
});
