import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { loadConfig } from "../../server/platform/config";
import { NotReadyForProductionError } from "../../server/platform/config-error";
import { startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// A production start refuses, in one message, while anything a real shop needs is missing; it
// warns once each about the specification's placeholder reviews and user count (docs/product.md,
// "Placeholder content").

const main = join(import.meta.dir, "..", "..", "server", "main.ts");

test("the server started with NODE_ENV=production and nothing else exits with 1, listing every missing item on its own line", () => {
  const dir = mkdtempSync(join(tmpdir(), "site-prod-"));
  try {
    const result = spawnSync({
      cmd: [process.execPath, "run", main],
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir, PORT: "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(result.exitCode).toBe(1);
    const message = result.stderr.toString();
    const lines = message.trim().split("\n");
    expect(lines[0]).toBe("Not ready for production (NODE_ENV=production): 10 settings to fix before the site may start.");
    const items = lines.slice(1).map((line) => /^ {2}- (\w+) /.exec(line)?.[1]);
    expect(items).toEqual([
      "STRIPE_SECRET_KEY",
      "PUBLIC_BASE_URL",
      "SUPPORT_EMAIL",
      "SELLER_NAME",
      "SELLER_ADDRESS",
      "SELLER_REGISTRATION",
      "HOSTING_PROVIDER",
      "MEDIATOR_NAME",
      "MEDIATOR_URL",
      "VAT_SCHEME",
    ]);
    expect(message).toContain("SUPPORT_EMAIL is an example address (support@example.com)");
    // Nothing was started: no database was created.
    expect(
      spawnSync({ cmd: ["ls", dir] })
        .stdout.toString()
        .trim(),
    ).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("PUBLIC_BASE_URL on this machine and an example SUPPORT_EMAIL are refused; the rest of a ready configuration passes", () => {
  const ready = { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" };
  expect(loadConfig(ready).legal.sellerName).toBe("Stream Shop SAS");
  for (const local of ["http://localhost:3000", "http://127.0.0.1", "http://shop.localhost", "http://[::1]:8080", "http://0.0.0.0"]) {
    let problems: string[] = [];
    try {
      loadConfig({ ...ready, PUBLIC_BASE_URL: local });
    } catch (error) {
      if (error instanceof NotReadyForProductionError) problems = error.problems.map((p) => p.variable);
    }
    expect({ local, problems }).toEqual({ local, problems: ["PUBLIC_BASE_URL"] });
  }
  for (const address of ["support@example.com", "help@example.org", "me@shop.example", "a@b.test"]) {
    expect(() => loadConfig({ ...ready, SUPPORT_EMAIL: address })).toThrow(/SUPPORT_EMAIL is an example address/);
  }
  // Development runs without any of it.
  expect(loadConfig({}).legal.sellerName).toBeNull();
});

test("the refusal of this machine's address says how to try production on this computer, and the address it suggests is accepted", () => {
  const ready = { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", PORT: "3943" };
  let detail = "";
  try {
    loadConfig({ ...ready, PUBLIC_BASE_URL: "http://127.0.0.1:3943" });
  } catch (error) {
    if (error instanceof NotReadyForProductionError) detail = error.problems.find((p) => p.variable === "PUBLIC_BASE_URL")?.detail ?? "";
  }
  expect(detail).toContain(
    "to try production on this computer, use a made-up name pointed at it in /etc/hosts, such as http://shop.test:3943",
  );
  expect(detail).toContain('docs/owner/deploy.md, "Trying production on your own computer"');
  expect(loadConfig({ ...ready, PUBLIC_BASE_URL: "http://shop.test:3943" }).publicBaseUrl).toBe("http://shop.test:3943");
});

test("a ready production server starts, and its log lists once each the owner content it does not show: testimonials, user count, reference price", async () => {
  const server = await startServer({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" } });
  try {
    const warnings = server.output.filter((line) => line.includes('"level":"warn"'));
    expect(warnings.filter((line) => line.includes("No review is shown yet"))).toHaveLength(1);
    // The user count is the site's own figure now: nothing for the owner to set.
    expect(warnings.filter((line) => line.includes("No user count is shown"))).toHaveLength(0);
    expect(warnings.filter((line) => line.includes("No launch offer is shown"))).toHaveLength(1);
    const notice = await (await fetch(`${server.baseUrl}/mentions-legales`)).text();
    expect(notice).toContain("Stream Shop SAS");
    expect(notice).not.toContain('data-testid="legal-incomplete"');
  } finally {
    await endServer(server);
  }
  // WORKERS=1: that the workers repeat none of these lines, the server above shows (a worker costs a second of CPU).
  const counted = await startServer({
    env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", CLAIMED_USERS: "120", ORIGINAL_PRICE: "59", WORKERS: "1" },
  });
  try {
    // CLAIMED_USERS is never read (the figure is the site's count); ORIGINAL_PRICE makes no reduction (a new shop
    // has no price history), so the launch offer is still missing.
    expect(counted.output.filter((line) => line.includes("No user count is shown"))).toHaveLength(0);
    expect(counted.output.filter((line) => line.includes("No launch offer is shown"))).toHaveLength(1);
    expect(counted.output.filter((line) => line.includes("No review is shown yet"))).toHaveLength(1);
  } finally {
    await endServer(counted);
  }
});
