import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db/client";
import { orders } from "../../db/schema";
import { deliverPaidOrder, deliverySettings } from "../../server/shop/checkout/delivery";
import { startServer } from "../e2e/harness";
import { testConfig } from "../support/config";
import { endServer } from "../support/end-server";
import { useSmtp } from "../support/smtp";
import { until } from "./until";

// A stop with a backlog of e-mails: the server stops taking messages at once, lets the ones on
// their way finish, and exits; the next start sends the rest, each once.

const smtp = useSmtp();
// Each access e-mail is rendered with its invoice (CPU): enough of them to outlast the stop
// timeout at the provider's pace below, no more.
const BACKLOG = 24;
let dataDir = "";
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** A data folder with `n` paid orders whose access e-mails are queued, as after a busy day with the mail server away. */
function seedBacklog(dir: string, n: number) {
  const config = testConfig({ PUBLIC_BASE_URL: "https://shop.example" }, dir);
  const db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  const now = new Date();
  db.transaction(
    (tx) => {
      for (let i = 0; i < n; i++) {
        const [order] = tx
          .insert(orders)
          .values({
            provider: "test",
            checkoutId: `cs_backlog_${i}`,
            status: "paid",
            amount: 2999,
            currency: "EUR",
            locale: "fr",
            customerEmail: `buyer${i}@example.com`,
            firstName: "Camille",
            city: "Lyon",
            createdAt: now,
            updatedAt: now,
            paidAt: now,
          })
          .returning({ id: orders.id })
          .all();
        deliverPaidOrder(tx, order!.id, deliverySettings(config), now);
      }
    },
    { behavior: "immediate" },
  );
  db.$client.close();
}

const statusCounts = (dir: string) => {
  const db = new Database(join(dir, "site.db"), { readonly: true });
  try {
    const rows = db.query<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM mail_outbox GROUP BY status").all();
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  } finally {
    db.close();
  }
};

test(`SIGTERM with ${BACKLOG} e-mails queued: the server exits within 10 s without working through them, and the next start sends each once`, async () => {
  dataDir = mkdtempSync(join(tmpdir(), "site-mail-stop-"));
  seedBacklog(dataDir, BACKLOG);
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "Shop <shop@example.com>", WORKERS: "1" };
  // A provider taking 2.5 s per message: working through the backlog would take the sender 15 s,
  // past the 10 s below (it sends 4 at a time), but each message on its way finishes within the
  // stop's grace (5 s, STOP_GRACE_MS).
  smtp.replyDelayMs = 2500;
  const first = await startServer({ dataDir, env });
  await until("the backlog is being sent", () => smtp.received.length >= 4, 40_000);

  first.process.kill("SIGTERM");
  // The service manager's stop timeout (systemd's TimeoutStopSec, 10 s here): past it the server
  // would be killed in the middle of sending. This bounds a behaviour, not a speed.
  const exited = await Promise.race([first.process.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
  if (!exited) first.process.kill("SIGKILL");
  await first.process.exited;
  expect(exited).toBe(true);
  expect(first.output.some((l) => l.includes("shutting down"))).toBe(true);
  const afterStop = statusCounts(dataDir);
  // It stopped taking the backlog, and what it had taken was finished and recorded: nothing in doubt.
  expect(afterStop.sent ?? 0).toBeLessThan(BACKLOG);
  expect(afterStop.sending ?? 0).toBe(0);
  expect((afterStop.sent ?? 0) + (afterStop.pending ?? 0)).toBe(BACKLOG);

  smtp.replyDelayMs = 0;
  const second = await startServer({ dataDir, env });
  try {
    await until("the whole backlog is sent", () => statusCounts(dataDir).sent === BACKLOG, 60_000);
  } finally {
    await endServer(second);
  }
  const copies = new Map<string, number>();
  for (const m of smtp.received) for (const to of m.to) copies.set(to, (copies.get(to) ?? 0) + 1);
  expect(copies.size).toBe(BACKLOG);
  expect([...copies.entries()].filter(([, n]) => n !== 1)).toEqual([]);
}, 120_000);
