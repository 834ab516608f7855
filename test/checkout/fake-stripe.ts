import type { Server } from "bun";

// A fake Stripe API on 127.0.0.1 that speaks Stripe's wire format (form-encoded requests, JSON
// answers, error objects, a `request-id` header), so that tests drive the real SDK and check the
// exact request it sends: no network is needed, and what the SDK really sends is what gets checked.

export type RecordedRequest = { method: string; path: string; headers: Headers; body: URLSearchParams };
export type FakeMode =
  | { kind: "ok" }
  | { kind: "no-url" }
  | { kind: "error"; status: number; type: string; message: string }
  | { kind: "hang" };

export type FakeSession = Record<string, unknown> & { id: string };

export type FakeStripe = {
  port: number;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  /** Charges, listed by GET /v1/charges (a refunded one has `refunded: true`). */
  charges: Map<string, FakeSession>;
  /** Payment intents, read by GET /v1/payment_intents/:id (the site expands latest_charge for the card's country). */
  paymentIntents: Map<string, FakeSession>;
  mode: FakeMode;
  /** The connection options to hand to the SDK. */
  connection: { host: string; port: number; protocol: "http"; timeoutMs: number; maxNetworkRetries: number };
  close(): void;
};

let counter = 0;

export function startFakeStripe(options: { timeoutMs?: number } = {}): FakeStripe {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const charges = new Map<string, FakeSession>();
  const paymentIntents = new Map<string, FakeSession>();
  const refunds = new Map<string, Record<string, unknown> & { payment_intent: string }>();
  const hanging: (() => void)[] = [];
  const state: { mode: FakeMode } = { mode: { kind: "ok" } };

  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = new URLSearchParams(await request.text());
      requests.push({ method: request.method, path: url.pathname, headers: request.headers, body });
      const requestId = `req_fake${++counter}`;
      const json = (value: unknown, status = 200) =>
        new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", "request-id": requestId } });
      const mode = state.mode;
      if (mode.kind === "hang") {
        await new Promise<void>((resolve) => hanging.push(resolve));
        return json({}, 200);
      }
      if (mode.kind === "error") {
        return json(
          { error: { type: mode.type, message: mode.message, request_log_url: `https://dashboard.stripe.com/logs/${requestId}` } },
          mode.status,
        );
      }
      if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const id = `cs_test_fake${counter}`;
        const session: FakeSession = {
          id,
          object: "checkout.session",
          mode: body.get("mode"),
          status: "open",
          payment_status: "unpaid",
          amount_total: Number(body.get("line_items[0][price_data][unit_amount]") ?? 2999),
          currency: body.get("line_items[0][price_data][currency]") ?? "eur",
          locale: body.get("locale"),
          metadata: { locale: body.get("metadata[locale]"), site: body.get("metadata[site]") },
          customer_details: null,
          payment_intent: null,
          success_url: body.get("success_url"),
          cancel_url: body.get("cancel_url"),
          url: mode.kind === "no-url" ? null : `https://checkout.stripe.com/c/pay/${id}`,
        };
        sessions.set(id, session);
        return json(session);
      }
      // Lists, newest first, filtered by created[gte], one page (has_more false), as the SDK pages them.
      const listed =
        request.method === "GET" && url.pathname === "/v1/checkout/sessions" ? sessions : url.pathname === "/v1/charges" ? charges : null;
      if (request.method === "GET" && listed !== null) {
        const gte = Number(url.searchParams.get("created[gte]") ?? 0);
        // As Stripe: sessions may be listed by their payment (`payment_intent=`).
        const intent = url.searchParams.get("payment_intent");
        const data = [...listed.values()]
          .filter((item) => Number(item.created ?? 0) >= gte && (intent === null || item.payment_intent === intent))
          .reverse();
        return json({ object: "list", data, has_more: false, url: url.pathname });
      }
      if (request.method === "POST" && url.pathname === "/v1/refunds") {
        // As Stripe: the same Idempotency-Key gets the same refund back; a payment refunded
        // already is refused with charge_already_refunded.
        const key = request.headers.get("idempotency-key") ?? "";
        const paymentIntent = body.get("payment_intent") ?? "";
        const earlier = refunds.get(key);
        if (earlier !== undefined) return json(earlier);
        if ([...refunds.values()].some((r) => r.payment_intent === paymentIntent)) {
          return json(
            {
              error: {
                type: "invalid_request_error",
                code: "charge_already_refunded",
                message: `Charge for ${paymentIntent} has already been refunded.`,
              },
            },
            400,
          );
        }
        const refund = {
          id: `re_fake${counter}`,
          object: "refund",
          payment_intent: paymentIntent,
          status: "succeeded",
          amount: 2999,
          currency: "eur",
        };
        refunds.set(key, refund);
        return json(refund);
      }
      const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && intent) {
        const found = paymentIntents.get(decodeURIComponent(intent[1]!));
        if (found !== undefined) return json(found);
        return json(
          { error: { type: "invalid_request_error", code: "resource_missing", message: `No such payment_intent: '${intent[1]}'` } },
          404,
        );
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        const session = sessions.get(decodeURIComponent(match[1]!));
        if (session === undefined) {
          return json(
            {
              error: {
                type: "invalid_request_error",
                code: "resource_missing",
                message: `No such checkout.session: '${match[1]}'`,
                param: "session",
              },
            },
            404,
          );
        }
        return json(session);
      }
      return json(
        { error: { type: "invalid_request_error", message: `Unrecognized request URL (${request.method}: ${url.pathname}).` } },
        404,
      );
    },
  });

  const port = server.port ?? 0;
  return {
    port,
    requests,
    sessions,
    charges,
    paymentIntents,
    get mode() {
      return state.mode;
    },
    set mode(mode: FakeMode) {
      state.mode = mode;
    },
    connection: { host: "127.0.0.1", port, protocol: "http", timeoutMs: options.timeoutMs ?? 10_000, maxNetworkRetries: 0 },
    close() {
      for (const release of hanging) release();
      server.stop(true);
    },
  };
}
