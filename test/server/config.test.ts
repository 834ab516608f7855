import { expect, test } from "bun:test";
import { loadConfig } from "../../server/platform/config";
import { ConfigError } from "../../server/platform/config-error";
import { PRODUCTION_READY_ENV } from "../support/production-env";

const fails = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
};

test("defaults start the site on port 3000 with the test checkout and the offline assistant", () => {
  const config = loadConfig({});
  expect(config.port).toBe(3000);
  // Not set: nothing to seed the content with (its defaults are the specification's 29,99 €).
  expect(config.contentSeed.priceMinor).toBeUndefined();
  expect(config.contentSeed.originalPriceMinor).toBeUndefined();
  expect(config.stripe).toBeUndefined();
  expect(config.anthropic).toBeUndefined();
  expect(config.dbPath.endsWith("data/site.db")).toBe(true);
  expect(config.dbBusyWaitMs).toBe(5000);
});

test("the site listens on loopback alone unless HOST says otherwise", () => {
  // A proxy on the same machine reaches it; the world does not reach the plain-HTTP port and its console.
  expect(loadConfig({}).host).toBe("127.0.0.1");
  expect(loadConfig({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" }).host).toBe("127.0.0.1");
  expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  expect(loadConfig({ HOST: "::" }).host).toBe("::");
  expect(fails({ HOST: " " })).toContain("HOST");
});

test("a bad value stops start-up with a message naming the variable", () => {
  expect(fails({ PORT: "eighty" })).toContain("PORT");
  expect(fails({ PORT: "70000" })).toContain("PORT");
  expect(fails({ SUPPORT_EMAIL: "nobody" })).toContain("SUPPORT_EMAIL");
  expect(fails({ PRICE: "free" })).toContain("PRICE");
  expect(fails({ PUBLIC_BASE_URL: "example.com" })).toContain("PUBLIC_BASE_URL");
  expect(fails({ TRUST_PROXY: "maybe" })).toContain("TRUST_PROXY");
  expect(fails({ STRIPE_SECRET_KEY: "pk_live_x" })).toContain("STRIPE_SECRET_KEY");
  expect(fails({ DB_BUSY_WAIT_MS: "0" })).toContain("DB_BUSY_WAIT_MS");
  expect(fails({ DB_BUSY_WAIT_MS: "600000" })).toContain("DB_BUSY_WAIT_MS must be at most 60000");
  expect(fails({ DIGEST: "monthly" })).toContain("DIGEST must be daily, weekly or off");
  expect(fails({ DIGEST_HOUR: "24" })).toContain("DIGEST_HOUR must be an hour from 0 to 23");
  expect(fails({ DIGEST_HOUR: "7am" })).toContain("DIGEST_HOUR");
  expect(fails({ DIGEST_WEEKDAY: "lundi" })).toContain("DIGEST_WEEKDAY must be a day of the week in English");
});

test("the owner's digest: each morning at 07:00 unless set otherwise, weekly on the day named", () => {
  expect(loadConfig({}).digest).toEqual({ frequency: "daily", hour: 7, weekday: 1 });
  expect(loadConfig({ DIGEST: "Weekly", DIGEST_HOUR: "18", DIGEST_WEEKDAY: "Friday" }).digest).toEqual({
    frequency: "weekly",
    hour: 18,
    weekday: 5,
  });
  expect(loadConfig({ DIGEST: "off" }).digest.frequency).toBe("off");
});

test("Stripe keys go together, and production needs them unless test checkout is allowed", () => {
  expect(fails({ STRIPE_SECRET_KEY: "sk_test_123" })).toContain("STRIPE_WEBHOOK_SECRET");
  expect(fails({ NODE_ENV: "production" })).toContain("STRIPE_SECRET_KEY");
  expect(loadConfig({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" }).stripe).toBeUndefined();
  const keys = { STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_abc" };
  const liveKeys = { ...keys, STRIPE_SECRET_KEY: "sk_live_123" };
  expect(fails({ NODE_ENV: "production", ...liveKeys })).toContain("PUBLIC_BASE_URL");
  expect(fails({ ...PRODUCTION_READY_ENV, PUBLIC_BASE_URL: "https://shop.example.com/", ...liveKeys })).toContain("SMTP_URL");
  expect(fails({ SMTP_URL: "smtp://" })).toContain("SMTP_URL");
  expect(fails({ SMTP_URL: "http://mail.example.com" })).toContain("SMTP_URL");
  expect(fails({ MAIL_FROM: "Shop <not an address>" })).toContain("MAIL_FROM");
  expect(loadConfig({ MAIL_FROM: "Shop <shop@example.com>", SMTP_URL: "smtps://u:p@mail.example.com:465" }).mail).toMatchObject({
    from: "Shop <shop@example.com>",
    smtpUrl: "smtps://u:p@mail.example.com:465",
  });
  expect(
    loadConfig({
      ...PRODUCTION_READY_ENV,
      PUBLIC_BASE_URL: "https://shop.example.com/",
      SMTP_URL: "smtp://mail.example.com:587",
      ...liveKeys,
    }).publicBaseUrl,
  ).toBe("https://shop.example.com");
  const stripe = loadConfig(keys).stripe;
  expect(stripe?.secretKey).toBe("sk_test_123");
});

test("prices are read in major units with a comma or a dot", () => {
  expect(loadConfig({ PRICE: "19,90" }).contentSeed.priceMinor).toBe(1990);
  expect(loadConfig({ PRICE: "19.9" }).contentSeed.priceMinor).toBe(1990);
});
