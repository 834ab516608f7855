import { existsSync, writeFileSync } from "node:fs";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { type Db, openDb } from "../../db/client";
import { licenses, orders } from "../../db/schema";
import { NewerSchemaError } from "../../db/versions";
import { createWriter, isBusyError, type Write } from "../../db/writer";
import { errorText } from "../../shared/error-text";
import { normalizeLicenseKey } from "../../shared/license-key";
import { normalizeOrderReference } from "../../shared/order-reference";
import { isRestoredCopyReason, readRestoredMark, restoredCopyReason } from "../platform/backup/identity";
import { readReplicationStatus, readStatusFile } from "../platform/backup/status";
import type { Config } from "../platform/config";
import { maskText } from "../platform/log-mask";
import { type BuildInfo, currentBuild, describeBuild } from "../platform/version";
import { deliverySettings, queueAccessMailAgain } from "../shop/checkout/delivery";
import { ProviderError } from "../shop/checkout/provider";
import { createCheckout } from "../shop/checkout/providers";
import { reconcileOrders, stripePaymentHistory } from "../shop/checkout/reconcile";
import { type RefundResult, refundOrder } from "../shop/checkout/refund";
import type { StripeConnection } from "../shop/checkout/stripe-provider";
import { findLicenses, resetActivations, setLicenseEnabled } from "../shop/licenses/service";
import { openLicenseKeys } from "../shop/licenses/tokens";
import { listOutbox, retryMail } from "../shop/mail/outbox";
import { createPaperwork } from "../shop/paperwork/documents";
import { describeErasure, eraseByEmail } from "../shop/privacy/erase";
import { contentNow } from "../site/content/live";
import { exportContent, importCommand } from "../site/content/transfer";
import { backupPromote } from "./backup-promote";
import { catalogueExportCommand, catalogueImportCommand } from "./catalogue-command";
import { codesCreate, codesCreateOptions, codesDisable, codesList } from "./codes-command";
import { activityDetail, recordActivity, versionEntry, writeLogged } from "./console/activity";
import { createInvite, inviteUrl } from "./console/invites";
import { countsTestOrders } from "./console/overview";
import { counted } from "./counted";
import { digestCommand } from "./digest-command";
import { ereportingCsv } from "./ereporting";
import { CSV_BOM, type ExportName, exportCsv, testSalesLeftOut } from "./export-csv";
import { partnersCreate, partnersCreateOptions, partnersList, partnersListOptions } from "./partners-command";
import { placesCommand } from "./places-command";
import { restoreCommand } from "./restore";
import { type Confirm, rollbackCommand } from "./rollback";
import { serviceCommand } from "./service";

type Print = (line: string) => void;

/** What the caller of `runCommand` may set beside the configuration. */
export type RunOptions = {
  busyWaitMs?: number;
  /** Where the Stripe SDK connects: Stripe itself unless given (tests give a fake Stripe on loopback). */
  stripeConnection?: StripeConnection;
  /** The clock of the commands that read it (the digest's periods): the machine's unless given. */
  now?: () => Date;
  /** Asks the owner before a command replaces data (rollback); without it, only --yes goes on. */
  confirm?: Confirm;
  /** How this program is started (`site service` names it in the unit): this executable, or Bun and main.ts. */
  self?: string[];
  /** The executable's build (`site version`); run from source, read from git. */
  build?: BuildInfo;
};

/** The options a command declares, as node:util's `parseArgs` reads them (`--since 2026-05-01` gives `{ since: "2026-05-01" }`). */
type Values<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>
>["values"];

/** What a command runs with. */
type Invocation<O extends ParseArgsOptionsConfig> = {
  config: Config;
  /** The words after the command's name that are not options: `orders refund K7QM-2XHD-9CVT` gives ["K7QM-2XHD-9CVT"]. */
  args: string[];
  values: Values<O>;
  /** How it is called, as the usage shows it: "site orders reconcile --since DATE". */
  usage: string;
  options: RunOptions;
  out: Print;
  err: Print;
};

/** A command that works on the site's database gets it opened (and its writer), and closed after. */
type WithDatabase<O extends ParseArgsOptionsConfig> = Invocation<O> & { db: Db; write: Write };

type Outcome = Promise<number> | number;

type Spec<O extends ParseArgsOptionsConfig> = {
  /** The words that name it: "orders refund". */
  name: string;
  /** What follows the name in the usage: "REF", "[--to-time T] [--force]". */
  usage?: string;
  /** One sentence for the usage. */
  summary: string;
  options?: O;
};

type Ready<C> = { run: (context: C) => Outcome } | { error: string };
type Base = Omit<Invocation<ParseArgsOptionsConfig>, "args" | "values" | "usage">;

/** One entry of the table: its words, its line in the usage, and how its arguments are read and run. */
type Command = { name: string; usage: string; summary: string } & (
  | { database: true; prepare: (argv: string[]) => Ready<Base & { db: Db; write: Write }> }
  | { database: false; prepare: (argv: string[]) => Ready<Base> }
);

/**
 * A command's arguments read with its own options, ready to run; or what parseArgs refused (an
 * unknown option, an option without its value) and how the command is called.
 */
function prepare<O extends ParseArgsOptionsConfig, C>(
  spec: Spec<O>,
  argv: string[],
  run: (parsed: { args: string[]; values: Values<O>; usage: string }) => (context: C) => Outcome,
): Ready<C> {
  const usage = `site ${spec.name}${spec.usage === undefined ? "" : ` ${spec.usage}`}`;
  let parsed: { positionals: string[]; values: Values<O> };
  try {
    parsed = parseArgs({ args: argv, options: spec.options, allowPositionals: true, strict: true });
  } catch (error) {
    return { error: `${errorText(error)}\n\nUsage: ${usage}` };
  }
  return { run: run({ args: parsed.positionals, values: parsed.values, usage }) };
}

/** A command on the site's database (most of them): run only where the database exists. */
function command<const O extends ParseArgsOptionsConfig = Record<never, never>>(
  spec: Spec<O> & { run: (c: WithDatabase<O>) => Outcome },
): Command {
  return {
    name: spec.name,
    usage: spec.usage ?? "",
    summary: spec.summary,
    database: true,
    prepare: (argv) => prepare(spec, argv, (parsed) => (c: Base & { db: Db; write: Write }) => spec.run({ ...c, ...parsed })),
  };
}

/** A command that does not open the database (it restores it, or reads what is beside it). */
function standalone<const O extends ParseArgsOptionsConfig = Record<never, never>>(
  spec: Spec<O> & { run: (c: Invocation<O>) => Outcome },
): Command {
  return {
    name: spec.name,
    usage: spec.usage ?? "",
    summary: spec.summary,
    database: false,
    prepare: (argv) => prepare(spec, argv, (parsed) => (c: Base) => spec.run({ ...c, ...parsed })),
  };
}

/** Prints one export; the VAT export says on standard error what it left out. */
function printExport(db: Db, name: ExportName, out: (line: string) => void, err: (line: string) => void, bom: boolean): 0 {
  if (bom) out(CSV_BOM);
  exportCsv(db, name, (chunk) => out(chunk));
  if (name === "vat") {
    // On stderr, so the CSV on stdout stays the VAT return's figures alone.
    const left = testSalesLeftOut(db);
    if (left.invoices + left.creditNotes > 0)
      err(
        `Left out: ${counted(left.invoices, "test-checkout sale", "test-checkout sales")}${left.creditNotes > 0 ? ` and ${counted(left.creditNotes, "credit note", "credit notes")}` : ""} (the test checkout takes no money, so they are not in the VAT return).`,
      );
  }
  return 0;
}

/** Every CSV the CLI prints starts with a BOM for a spreadsheet; `--no-bom` leaves it out for a script. */
const csvOptions = { "no-bom": { type: "boolean" } } as const;

const exportCommand = (name: ExportName, summary: string) =>
  command({
    name: `${name} export`,
    usage: "[--no-bom]",
    summary,
    options: csvOptions,
    run: ({ db, values, out, err }) => printExport(db, name, out, err, values["no-bom"] !== true),
  });

const digestOptions = { date: { type: "string" }, daily: { type: "boolean" }, weekly: { type: "boolean" } } as const;

/**
 * The owner's commands, each once: its words, its line in the usage, its options and what it does.
 * A new command is one more entry here: `command` for one that works on the database (opened, locks
 * waited for, closed after), `standalone` for one that must not open it.
 */
const COMMANDS: readonly Command[] = [
  exportCommand("leads", "print the e-mail leads as CSV"),
  command({
    name: "leads erase",
    usage: "EMAIL",
    summary:
      "erase a person's data on request: their demo request and its e-mails (their .eml files too), the chat conversations that mention the address, their access-resend requests, the reviews of their orders (orders are kept)",
    run: ({ write, config, args, out, err }) => erase(write, config, args[0], out, err),
  }),
  exportCommand("orders", "print the orders as CSV (with invoice and credit-note numbers, country, VAT, discount code)"),
  command({
    name: "codes create",
    usage: "CODE --percent N | --amount A [--starts DATE] [--ends DATE] [--max N] [--note TEXT]",
    summary:
      "a discount code: a percentage or an amount off, valid from --starts through --ends (YYYY-MM-DD, whole days, Paris time), at most --max paid orders; 100 % gives free access",
    options: codesCreateOptions,
    run: ({ db, config, write, args, values, usage, out, err }) =>
      codesCreate(write, args[0], values, usage, contentNow(db, config.site).current().site.currency.toUpperCase(), out, err),
  }),
  command({
    name: "codes list",
    summary: "the discount codes with their uses, paid orders, revenue and state (active first)",
    run: ({ db, config, options, out }) =>
      codesList(
        db,
        contentNow(db, config.site).current().site.currency,
        countsTestOrders(config),
        // Without Stripe's keys the site runs its test checkout: the uses its limits count.
        config.stripe === undefined,
        out,
        (options.now ?? (() => new Date()))(),
      ),
  }),
  command({
    name: "codes disable",
    usage: "CODE",
    summary: "stop a code's new uses (orders made with it keep it)",
    run: ({ write, args, usage, out, err }) => codesDisable(write, args[0], usage, out, err),
  }),
  command({
    name: "partners create",
    usage: "NAME [--commission 20] [--code CODE]",
    summary:
      "a partner: its link is the site's address with ?ref=NAME; --commission its percentage of what is paid excluding VAT; --code a discount code given with the link",
    options: partnersCreateOptions,
    run: ({ write, args, values, usage, out, err }) => partnersCreate(write, args[0], values, usage, out, err),
  }),
  command({
    name: "partners list",
    usage: "[--from DATE] [--to DATE] [--csv [--no-bom]]",
    summary: "each partner's visitors, paid orders, net revenue and commission owed for a period (Paris days; this month by default)",
    options: partnersListOptions,
    run: ({ db, config, values, out, err }) =>
      partnersList(db, values, contentNow(db, config.site).current().site.currency, countsTestOrders(config), out, err),
  }),
  exportCommand("chats", "print the support-chat transcripts as CSV"),
  exportCommand("licenses", "print the licence keys as CSV (status, order, buyer, activations)"),
  command({
    name: "vat export",
    usage: "[--ereporting] [--no-bom]",
    summary:
      "print the VAT return's figures as CSV: invoices minus credit notes per quarter, country and rate (test-checkout sales left out); --ereporting: per day and rate, the totals France's B2C e-reporting asks for",
    options: { ereporting: { type: "boolean" }, ...csvOptions },
    run: ({ db, values, out, err }) => {
      const bom = values["no-bom"] !== true;
      if (values.ereporting !== true) return printExport(db, "vat", out, err, bom);
      if (bom) out(CSV_BOM);
      ereportingCsv(db, (chunk) => out(chunk));
      return 0;
    },
  }),
  command({
    name: "licenses show",
    usage: "KEY|EMAIL",
    summary: "a licence (by key, any case, with or without dashes, or by buyer's e-mail) and its devices",
    run: (c) => showLicense(c.db, c.config, c.args[0], c.out, c.err),
  }),
  command({
    name: "licenses disable",
    usage: "KEY",
    summary: 'block a key (the app\'s checks answer "disabled")',
    run: (c) => enableLicense(c.db, c.write, "disable", c.args[0], c.out, c.err),
  }),
  command({
    name: "licenses enable",
    usage: "KEY",
    summary: "unblock a key that was disabled",
    run: (c) => enableLicense(c.db, c.write, "enable", c.args[0], c.out, c.err),
  }),
  command({
    name: "licenses reset",
    usage: "KEY",
    summary: "free every device of a key (a buyer who replaced their devices)",
    run: (c) => resetLicense(c.db, c.write, c.args[0], c.out, c.err),
  }),
  command({
    name: "licenses rotate-key",
    summary: "a new key signs licence tokens from now on; the old one still verifies until its tokens expire",
    run: async ({ config, out }) => {
      const rotated = await openLicenseKeys(config, () => new Date()).rotate();
      out(`New signing key ${rotated.kid}: it signs from now on (running servers see it at once).\n`);
      if (rotated.removed.length > 0) out(`Removed, their tokens all expired: ${rotated.removed.join(", ")}\n`);
      return 0;
    },
  }),
  command({
    name: "mail list",
    summary: "the e-mail queue, newest first: status, kind, recipient, attempts, last error",
    run: ({ db, out }) => listMail(db, out),
  }),
  command({
    name: "mail retry",
    usage: "ID",
    summary: "send a failed message again (the running server picks it up within seconds)",
    run: ({ write, args, usage, out, err }) => {
      const id = args[0] !== undefined && /^\d{1,12}$/.test(args[0]) ? Number(args[0]) : null;
      if (id === null) {
        err(`mail retry needs a number: ${usage}`);
        return 2;
      }
      return retry(write, id, out, err);
    },
  }),
  command({
    name: "orders resend",
    usage: "REF",
    summary:
      "queue the access e-mail of a paid order again (same licence key); REF is the order's reference (K7QM-2XHD-9CVT) or its number",
    run: (c) => withOrder(c.db, "orders resend", c.args[0], c.err, (id) => resend(c.write, c.config, id, c.out, c.err)),
  }),
  command({
    name: "owner invite",
    summary: "print a one-time link (valid 15 minutes) that registers a passkey for the owner's console",
    run: ({ write, config, out }) => invite(write, config, out),
  }),
  command({
    name: "orders invoice",
    usage: "REF PATH",
    summary: "the invoice PDF of an order (by its reference) written to PATH, or - for standard output",
    run: ({ db, config, args, out, err }) => invoiceCommand(db, config, args[0], args[1], out, err),
  }),
  command({
    name: "orders refund",
    usage: "REF",
    summary:
      "refund a paid order in full (Stripe's Refund API for a Stripe order, the site's own for a test-checkout order): licence disabled, buyer's and owner's notices sent",
    run: (c) =>
      withOrder(c.db, "orders refund", c.args[0], c.err, (id) =>
        refund(c.db, c.write, c.config, id, c.out, c.err, c.options.stripeConnection),
      ),
  }),
  command({
    name: "places pending",
    summary: "the cities of the last 30 days' orders that the purchase notice leaves out (not a known place)",
    run: ({ db, write, config, out, err }) => placesCommand(db, write, config, "pending", undefined, out, err),
  }),
  command({
    name: "places approve",
    usage: "NAME",
    summary: "show this place name in the purchase notice",
    run: ({ db, write, config, args, out, err }) => placesCommand(db, write, config, "approve", args[0], out, err),
  }),
  command({
    name: "places revoke",
    usage: "NAME",
    summary: "withdraw an approved place name from the purchase notice",
    run: ({ db, write, config, args, out, err }) => placesCommand(db, write, config, "revoke", args[0], out, err),
  }),
  command({
    name: "catalogue import",
    usage: "TITLES.CSV [POSTERS_DIR]",
    summary:
      "replace the catalogue with a CSV's titles (header name,kind,year,category,poster[,featured]) and the posters it names; a bad row refuses the whole file",
    run: ({ db, write, args, usage, out, err, options }) => {
      const now = options.now ?? (() => new Date());
      const logged = writeLogged(write, null, now(), versionEntry("catalogue-imported"));
      return catalogueImportCommand(db, logged, args, usage, out, err, now);
    },
  }),
  command({
    name: "catalogue export",
    usage: "DIR",
    summary: "write the published catalogue as DIR/titles.csv and DIR/posters/ (the import's format)",
    run: ({ db, args, usage, out, err }) => catalogueExportCommand(db, args, usage, out, err),
  }),
  command({
    name: "orders reconcile",
    usage: "--since DATE",
    summary:
      "apply the paid, refunded and expired Stripe checkouts since DATE that the database does not have (after a restore): missing orders get their licence and e-mail",
    options: { since: { type: "string" } },
    run: ({ write, config, values, out, err, options }) => reconcile(write, config, values.since, out, err, options.stripeConnection ?? {}),
  }),
  standalone({
    name: "restore",
    usage: "[--to-time T] [--force]",
    summary: "bring DATA_DIR back from BACKUP_URL (refuses to replace a database without --force)",
    options: { "to-time": { type: "string" }, force: { type: "boolean" } },
    run: ({ values, usage, config, out, err }) =>
      restoreCommand({ toTime: values["to-time"], force: values.force === true }, usage, config, out, err),
  }),
  standalone({
    name: "backup status",
    summary: "whether backups are on, where to, and when the last replication happened",
    run: ({ config, out }) => backupStatus(config, out),
  }),
  command({
    name: "backup promote",
    summary:
      "make this database the one that replicates to BACKUP_URL (a restored copy does not replicate until promoted; a server on another database stops writing there)",
    run: ({ db, write, config, options, out, err }) => backupPromote(db, write, config, out, err, options.now ?? (() => new Date())),
  }),
  standalone({
    name: "version",
    summary: "the version, the commit and the date of this executable's build (also --version)",
    run: ({ options, out }) => {
      out(`site ${describeBuild(currentBuild(options.build))}\n`);
      return 0;
    },
  }),
  standalone({
    name: "rollback",
    usage: "[--yes]",
    summary:
      "with the older executable you go back to: put back the copy of the database saved before a newer version migrated it (site.db.before-VERSION); the current one is kept aside",
    options: { yes: { type: "boolean" } },
    run: ({ config, values, options, out, err }) =>
      rollbackCommand({ yes: values.yes === true }, config, out, err, options.confirm ?? (async () => false), options.now),
  }),
  standalone({
    name: "service",
    usage: "[--user NAME] [--data DIR] [--env-file FILE]",
    summary: "print a systemd unit that runs this executable, where it stands, as a service (docs/owner/deploy.md)",
    options: { user: { type: "string" }, data: { type: "string" }, "env-file": { type: "string" } },
    run: ({ config, values, options, out, err }) =>
      serviceCommand(
        { user: values.user, data: values.data, envFile: values["env-file"] },
        config,
        out,
        err,
        options.self ?? [process.execPath],
      ),
  }),
  command({
    name: "content export",
    summary:
      "print the published content (offer, every text in every language with the defaults written out, FAQ, comparison, installation guide) as JSON",
    run: ({ db, out }) => {
      out(exportContent(db));
      return 0;
    },
  }),
  command({
    name: "content import",
    usage: "FILE",
    summary:
      "check FILE (as `content export` writes it; - for standard input) and publish it as a new version, kept in the history; a file with a mistake changes nothing and names the field",
    run: ({ write, args, options, out, err }) => {
      const now = (options.now ?? (() => new Date()))();
      return importCommand(writeLogged(write, null, now, versionEntry("content-imported")), args[0], out, err, now);
    },
  }),
  command({
    name: "digest preview",
    usage: "[--date YYYY-MM-DD] [--daily|--weekly]",
    summary:
      "the owner's digest e-mail of a day (or of the ISO week holding the date) that ended, printed as text; by default the last period DIGEST reports on",
    options: digestOptions,
    run: ({ db, write, config, values, usage, options, out, err }) =>
      digestCommand(db, write, config, "preview", values, usage, options.now ?? (() => new Date()), out, err),
  }),
  command({
    name: "digest send",
    usage: "[--date YYYY-MM-DD] [--daily|--weekly]",
    summary: "queue that digest to OWNER_EMAIL now (once per period: not if the server or an earlier send queued it)",
    options: digestOptions,
    run: ({ db, write, config, values, usage, options, out, err }) =>
      digestCommand(db, write, config, "send", values, usage, options.now ?? (() => new Date()), out, err),
  }),
];

/** Where a command's summary begins, and the width the usage is wrapped to. */
const SUMMARY_COLUMN = 30;
const USAGE_WIDTH = 120;

function usageEntry(left: string, summary: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of summary.split(" ")) {
    if (line !== "" && SUMMARY_COLUMN + line.length + 1 + word.length > USAGE_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  const indent = " ".repeat(SUMMARY_COLUMN);
  // A call too long for the column gets a line of its own, its summary under it.
  const first = left.length < SUMMARY_COLUMN - 1 ? `${left.padEnd(SUMMARY_COLUMN)}${lines.shift()}` : left;
  return [first, ...lines.map((l) => `${indent}${l}`)].join("\n");
}

/** The program's usage, made from the table. */
export const USAGE = [
  "Usage:",
  usageEntry("  site", "start the web server (configuration from the environment, see docs/owner/configuration.md)"),
  ...COMMANDS.map((c) => usageEntry(`  site ${c.name}${c.usage === "" ? "" : ` ${c.usage}`}`, c.summary)),
].join("\n");

/** The command the words begin with (the one of most words, should one name begin another's). */
function findCommand(argv: string[]): Command | undefined {
  let found: Command | undefined;
  for (const c of COMMANDS) {
    const words = c.name.split(" ");
    if (words.every((w, i) => argv[i] === w) && (found === undefined || words.length > found.name.split(" ").length)) found = c;
  }
  return found;
}

/**
 * How long a command waits for a write lock held by another program (an open sqlite3 session, the
 * server in the middle of a write) before it gives up, changing nothing. Longer than the server's
 * requests wait: the owner is there to read the message.
 */
export const CLI_BUSY_WAIT_MS = 30_000;

/** Runs an owner subcommand against the data folder; resolves with the process exit code. */
export async function runCommand(argv: string[], config: Config, out: Print, err: Print, options: RunOptions = {}): Promise<number> {
  const found = findCommand(argv);
  if (found === undefined) {
    err(`Unknown command: ${argv.join(" ")}\n\n${USAGE}`);
    return 2;
  }
  const rest = argv.slice(found.name.split(" ").length);
  const base: Base = { config, options, out, err };
  if (!found.database) {
    const ready = found.prepare(rest);
    if ("error" in ready) {
      err(ready.error);
      return 2;
    }
    return ready.run(base);
  }
  const ready = found.prepare(rest);
  if ("error" in ready) {
    err(ready.error);
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
    db = openDb(config.dbPath, {
      synchronous: config.sqliteSynchronous,
      onSaved: (copy) => err(`Saved ${config.dbPath} as ${copy} before bringing its schema up to date.`),
    });
  } catch (error) {
    if (error instanceof NewerSchemaError) {
      err(error.describe());
      return 1;
    }
    if (!isBusyError(error)) throw error;
    err(`${busyMessage}: could not open it. Nothing was changed; try again once it is finished.`);
    return 1;
  }
  const write = createWriter(db, {
    waitMs: busyWaitMs,
    onWait: () => err(`${busyMessage}: waiting up to ${Math.round(busyWaitMs / 1000)} s for it…`),
  });
  try {
    return await ready.run({ ...base, db, write });
  } catch (error) {
    if (!isBusyError(error)) throw error;
    err(`${busyMessage}, still after ${Math.round(busyWaitMs / 1000)} s. Nothing was changed; try again once it is finished.`);
    return 1;
  } finally {
    db.$client.close();
  }
}

/** `orders resend|refund REF`: the order its argument names, or why there is none. */
async function withOrder(db: Db, name: string, arg: string | undefined, err: Print, run: (id: number) => Promise<number>): Promise<number> {
  const orderId = arg === undefined ? null : orderIdOf(db, arg);
  if (orderId === null) {
    err(`${name} needs an order: site ${name} REFERENCE (or its number)`);
    return 2;
  }
  if (orderId === "unknown") {
    err(`No order has the reference ${arg} (site orders export lists the orders).`);
    return 1;
  }
  return run(orderId);
}

/** The order an argument names: its reference (K7QM-2XHD-9CVT, any case, dashes or not) or its number. */
function orderIdOf(db: Db, arg: string): number | "unknown" | null {
  const reference = normalizeOrderReference(arg);
  if (reference !== null) return db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference)).get()?.id ?? "unknown";
  return /^\d{1,12}$/.test(arg) ? Number(arg) : null;
}

/** `licenses show KEY|EMAIL`. */
function showLicense(db: Db, config: Config, arg: string | undefined, out: Print, err: Print): number {
  if (arg === undefined || arg.trim() === "") {
    err("licenses show needs a key or e-mail address");
    return 2;
  }
  const found = findLicenses(db, arg, normalizeLicenseKey(arg));
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

/**
 * The key an argument names, and the order its changes are logged under (as the console logs them,
 * so the order's page lists them too); or the exit code of why there is none.
 */
function licenseOf(db: Db, action: string, arg: string | undefined, err: Print): { key: string; orderId: number } | number {
  if (arg === undefined || arg.trim() === "") {
    err(`licenses ${action} needs a key`);
    return 2;
  }
  const key = normalizeLicenseKey(arg);
  if (key === null) {
    err(`${arg} is not a licence key (25 letters and digits).`);
    return 2;
  }
  const orderId = db.select({ orderId: licenses.orderId }).from(licenses).where(eq(licenses.key, key)).get()?.orderId;
  if (orderId === undefined) {
    err(`No licence for ${key}.`);
    return 1;
  }
  return { key, orderId };
}

/** `licenses reset KEY`. */
async function resetLicense(db: Db, write: Write, arg: string | undefined, out: Print, err: Print): Promise<number> {
  const license = licenseOf(db, "reset", arg, err);
  if (typeof license === "number") return license;
  const { key, orderId } = license;
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

/** `licenses enable|disable KEY`. */
async function enableLicense(
  db: Db,
  write: Write,
  action: "enable" | "disable",
  arg: string | undefined,
  out: Print,
  err: Print,
): Promise<number> {
  const license = licenseOf(db, action, arg, err);
  if (typeof license === "number") return license;
  const { key, orderId } = license;
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
  const file = await createPaperwork({ db, config, content: contentNow(db, config.site) }).invoiceByReference(normalized, "invoice");
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
        provider: () => createCheckout({ config, db, write, now, content: contentNow(db, config.site) }, stripeConnection).provider,
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
  sinceValue: string | undefined,
  out: Print,
  err: Print,
  connection: StripeConnection,
): Promise<number> {
  const since = sinceValue === undefined ? null : new Date(sinceValue);
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
