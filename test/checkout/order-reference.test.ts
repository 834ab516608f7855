import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../db/migrations";
import { generateOrderReference, normalizeOrderReference } from "../../shared/order-reference";

test("an order reference is twelve characters without look-alikes, and never the same twice in 10,000 draws", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const reference = generateOrderReference();
    expect(reference).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    seen.add(reference);
  }
  expect(seen.size).toBe(10_000);
});

test("a reference typed in lower case, with spaces or without dashes is read as the same reference; anything else is not one", () => {
  expect(normalizeOrderReference(" k7qm 2xhd-9cvt ")).toBe("K7QM-2XHD-9CVT");
  expect(normalizeOrderReference("K7QM2XHD9CVT")).toBe("K7QM-2XHD-9CVT");
  expect(normalizeOrderReference("12")).toBeNull();
  expect(normalizeOrderReference("K7QM-2XHD-9CVO")).toBeNull();
});

test("orders made before references existed each get their own when the database is upgraded", () => {
  const dir = mkdtempSync(join(tmpdir(), "order-reference-"));
  try {
    const db = new Database(join(dir, "site.db"));
    const upgrade = MIGRATIONS.findIndex((m) => m.tag.endsWith("_order_reference"));
    const run = (sql: string) => {
      for (const statement of sql.split("--> statement-breakpoint")) db.run(statement);
    };
    for (const migration of MIGRATIONS.slice(0, upgrade)) run(migration.sql);
    const insert = db.prepare(
      "INSERT INTO orders (provider, checkout_id, status, amount, currency, locale, created_at, updated_at) VALUES ('test', ?, 'paid', 2999, 'EUR', 'fr', 0, 0)",
    );
    for (let i = 0; i < 200; i++) insert.run(`cs_old_${i}`);
    const migration = MIGRATIONS[upgrade];
    if (migration === undefined) throw new Error("no order reference migration");
    run(migration.sql);
    const references = db
      .query<{ reference: string }, []>("SELECT reference FROM orders")
      .all()
      .map((r) => r.reference);
    expect(new Set(references).size).toBe(200);
    for (const reference of references) expect(normalizeOrderReference(reference)).toBe(reference);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
