import { expect, test } from "bun:test";
import { loadConfig } from "../../server/platform/config";
import { ConfigError } from "../../server/platform/config-error";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// A Stripe test-mode key takes no money: a production site configured with one would hand out
// access for nothing, so it does not start.

const production = { ...PRODUCTION_READY_ENV, STRIPE_WEBHOOK_SECRET: "whsec_x", SMTP_URL: "smtp://mail.example.com:587" };

test("production refuses a Stripe test-mode secret or restricted key, naming STRIPE_SECRET_KEY", () => {
  for (const key of ["sk_test_abc", "rk_test_abc"]) {
    expect(() => loadConfig({ ...production, STRIPE_SECRET_KEY: key })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, STRIPE_SECRET_KEY: key })).toThrow(/STRIPE_SECRET_KEY.*test-mode/);
  }
});

test("a test-mode key is fine outside production", () => {
  expect(loadConfig({ ...production, NODE_ENV: "development", STRIPE_SECRET_KEY: "sk_test_abc" }).stripe?.secretKey).toBe("sk_test_abc");
});
