import { expect, test } from "bun:test";
import { loadConfig } from "../../server/platform/config";
import { ConfigError } from "../../server/platform/config-error";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// In production without Stripe keys the server refuses to start unless the test checkout is
// explicitly allowed, so a real shop never takes "payments" on the test card page by mistake.

test("production without Stripe keys refuses to start, naming the variable", () => {
  expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
  expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/STRIPE_SECRET_KEY.*ALLOW_TEST_CHECKOUT/);
});

test("production with ALLOW_TEST_CHECKOUT=true, or with both Stripe keys and SMTP, starts", () => {
  expect(loadConfig({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" }).stripe).toBeUndefined();
  const stripe = { ...PRODUCTION_READY_ENV, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
  expect(() => loadConfig(stripe)).toThrow(/SMTP_URL/);
  expect(loadConfig({ ...stripe, SMTP_URL: "smtps://shop:secret@mail.example.com" }).stripe?.secretKey).toBe("sk_live_x");
});
