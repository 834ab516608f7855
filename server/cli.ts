import { existsSync } from "node:fs";
import * as v from "valibot";
import { eq } from "drizzle-orm";
import { openDb, type Db } from "../db/client";
import { orders } from "../db/schema";
import { deliverySettings, queueAccessMailAgain } from "./checkout/delivery";
import { applyOrderEvent } from "./checkout/fulfilment";
import { testPaymentIdOf } from "./checkout/test-provider";
import type { Config } from "./config";
import { exportCsv, isExportName } from "./export-csv";
import { findLicenses, resetActivations, setLicenseEnabled } from "./licenses/service";
import { listOutbox, retryMail } from "./mail/outbox";
import { describeErasure, eraseByEmail } from "./privacy/erase";
import { normalizeLicenseKey } from "../shared/license-key";

export const USAGE = `Usage:
  site                        start the web server (configuration from the environment, see README)
  site leads export           print the e-mail leads as CSV
  site leads erase EMAIL      erase a person's data on request: their demo request and its e-mails, the chat
                              conversations that mention the address, their access-resend requests (orders are kept)
  site orders export          print the orders as CSV
  site chats export           print the support-chat transcripts as CSV
  site licenses export        print the licence keys as CSV (status, order, buyer, activations)
  site licenses show KEY|EMAIL   a licence (by key, any case, with or without dashes, or by buyer's e-mail) and its devices
  site licenses disable KEY   block a key (the app's checks answer "disabled"); enable KEY unblocks it
  site licenses reset KEY     free every device of a key (a buyer who replaced their devices)
  site mail list              the e-mail queue, newest first: status, kind, recipient, attempts, last error
  site mail retry ID          send a failed message again (the running server picks it up within seconds)
  site orders resend ID       queue the access e-mail of a paid order again (same licence key)
  site orders refund ID       refund an order paid with the built-in test checkout: licence disabled, notices sent
                              (Stripe orders are refunded in Stripe's dashboard; its webhook does the rest)`;

/** Runs an owner subcommand against the data folder; resolves with the process exit code. */
export function runCommand(argv: string[], config: Config, out: (line: string) => void, err: (line: string) => void): number {
  const [command, action, arg] = argv;
  const known =
    (isExportName(command) && action === "export") ||
    (command === "leads" && action === "erase") ||
    (command === "licenses" && (action === "show" || action === "disable" || action === "enable" || action === "reset")) || (command === "mail" && (action === "list" || action === "retry")) || (command === "orders" && (action === "resend" || action === "refund"));
  if (!known) {
    err(`Unknown command: ${argv.join(" ")}\n\n${USAGE}`);
    return 2;
  }
  // Run from the wrong folder, a command must not quietly create an empty database and print nothing.
  if (!existsSync(config.dbPath)) {
    err(`No database at ${config.dbPath}: run this where the site runs, or set DATA_DIR to the folder that holds site.db.`);
    return 1;
  }
  const db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  try {
    if (isExportName(command) && action === "export") {
      exportCsv(db, command, (chunk) => out(chunk));
      return 0;
    }
    if (command === "mail" && action === "list") return listMail(db, out);
    if (command === "leads") return erase(db, arg, out, err);
    if (command === "licenses") return licenseCommand(db, config, action ?? "", arg, out, err);
    const id = arg !== undefined && /^\d{1,12}$/.test(arg) ? Number(arg) : null;
    if (id === null) {
      err(`${command} ${action} needs a number: site ${command} ${action} ID`);
      return 2;
    }
    if (command === "mail") return retry(db, id, out, err);
    if (action === "resend") return resend(db, config, id, out, err);
    return refund(db, config, id, out, err);
  } finally {
    db.$client.close();
  }
}

function licenseCommand(db: Db, config: Config, action: string, arg: string | undefined, out: (line: string) => void, err: (line: string) => void): number {
  if (arg === undefined || arg.trim() === "") {
    err(`licenses ${action} needs a ${action === "show" ? "key or e-mail address" : "key"}`);
    return 2;
  }
  const key = normalizeLicenseKey(arg);
  if (action === "show") {
    const found = findLicenses(db, arg, key);
    if (found.length === 0) {
      err(`No licence for ${arg}.`);
      return 1;
    }
    for (const l of found) {
      const state = l.status === "disabled" ? `disabled (${l.disabledReason ?? "owner"})` : "active";
      out(`${l.key}\t${state}\torder ${l.orderId} (${l.orderStatus})\t${l.email ?? ""}\t${l.activations.length}/${config.licenseActivationLimit} devices\n`);
      for (const a of l.activations) out(`  ${a.instanceId}\t${a.instanceName}\tsince ${a.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC\n`);
    }
    return 0;
  }
  if (key === null) {
    err(`${arg} is not a licence key (25 letters and digits).`);
    return 2;
  }
  if (action === "reset") {
    const freed = resetActivations(db, key, new Date());
    if (freed === null) {
      err(`No licence for ${key}.`);
      return 1;
    }
    out(`${key}: ${freed} device(s) freed.\n`);
    return 0;
  }
  const changed = setLicenseEnabled(db, key, action === "enable", new Date());
  if (changed === "unknown") {
    err(`No licence for ${key}.`);
    return 1;
  }
  if (changed === "refunded") {
    err(`${key} belongs to a refunded order: it stays disabled.`);
    return 1;
  }
  out(`${key} ${action === "enable" ? "enabled" : "disabled"}.\n`);
  return 0;
}

const EraseEmail = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email());

function erase(db: Db, arg: string | undefined, out: (line: string) => void, err: (line: string) => void): number {
  const email = v.safeParse(EraseEmail, arg ?? "");
  if (!email.success) {
    err(`leads erase needs an e-mail address: site leads erase someone@example.com`);
    return 2;
  }
  out(describeErasure(email.output, eraseByEmail(db, email.output)));
  return 0;
}

function listMail(db: Db, out: (line: string) => void): number {
  const rows = listOutbox(db, 200);
  const when = (d: Date | null) => (d === null ? "" : d.toISOString().slice(0, 19).replace("T", " "));
  out("id\tstatus\tkind\tto\tattempts\tcreated\tsent_or_next_try\tlast_error\n");
  for (const r of rows) {
    const next = r.status === "sent" ? when(r.sentAt) : r.status === "pending" ? when(r.nextAttemptAt) : "";
    out(`${r.id}\t${r.status}\t${r.kind}\t${r.recipient}\t${r.attempts}\t${when(r.createdAt)}\t${next}\t${(r.lastError ?? "").replace(/\s+/g, " ")}\n`);
  }
  return 0;
}

function retry(db: Db, id: number, out: (line: string) => void, err: (line: string) => void): number {
  if (!retryMail(db, id, new Date())) {
    err(`No message ${id} waiting or failed in the queue (a sent message is not sent twice; use 'orders resend' for a new copy).`);
    return 1;
  }
  out(`Message ${id} queued again.\n`);
  return 0;
}

function resend(db: Db, config: Config, id: number, out: (line: string) => void, err: (line: string) => void): number {
  const result = db.transaction((tx) => queueAccessMailAgain(tx, id, deliverySettings(config), new Date()), { behavior: "immediate" });
  if (result === "not-paid") {
    err(`Order ${id} is not a paid order.`);
    return 1;
  }
  if (result === "no-email") {
    err(`Order ${id} has no e-mail address.`);
    return 1;
  }
  out(`Access e-mail of order ${id} queued.\n`);
  return 0;
}

function refund(db: Db, config: Config, id: number, out: (line: string) => void, err: (line: string) => void): number {
  const order = db.select().from(orders).where(eq(orders.id, id)).get();
  if (order === undefined || order.status !== "paid") {
    err(`Order ${id} is not a paid order.`);
    return 1;
  }
  if (order.provider !== "test") {
    err(`Order ${id} was paid with Stripe: refund it in Stripe's dashboard; the webhook then disables the licence and sends the notices.`);
    return 1;
  }
  const paymentIntentId = order.paymentIntentId ?? testPaymentIdOf(order.checkoutId);
  if (order.paymentIntentId === null) db.update(orders).set({ paymentIntentId }).where(eq(orders.id, id)).run();
  // The same path as Stripe's charge.refunded, with one event id per order: running it twice is a no-op.
  applyOrderEvent(db, { eventId: `evt_refund_${paymentIntentId}`, provider: "test", type: "charge.refunded", paymentIntentId, fullyRefunded: true }, new Date(), deliverySettings(config));
  out(`Order ${id} refunded: licence disabled, refund notice queued.\n`);
  return 0;
}
