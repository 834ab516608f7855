import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIGURATION_DOC, configurationDoc } from "../../scripts/config-docs";
import { loadConfig } from "../../server/platform/config";
import { ConfigError } from "../../server/platform/config-error";
import { EnvSchema } from "../../server/platform/env";
import { envDocOf } from "../../server/platform/env-doc";
import { PRODUCTION_READY_ENV } from "../support/production-env";

test("docs/owner/configuration.md is what `npm run docs:config` writes from the environment's schema", () => {
  const written = readFileSync(join(import.meta.dir, "../..", CONFIGURATION_DOC), "utf8");
  const expected = configurationDoc();
  if (written !== expected) {
    const lines = written.split("\n");
    const at = expected.split("\n").findIndex((line, index) => line !== lines[index]);
    throw new Error(
      `${CONFIGURATION_DOC} is out of date (from line ${at + 1}): run \`npm run docs:config\` and commit the result.\n` +
        `expected: ${expected.split("\n")[at]}\nfound:    ${lines[at]}`,
    );
  }
  // Every variable the server reads is in the reference, once.
  for (const name of Object.keys(EnvSchema.entries)) expect(written.split(`### \`${name}\`\n`).length).toBe(2);
});

/** The variable a production start with this environment refuses, or null when it starts. */
function refused(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

test("the variables the reference marks as required in production are exactly those a production start refuses to go without", () => {
  // A complete production environment, with real payments and e-mail.
  const complete: Record<string, string> = {
    ...PRODUCTION_READY_ENV,
    STRIPE_SECRET_KEY: "sk_live_123",
    STRIPE_WEBHOOK_SECRET: "whsec_abc",
    SMTP_URL: "smtp://mail.stream-shop.fr:587",
  };
  // It starts: nothing the reference leaves unmarked is needed.
  expect(refused(complete)).toBeNull();
  const required = Object.entries(EnvSchema.entries)
    .filter(([, schema]) => envDocOf(schema)?.requiredInProduction !== undefined)
    .map(([name]) => name);
  expect(required.toSorted()).toEqual(
    Object.keys(complete)
      .filter((name) => name !== "NODE_ENV")
      .toSorted(),
  );
  // And without any one of those marked, it stops, naming it.
  for (const name of required) {
    const { [name]: _left, ...without } = complete;
    expect(refused(without)).toContain(name);
  }
});
