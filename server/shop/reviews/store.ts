import { and, count, desc, eq, isNull, ne, type SQL, type sql, sum } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { licenseActivations, licenses, orders, type ReviewStatus, reviews, siteSettings } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { isLocale, type Locale } from "../../../shared/locales";
import {
  DEFAULT_FIGURE_SETTINGS,
  displayNameOf,
  type ProofFigureSettings,
  type ProofSnapshot,
  REFUSAL_REASONS,
  REVIEWS_SHOWN,
  type RefusalReason,
  type ReviewFormValues,
} from "../../../shared/reviews";

// The reviews in the database, and the stamp every process watches to know when what the pages
// show of them changed (server/site/content/live.ts). Every change that alters a published review
// bumps the stamp in its own transaction, so a process that sees the new stamp reads the new rows.

/** Bumped by every change to what the pages show (a review published, removed or answered; the figure). */
const PROOF_STAMP = "proof_edition";
/** The figure as the minute's check last recorded it: every process shows this one, never its own count. */
const PROOF_FIGURE = "proof_figure";
/** The owner's choice of figure and threshold (console, Reviews). */
const FIGURE_SETTINGS = "proof_figure_settings";

export type ReviewRow = typeof reviews.$inferSelect;

const readSetting = (db: DbWriter, key: string): string | null =>
  db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key)).get()?.value ?? null;

function writeSetting(tx: DbWriter, key: string, value: string, now: Date): void {
  tx.insert(siteSettings).values({ key, value, createdAt: now }).onConflictDoUpdate({ target: siteSettings.key, set: { value } }).run();
}

/** The pages' stamp: one primary-key read, as often as the content's version is looked at. */
export const proofStamp = (db: DbWriter): string => readSetting(db, PROOF_STAMP) ?? "0";

/** Called inside the transaction of a change the pages show. */
export function bumpProofStamp(tx: DbWriter, now: Date): void {
  writeSetting(tx, PROOF_STAMP, String(Number(proofStamp(tx)) + 1), now);
}

export function figureSettings(db: DbWriter): ProofFigureSettings {
  const raw = readSetting(db, FIGURE_SETTINGS);
  if (raw === null) return DEFAULT_FIGURE_SETTINGS;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && "kind" in parsed && "threshold" in parsed) {
      const kind = parsed.kind === "buyers" || parsed.kind === "devices" || parsed.kind === "off" ? parsed.kind : "buyers";
      const threshold = typeof parsed.threshold === "number" && Number.isInteger(parsed.threshold) ? parsed.threshold : 50;
      return { kind, threshold };
    }
  } catch {
    // A hand-edited row: the defaults, as before the owner chose.
  }
  return DEFAULT_FIGURE_SETTINGS;
}

/** Buyers (paid orders, refunded ones being no longer paid) and devices in use, counted now. */
export function countFigures(db: DbWriter, providerFilter: ReturnType<typeof sql> | undefined): { buyers: number; devices: number } {
  const buyers =
    db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.status, "paid"), providerFilter))
      .get()?.n ?? 0;
  const devices =
    db
      .select({ n: count() })
      .from(licenseActivations)
      .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
      .innerJoin(orders, eq(orders.id, licenses.orderId))
      .where(and(isNull(licenseActivations.deactivatedAt), eq(licenses.status, "active"), eq(orders.status, "paid"), providerFilter))
      .get()?.n ?? 0;
  return { buyers, devices };
}

/** The figure the pages should state now under the owner's settings: exact, never rounded; null below the threshold. */
export function shownFigure(settings: ProofFigureSettings, figures: { buyers: number; devices: number }): ProofSnapshot["figure"] {
  if (settings.kind === "off") return null;
  const n = figures[settings.kind];
  return n >= settings.threshold && n > 0 ? { kind: settings.kind, count: n } : null;
}

/** Records the figure to show when it changed (and then the stamp): true when it did. */
export function recordFigure(tx: DbWriter, figure: ProofSnapshot["figure"], now: Date): boolean {
  const value = JSON.stringify(figure);
  if (readSetting(tx, PROOF_FIGURE) === value) return false;
  writeSetting(tx, PROOF_FIGURE, value, now);
  bumpProofStamp(tx, now);
  return true;
}

export function saveFigureSettings(tx: DbWriter, settings: ProofFigureSettings, now: Date): void {
  writeSetting(tx, FIGURE_SETTINGS, JSON.stringify(settings), now);
}

function storedFigure(db: DbWriter): ProofSnapshot["figure"] {
  const raw = readSetting(db, PROOF_FIGURE);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && "kind" in parsed && "count" in parsed && typeof parsed.count === "number")
      return parsed.kind === "buyers" || parsed.kind === "devices" ? { kind: parsed.kind, count: parsed.count } : null;
  } catch {
    // Unreadable: no figure rather than a wrong one.
  }
  return null;
}

/**
 * Whether a review of an order paid with the built-in test checkout counts as a verified purchase:
 * only outside production, where the test checkout is the way to try reviews. In production (even
 * one allowing the test checkout as a demo) such an order took no money, so anyone could write one.
 */
export const testOrdersVerify = (env: string): boolean => env !== "production";

/** Whether an order's pages offer its review: not a test-checkout order's in production, whose review would be refused. */
export const reviewOffered = (env: string, provider: string): boolean => provider !== "test" || testOrdersVerify(env);

/** The published reviews the pages may show: in production never one of a test-checkout order. */
function shownWhere(testOrders: boolean): SQL | undefined {
  return and(eq(reviews.status, "published"), testOrders ? undefined : ne(orders.provider, "test"));
}

/** What the pages show, read at once (one transaction: the stamp and the rows agree). */
export function readProof(db: Db, testOrders: boolean): ProofSnapshot {
  return db.transaction((tx) => {
    const stamp = proofStamp(tx);
    const totals = tx
      .select({ n: count(), total: sum(reviews.rating) })
      .from(reviews)
      .innerJoin(orders, eq(orders.id, reviews.orderId))
      .where(shownWhere(testOrders))
      .get();
    const latest = tx
      .select({ r: reviews })
      .from(reviews)
      .innerJoin(orders, eq(orders.id, reviews.orderId))
      .where(shownWhere(testOrders))
      .orderBy(desc(reviews.publishedAt), desc(reviews.id))
      .limit(REVIEWS_SHOWN)
      .all()
      .map(({ r }) => ({
        id: r.id,
        rating: r.rating,
        text: r.text,
        name: r.displayName,
        city: r.city,
        publishedAt: (r.publishedAt ?? r.updatedAt).getTime(),
        locale: isLocale(r.locale) ? r.locale : "fr",
        reply: r.reply,
      }));
    return { stamp, count: totals?.n ?? 0, ratingSum: Number(totals?.total ?? 0), latest, figure: storedFigure(tx) };
  });
}

/** The order a review link names, with what decides whether a review may be written. */
export type ReviewOrder = {
  id: number;
  reference: string;
  status: string;
  /** "test": paid with the built-in test checkout. */
  provider: string;
  locale: Locale;
  billingName: string | null;
  firstName: string | null;
  city: string | null;
  email: string | null;
};

export function reviewOrderByReference(db: DbWriter, reference: string): ReviewOrder | null {
  const row = db
    .select({
      id: orders.id,
      reference: orders.reference,
      status: orders.status,
      provider: orders.provider,
      locale: orders.locale,
      billingName: orders.billingName,
      firstName: orders.firstName,
      city: orders.city,
      email: orders.customerEmail,
    })
    .from(orders)
    .where(eq(orders.reference, reference))
    .get();
  if (row === undefined) return null;
  return { ...row, locale: isLocale(row.locale) ? row.locale : "fr" };
}

/** The name a review may show, from the order's (the billing name, else the first name). */
export const namesOf = (order: ReviewOrder) => ({
  "first-initial": displayNameOf(order.billingName ?? order.firstName, "first-initial"),
  initials: displayNameOf(order.billingName ?? order.firstName, "initials"),
});

export const reviewOfOrder = (db: DbWriter, orderId: number): ReviewRow | null =>
  db.select().from(reviews).where(eq(reviews.orderId, orderId)).get() ?? null;

export const reviewById = (db: DbWriter, id: number): ReviewRow | null => db.select().from(reviews).where(eq(reviews.id, id)).get() ?? null;

export type SaveOutcome = "saved" | "closed";

/**
 * Stores the buyer's review of a paid order (new, or edited: then it waits for the owner again and
 * leaves the pages until published anew). A refunded or unpaid order stores nothing.
 */
export function saveReview(
  write: Write,
  orderId: number,
  input: ReviewFormValues & { rating: number; displayName: string; locale: Locale },
  now: Date,
): Promise<SaveOutcome> {
  return write((tx) => {
    const order = tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get();
    if (order?.status !== "paid") return "closed";
    const existing = reviewOfOrder(tx, orderId);
    const fields = {
      locale: input.locale,
      rating: input.rating,
      text: input.text,
      displayName: input.displayName,
      nameStyle: input.nameStyle,
      city: input.city === "" ? null : input.city,
      status: "pending" as ReviewStatus,
      refusalReason: null,
      consentAt: now,
      updatedAt: now,
      publishedAt: null,
      decidedAt: null,
    };
    if (existing === null)
      tx.insert(reviews)
        .values({ orderId, createdAt: now, ...fields })
        .run();
    else {
      tx.update(reviews).set(fields).where(eq(reviews.id, existing.id)).run();
      if (existing.status === "published") bumpProofStamp(tx, now);
    }
    return "saved";
  });
}

/** Deletes the review of an order (its author's choice): gone from the pages at once. */
export function deleteReview(write: Write, orderId: number, now: Date): Promise<boolean> {
  return write((tx) => {
    const existing = reviewOfOrder(tx, orderId);
    if (existing === null) return false;
    tx.delete(reviews).where(eq(reviews.id, existing.id)).run();
    if (existing.status === "published") bumpProofStamp(tx, now);
    return true;
  });
}

/** Deletes the reviews of these orders (erasure of a buyer's data), in the caller's transaction. */
export function deleteReviewsOf(tx: DbWriter, orderIds: number[], now: Date): number {
  let deleted = 0;
  for (const orderId of orderIds) {
    const existing = reviewOfOrder(tx, orderId);
    if (existing === null) continue;
    tx.delete(reviews).where(eq(reviews.id, existing.id)).run();
    if (existing.status === "published") bumpProofStamp(tx, now);
    deleted++;
  }
  return deleted;
}

export const isRefusalReason = (reason: string): reason is RefusalReason => REFUSAL_REASONS.some((r) => r === reason);

/** Moderation list: waiting first (oldest first), then the others newest first. */
export function listReviews(db: Db, status: ReviewStatus, limit = 200) {
  return db
    .select({
      review: reviews,
      reference: orders.reference,
      email: orders.customerEmail,
      orderStatus: orders.status,
      provider: orders.provider,
    })
    .from(reviews)
    .innerJoin(orders, eq(orders.id, reviews.orderId))
    .where(eq(reviews.status, status))
    .orderBy(status === "pending" ? reviews.updatedAt : desc(reviews.updatedAt))
    .limit(limit)
    .all();
}

export function reviewCounts(db: Db): Record<ReviewStatus, number> {
  const out: Record<ReviewStatus, number> = { pending: 0, published: 0, refused: 0 };
  for (const row of db.select({ status: reviews.status, n: count() }).from(reviews).groupBy(reviews.status).all()) out[row.status] = row.n;
  return out;
}
