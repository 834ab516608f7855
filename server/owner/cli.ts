import { existsSync, writeFileSync } from "node:fs";
import { normalizeOrderReference } from "../../shared/order-reference";
import { createPaperwork } from "../shop/paperwork/documents";
import * as v from "valibot";
import { openDb, type Db } from "../../db/client";
import { createWriter, isBusyError, type Write } from "../../db/writer";
import { deliverySettings, queueAccessMailAgain } from "../shop/checkout/delivery";
import { createCheckout } from "../shop/checkout/providers";
import { refundOrder, type RefundResult } from "../shop/checkout/refund";
import { activityDetail, recordActivity, writeLogged } from "./console/activity";
import type { Config } from "../platform/config";
import { counted } from "./counted";
import { exportCsv, isExportName, testSalesLeftOut } from "./export-csv";
import { createInvite, inviteUrl } from "./console/invites";
import { findLicenses, resetActivations, setLicenseEnabled } from "../shop/licenses/service";
import { openLicenseKeys } from "../shop/licenses/tokens";
import { listOutbox, retryMail } from "../shop/mail/outbox";
import { describeErasure, eraseByEmail } from "../shop/privacy/erase";
import { placesCommand } from "./places-command";
import { digestCommand } from "./digest-command";
import { normalizeLicenseKey } from "../../shared/license-key";
import { licenses, orders } from "../../db/schema";
import { eq } from "drizzle-orm";
import { readReplicationStatus, readStatusFile } from "../platform/backup/status";
import { restoreCommand } from "./restore";
import { backupPromote } from "./backup-promote";
import { isRestoredCopyReason, readRestoredMark, restoredCopyReason } from "../platform/backup/identity";
import { reconcileOrders, stripePaymentHistory } from "../shop/checkout/reconcile";
import type { StripeConnection } from "../shop/checkout/stripe-provider";
import { ProviderError } from "../shop/checkout/provider";
import { maskText } from "../platform/log-mask";

export const USAGE = `Usage:
  site                        start the web server (configuration from the environment, see README)
  site leads export           print the e-mail leads as CSV
  site leads erase EMAIL      erase a person's data on request: their demo request and its e-mails (their .eml files
                              too), the chat conversations that mention the address, their access-resend requests
                              (orders are kept)
  site orders export          print the orders as CSV
  site chats export           print the support-chat transcripts as CSV
  site licenses export        print the licence keys as CSV (status, order, buyer, activations)
  site vat export             print the VAT return's figures as CSV: invoices minus credit notes per quarter, country
                              and rate (test-checkout sales left out)
  site licenses show KEY|EMAIL   a licence (by key, any case, with or without dashes, or by buyer's e-mail) and its devices
  site licenses disable KEY   block a key (the app's checks answer "disabled"); enable KEY unblocks it
  site licenses reset KEY     free every device of a key (a buyer who replaced their devices)
  site licenses rotate-key    a new key signs licence tokens from now on; the old one still verifies until its tokens expire
  site mail list              the e-mail queue, newest first: status, kind, recipient, attempts, last error
  site mail retry ID          send a failed message again (the running server picks it up within seconds)
  site orders resend REF      queue the access e-mail of a paid order again (same licence key); REF is the order's
                              reference (K7QM-2XHD-9CVT) or its number
  site owner invite           print a one-time link (valid 15 minutes) that registers a passkey for the owner's console
  site orders invoice REF PATH  the invoice PDF of an order (by its reference) written to PATH, or - for standard output
  site orders refund REF      refund a paid order in full (Stripe's Refund API for a Stripe order, the site's own for
                              a test-checkout order): licence disabled, buyer's and owner's notices sent
  site places pending         the cities of the last 30 days' orders that the purchase notice leaves out (not a known place)
  site places approve NAME    show this place name in the purchase notice (revoke NAME withdraws it)
  site orders reconcile --since DATE   apply the paid, refunded and expired Stripe checkouts since DATE that the
                              database does not have (after a restore): missing orders get their licence and e-mail
  site restore [--to-time T] [--force]   bring DATA_DIR back from BACKUP_URL (refuses to replace a database without --force)
  site backup status          whether backups are on, where to, and when the last replication happened
  site backup promote         make this database the one that replicates to BACKUP_URL (a restored copy does not
                              replicate until promoted; a server on another database stops writing there)
  site digest preview [--date YYYY-MM-DD] [--daily|--weekly]   the owner's digest e-mail of a day (or of the ISO week
                              holding the date) that ended, printed as text; by default the last period DIGEST reports on
  site digest send [--date YYYY-MM-DD] [--daily|--weekly]      queue that digest to OWNER_EMAIL now (once per period:
                              not if the server or an earlier send queued it)`;

/**
 * How long a command waits for a write lock held by another program (an open sqlite3 session, the
 * server in the middle of a write) before it gives up, changing nothing. Longer than the server's
 * requests wait: the owner is there to read the message.
 */
export const CLI_BUSY_WAIT_MS = 30_000;

/** Runs an owner subcommand against the data folder; resolves with the process exit code. */
export async function runCommand(
  argv: string[],
  config: Config,
  out: (line: string) => void,
  err: (line: string) => void,
  options: {
    busyWaitMs?: number;
    /** Where the Stripe SDK connects: Stripe itself unless given (tests give a fake Stripe on loopback). */
    stripeConnection?: StripeConnection;
    /** The clock of the commands that read it (the digest's periods): the machine's unless given. */
    now?: () => Date;
  } = {},
): Promise<number> {
  const [command, action, arg] = argv;
  if (command === "restore") return restoreCommand(argv.slice(1), config, out, err);
  if (command === "backup" && action === "status") return backupStatus(config, out);
  if (command === "backup" && action === "promote")
    return backupPromote(config, out, err, { busyWaitMs: options.busyWaitMs ?? CLI_BUSY_WAIT_MS, now: options.now ?? (() => new Date()) });
  const known =
    (isExportName(command) && action === "export") ||
    (command === "leads" && action === "erase") ||
    (command === "licenses" &&
      (action === "show" || action === "disable" || action === "enable" || action === "reset" || action === "rotate-key")) ||
    (command === "mail" && (action === "list" || action === "retry")) ||
    (command === "orders" && (action === "resend" || action === "refund" || action === "reconcile" || action === "invoice")) ||
    (command === "places" && (action === "pending" || action === "approve" || action === "revoke")) ||
    (command === "owner" && action === "invite") ||
    (command === "digest" && (action === "preview" || action === "send"));
  if (!known) {
    err(`Unknown command: ${argv.join(" ")}\n\n${USAGE}`);
    return 2;
  }
  // Run from the wrong folder, a command must not quietly create an empty database and print nothing.
  if (!existsSync(config.dbPath)) {
    err(`No database at ${config.dbPath}: run this where the site runs, or set DATA_DIR to the folder that holds site.db.`);
    return 1;
  }
  const busyWaitMs = options.busyWaitMs ?? CLI_BUSY_WAIT_MS;
  const busyMessage = `The database ${config.dbPath} is locked by another program (an open sqlite3 session in a transaction?)`;
  let db: Db;
  try {
    db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  } catch (error) {
    if (!isBusyError(error)) throw error;
    err(`${busyMessage}: could not open it. Nothing was changed; try again once it is finished.`);
    return 1;
  }
  const write = createWriter(db, {
    waitMs: busyWaitMs,
    onWait: () => err(`${busyMessage}: waiting up to ${Math.round(busyWaitMs / 1000)} s for it…`),
  });
  try {
    if (isExportName(command) && action === "export") {
      exportCsv(db, command, (chunk) => out(chunk));
      if (command === "vat") {
        // On stderr, so the CSV on stdout stays the VAT return's figures alone.
        const left = testSalesLeftOut(db);
        if (left.invoices + left.creditNotes > 0)
          err(
            `Left out: ${counted(left.invoices, "test-checkout sale", "test-checkout sales")}${left.creditNotes > 0 ? ` and ${counted(left.creditNotes, "credit note", "credit notes")}` : ""} (the test checkout takes no money, so they are not in the VAT return).`,
          );
      }
      return 0;
    }
    if (command === "mail" && action === "list") return listMail(db, out);
    if (command === "owner") return await invite(write, config, out);
    if (command === "leads") return await erase(write, config, arg, out, err);
    if (command === "licenses" && action === "rotate-key") {
      const rotated = await openLicenseKeys(config, () => new Date()).rotate();
      out(`New signing key ${rotated.kid}: it signs from now on (running servers see it at once).\n`);
      if (rotated.removed.length > 0) out(`Removed, their tokens all expired: ${rotated.removed.join(", ")}\n`);
      return 0;
    }
    if (command === "licenses") return await licenseCommand(db, write, config, action ?? "", arg, out, err);
    if (command === "places") return await placesCommand(db, write, config, action ?? "", arg, out, err);
    if (command === "digest" && (action === "preview" || action === "send"))
      return await digestCommand(db, write, config, action, argv.slice(2), options.now ?? (() => new Date()), out, err);
    if (command === "orders" && action === "invoice") return await invoiceCommand(db, config, arg, argv[3], out, err);
    if (command === "orders" && action === "reconcile")
      return await reconcile(write, config, argv.slice(2), out, err, options.stripeConnection ?? {});
    if (command === "orders") {
      const orderId = arg === undefined ? null : orderIdOf(db, arg);
      if (orderId === null) {
        err(`${command} ${action} needs an order: site ${command} ${action} REFERENCE (or its number)`);
        return 2;
      }
      if (orderId === "unknown") {
        err(`No order has the reference ${arg} (site orders export lists the orders).`);
        return 1;
      }
      if (action === "resend") return await resend(write, config, orderId, out, err);
      return await refund(db, write, config, orderId, out, err, options.stripeConnection);
    }
    const id = arg !== undefined && /^\d{1,12}$/.test(arg) ? Number(arg) : null;
    if (id === null) {
      err(`${command} ${action} needs a number: site ${command} ${action} ID`);
      return 2;
    }
    if (command === "mail") return await retry(write, id, out, err);
    return 2;
  } catch (error) {
    if (!isBusyError(error)) throw error;
    err(`${busyMessage}, still after ${Math.round(busyWaitMs / 1000)} s. Nothing was changed; try again once it is finished.`);
    return 1;
  } finally {
    db.$client.close();
  }
}

/** The order an argument names: its reference (K7QM-2XHD-9CVT, any case, dashes or not) or its number. */
function orderIdOf(db: Db, arg: string): number | "unknown" | null {
  const reference = normalizeOrderReference(arg);
  if (reference !== null) return db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference)).get()?.id ?? "unknown";
  return /^\d{1,12}$/.test(arg) ? Number(arg) : null;
}

async function licenseCommand(
  db: Db,
  write: Write,
  config: Config,
  action: string,
  arg: string | undefined,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
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
      out(
        `${l.key}\t${state}\torder ${l.orderReference} (${l.orderStatus})\t${l.email ?? ""}\t${l.activations.length}/${config.licenseActivationLimit} devices\n`,
      );
      for (const a of l.activations)
        out(`  ${a.instanceId}\t${a.instanceName}\tsince ${a.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC\n`);
    }
    return 0;
  }
  if (key === null) {
    err(`${arg} is not a licence key (25 letters and digits).`);
    return 2;
  }
  // Logged under the licence's order, as the console logs it, so the order's page lists it too.
  const orderId = db.select({ orderId: licenses.orderId }).from(licenses).where(eq(licenses.key, key)).get()?.orderId;
  if (orderId === undefined) {
    err(`No licence for ${key}.`);
    return 1;
  }
  if (action === "reset") {
    const freed = await resetActivations(
      writeLogged(write, null, new Date(), (n) =>
        typeof n === "number" && n > 0 ? { action: "devices-reset", detail: activityDetail.order(orderId) } : null,
      ),
      key,
      new Date(),
    );
    if (freed === null) {
      err(`No licence for ${key}.`);
      return 1;
    }
    out(`${key}: ${freed} device(s) freed.\n`);
    return 0;
  }
  const logged = writeLogged(write, null, new Date(), (o) =>
    o === "done" ? { action: action === "enable" ? "license-enabled" : "license-disabled", detail: activityDetail.order(orderId) } : null,
  );
  const changed = await setLicenseEnabled(logged, key, action === "enable", new Date());
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

async function erase(
  write: Write,
  config: Config,
  arg: string | undefined,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const email = v.safeParse(EraseEmail, arg ?? "");
  if (!email.success) {
    err(`leads erase needs an e-mail address: site leads erase someone@example.com`);
    return 2;
  }
  const result = await eraseByEmail(write, email.output, config.mail.dir);
  await write((tx) => recordActivity(tx, { action: "erasure", detail: maskText(email.output), sessionId: null }, new Date()));
  out(describeErasure(email.output, result));
  // The rows are gone either way; a file the command could not delete is the owner's to delete.
  for (const f of result.mailFiles.failed) err(`Could not delete ${f.path} (${f.reason}): delete it yourself, it holds the address.`);
  return result.mailFiles.failed.length > 0 ? 1 : 0;
}

function listMail(db: Db, out: (line: string) => void): number {
  const rows = listOutbox(db, 200);
  const when = (d: Date | null) => (d === null ? "" : d.toISOString().slice(0, 19).replace("T", " "));
  out("id\tstatus\tkind\tto\tattempts\tcreated\tsent_or_next_try\tlast_error\n");
  for (const r of rows) {
    const next = r.status === "sent" ? when(r.sentAt) : r.status === "pending" ? when(r.nextAttemptAt) : "";
    out(
      `${r.id}\t${r.status}\t${r.kind}\t${r.recipient}\t${r.attempts}\t${when(r.createdAt)}\t${next}\t${(r.lastError ?? "").replace(/\s+/g, " ")}\n`,
    );
  }
  return 0;
}

async function retry(write: Write, id: number, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  if (!(await retryMail(write, id, new Date()))) {
    err(`No message ${id} waiting or failed in the queue (a sent message is not sent twice; use 'orders resend' for a new copy).`);
    return 1;
  }
  await write((tx) => recordActivity(tx, { action: "mail-retry", detail: activityDetail.message(id), sessionId: null }, new Date()));
  out(`Message ${id} queued again.\n`);
  return 0;
}

/** `orders invoice REF PATH`: the order's invoice PDF written to PATH (`-`: standard output). */
async function invoiceCommand(
  db: Db,
  config: Config,
  reference: string | undefined,
  path: string | undefined,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const normalized = reference === undefined ? null : normalizeOrderReference(reference);
  if (normalized === null || path === undefined) {
    err(
      "orders invoice needs an order reference and where to write the PDF: site orders invoice K7QM-2XHD-9CVT invoice.pdf (or - for standard output)",
    );
    return 2;
  }
  const file = await createPaperwork({ db, config }).invoiceByReference(normalized, "invoice");
  if (file === null) {
    err(`No invoice for order ${normalized} (no such order, or it was never paid).`);
    return 1;
  }
  if (path === "-") process.stdout.write(file.content);
  else {
    writeFileSync(path, file.content);
    out(`${file.filename} written to ${path} (${file.content.length} bytes).\n`);
  }
  return 0;
}

async function resend(write: Write, config: Config, id: number, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const result = await write((tx) => {
    const outcome = queueAccessMailAgain(tx, id, deliverySettings(config), new Date());
    if (outcome === "queued") recordActivity(tx, { action: "resend", detail: activityDetail.order(id), sessionId: null }, new Date());
    return outcome;
  });
  if (result === "not-found") return noSuchOrder(id, err);
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

async function refund(
  db: Db,
  write: Write,
  config: Config,
  id: number,
  out: (line: string) => void,
  err: (line: string) => void,
  stripeConnection: StripeConnection | undefined,
): Promise<number> {
  const now = () => new Date();
  let result: RefundResult;
  try {
    result = await refundOrder(
      {
        db,
        write,
        now,
        delivery: deliverySettings(config),
        provider: () => createCheckout({ config, db, write, now }, stripeConnection).provider,
      },
      id,
      (tx) => recordActivity(tx, { action: "refund", detail: activityDetail.order(id), sessionId: null }, now()),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    err(`Stripe did not refund order ${id} (${error.detail ?? error.message}). Nothing was changed; try again.`);
    return 1;
  }
  if (result === "not-found") return noSuchOrder(id, err);
  if (result === "not-paid") {
    err(`Order ${id} is not a paid order.`);
    return 1;
  }
  if (result === "already-refunded") {
    err(`Order ${id} is already refunded.`);
    return 1;
  }
  if (result === "in-progress") {
    err(`Order ${id} is being refunded right now (the console or the buyer's refund page): look again in a moment.`);
    return 1;
  }
  if (result === "no-stripe") {
    err(`Order ${id} was paid with Stripe, and Stripe is not configured here (STRIPE_SECRET_KEY): refund it in Stripe's dashboard.`);
    return 1;
  }
  out(`Order ${id} refunded: licence disabled, refund notice queued.\n`);
  return 0;
}

async function invite(write: Write, config: Config, out: (line: string) => void): Promise<number> {
  const { token, expiresAt } = await createInvite(write, new Date());
  out(
    `Open this link within 15 minutes (until ${expiresAt.toISOString().slice(11, 16)} UTC) to register a passkey for the console; it works once:\n`,
  );
  out(`${inviteUrl(config.publicBaseUrl, token)}\n`);
  return 0;
}

function noSuchOrder(id: number, err: (line: string) => void): number {
  err(`Order ${id} does not exist (site orders export lists the orders).`);
  return 1;
}

function backupStatus(config: Config, out: (line: string) => void): number {
  const recorded = readReplicationStatus(config);
  // The database's own mark is the truth about a restored copy, whether or not a server has run on
  // it yet; once promoted, the held server's word about it is out of date.
  const restored = recorded.enabled ? readRestoredMark(config.dbPath) : null;
  const held =
    restored !== null ? restoredCopyReason(restored) : recorded.held !== null && isRestoredCopyReason(recorded.held) ? null : recorded.held;
  const status = { ...recorded, held };
  if (!status.enabled) {
    out("Backups: off in this environment (BACKUP_URL is not set).\n");
    // A server started with other settings (its own BACKUP_URL) on the same DATA_DIR may be
    // replicating all the same: what it last wrote is said too, so neither account hides the other.
    const file = readStatusFile(config.dataDir);
    if (file !== null && file.target !== null) {
      const last = file.lastReplicatedAt ?? "never";
      const doing = file.held !== null ? "does not replicate" : file.running ? "replicates" : "replicated (stopped since)";
      out(
        `But ${file.path} says a server ${doing} to ${file.target}, last replication: ${last}${file.held === null ? "" : `; why: ${file.held}`}${file.lastError === null ? "" : `; last problem: ${file.lastError}`}.\n` +
          "Run this command with that server's settings (its BACKUP_URL) to see its backups as it does.\n",
      );
    }
    return 0;
  }
  // A problem the server recorded explains a "never" better than a guess that it is not running.
  const never = status.lastError === null && status.held === null ? "never (is the server running?)" : "never";
  const last = status.lastReplicatedAt === null ? never : status.lastReplicatedAt.toISOString();
  out(`Backups: on, to ${status.target}\n`);
  // Said first: the reason nothing new reaches the replica, and the command that changes it.
  if (status.held !== null) out(`Not replicating: ${status.held}\n`);
  out(`Last replication: ${last}\n`);
  if (status.lastError !== null) out(`Last problem: ${status.lastError}\n`);
  return 0;
}

async function reconcile(
  write: Write,
  config: Config,
  args: string[],
  out: (line: string) => void,
  err: (line: string) => void,
  connection: StripeConnection,
): Promise<number> {
  const since = args[0] === "--since" && args[1] !== undefined ? new Date(args[1]) : null;
  if (since === null || Number.isNaN(since.getTime())) {
    err("orders reconcile needs a start date: site orders reconcile --since 2026-05-01");
    return 2;
  }
  if (config.stripe === undefined) {
    err("Stripe is not configured (STRIPE_SECRET_KEY): there is no payment provider to reconcile with.");
    return 2;
  }
  try {
    const history = stripePaymentHistory(config.stripe, connection);
    const report = await reconcileOrders({ write, now: () => new Date(), delivery: deliverySettings(config) }, history, since);
    out(
      `Checked ${report.checked} Stripe checkouts and refunds since ${since.toISOString()}: ${report.applied} applied, ${report.alreadyKnown} already recorded, ${report.ignored} not this site's.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Error && error.name.startsWith("Stripe")) {
      err(`Stripe could not be read: ${error.message}. Nothing more was changed; run the command again.`);
      return 1;
    }
    if (error instanceof ProviderError) {
      err(`${error.message}: ${error.detail}`);
      return 1;
    }
    throw error;
  }
}
