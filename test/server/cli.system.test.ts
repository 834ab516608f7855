import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { orders } from "../../db/schema";
import { runCommand, USAGE } from "../../server/owner/cli";
import { createTestSite } from "../support/app";
import { testConfig } from "../support/config";
import { payWithTestCard } from "../support/purchase";

const main = join(import.meta.dir, "..", "..", "server", "main.ts");
const run = (args: string[], env: Record<string, string>) =>
  spawnSync({
    cmd: [process.execPath, "run", main, ...args],
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });

test("an export run where there is no database says so and creates nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "site-cli-"));
  try {
    const dataDir = join(dir, "not-here");
    const result = run(["leads", "export"], { DATA_DIR: dataDir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.toString()).toContain(`No database at ${join(dataDir, "site.db")}`);
    expect(result.stdout.toString()).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a bad setting stops the program with a message naming the variable; an unknown command shows the usage", () => {
  const bad = run([], { PORT: "eighty" });
  expect(bad.exitCode).toBe(1);
  expect(bad.stderr.toString()).toContain("PORT");
  const unknown = run(["leads", "delete"], {});
  expect(unknown.exitCode).toBe(2);
  expect(unknown.stderr.toString()).toContain("Usage:");
});

test("an option a command does not take, or one without its value, is refused with that command's usage before the database is looked for", async () => {
  const dir = mkdtempSync(join(tmpdir(), "site-cli-"));
  try {
    const config = testConfig({}, join(dir, "no-database-here"));
    const said = async (...argv: string[]) => {
      const errors: string[] = [];
      const code = await runCommand(
        argv,
        config,
        () => {},
        (line) => errors.push(line),
      );
      return { code, said: errors.join("") };
    };
    const unknown = await said("orders", "export", "--all");
    expect(unknown.code).toBe(2);
    expect(unknown.said).toContain("--all");
    expect(unknown.said).toEndWith("Usage: site orders export [--no-bom]");
    const missing = await said("orders", "reconcile", "--since");
    expect(missing.code).toBe(2);
    expect(missing.said).toEndWith("Usage: site orders reconcile --since DATE");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("'orders refund' and 'orders resend' of an order that does not exist say so; an existing unpaid order is 'not a paid order'", async () => {
  const site = await createTestSite();
  try {
    const started = await site.request("/api/payment", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "locale=fr&acceptTerms=yes",
    });
    expect(started.status).toBe(303);
    const [pending] = site.db.select({ id: orders.id, status: orders.status }).from(orders).all();
    expect(pending?.status).toBe("pending");
    const command = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCommand(
        argv,
        site.config,
        (l) => out.push(l),
        (l) => err.push(l),
      );
      return { code, out: out.join(""), err: err.join("") };
    };
    const missing = pending!.id + 998;
    for (const action of ["refund", "resend"]) {
      expect(await command("orders", action, String(missing))).toEqual({
        code: 1,
        out: "",
        err: `Order ${missing} does not exist (site orders export lists the orders).`,
      });
      expect(await command("orders", action, String(pending!.id))).toEqual({
        code: 1,
        out: "",
        err: `Order ${pending!.id} is not a paid order.`,
      });
    }
    expect(site.db.select({ status: orders.status }).from(orders).all()).toEqual([{ status: "pending" }]);
  } finally {
    await site.close();
  }
});

test("every command the program knows is in its usage, and none is refused as unknown", async () => {
  // The owner's commands, the console's arrival notwithstanding: the usage lists each one.
  const commands = [
    "leads export",
    "leads erase",
    "orders export",
    "chats export",
    "licenses export",
    "vat export",
    "licenses show",
    "licenses disable",
    "licenses enable",
    "licenses reset",
    "licenses rotate-key",
    "mail list",
    "mail retry",
    "orders resend",
    "orders refund",
    "orders invoice",
    "orders reconcile",
    "owner invite",
    "places pending",
    "places approve",
    "places revoke",
  ];
  const named = (command: string) => {
    const [group, action] = command.split(" ");
    // "disable KEY … enable KEY", "approve NAME … (revoke NAME …)": a pair shares a line.
    return USAGE.includes(`site ${command}`) || new RegExp(`site ${group} \\w+ .*\\b${action} [A-Z]+`).test(USAGE);
  };
  expect(commands.filter((c) => !named(c))).toEqual([]);
  const dir = mkdtempSync(join(tmpdir(), "site-cli-"));
  try {
    const config = testConfig({}, join(dir, "no-database-here"));
    for (const command of commands) {
      const errors: string[] = [];
      const code = await runCommand(
        [...command.split(" "), "x"],
        config,
        () => {},
        (line) => errors.push(line),
      );
      // Known: it goes as far as looking for the database.
      expect({ command, code, said: errors.join("").slice(0, 15) }).toEqual({ command, code: 1, said: "No database at " });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("'vat export' when every sale was a test-checkout sale: the CSV is its header alone, and stderr says how many sales were left out and why", async () => {
  const site = await createTestSite();
  try {
    await payWithTestCard(site, { locale: "fr", email: "first@example.com" });
    await payWithTestCard(site, { locale: "en", email: "second@example.com" });
    // Free access claimed under the test checkout is a test sale too (its invoice is in the TEST series).
    expect(
      await runCommand(
        ["codes", "create", "PRESS", "--percent", "100"],
        site.config,
        () => {},
        () => {},
      ),
    ).toBe(0);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const start = await site.request("/api/payment", {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ locale: "fr", acceptTerms: "yes", code: "press" }).toString(),
    });
    const claim = new URLSearchParams({ email: "press@example.com", name: "Camille", city: "Paris", country: "FR" });
    expect(
      (await site.request(start.headers.get("location") ?? "", { method: "POST", headers: form, body: claim.toString() })).status,
    ).toBe(303);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(
      ["vat", "export"],
      site.config,
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect(code).toBe(0);
    expect(out.join("").trim().split("\r\n")).toEqual([
      "quarter,vat_scheme,country,vat_rate_percent,invoices,credit_notes,net,vat,total,currency",
    ]);
    expect(err.join("")).toBe("Left out: 3 test-checkout sales (the test checkout takes no money, so they are not in the VAT return).");
  } finally {
    await site.close();
  }
});
