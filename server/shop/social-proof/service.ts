import { and, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orders } from "../../../db/schema";
import type { SocialProofEntry } from "../../../shared/schemas/social-proof";
import type { Config } from "../../platform/config";
import { placeKey } from "./place-key";
import type { PlaceNames } from "./places";

// Social proof only from real purchases (docs/product.md says why): paid orders of the last 30 days,
// written by the checkout's fulfilment. This feature only reads them.

export const SOCIAL_PROOF_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const SOCIAL_PROOF_MAX_ENTRIES = 20;
/** A city is visitor-typed text shown to other visitors: keep it short. */
const MAX_CITY_CHARS = 40;

/** "Sophie" -> "S.": a first-name initial at most, never a full name. */
export function initialOf(firstName: string | null): string | null {
  const letter = firstName?.trim().match(/\p{L}/u)?.[0];
  return letter === undefined ? null : `${letter.toLocaleUpperCase()}.`;
}

/**
 * A city as other visitors may see it, or null. Buyers type it, so anything that does not look like
 * a place name (digits, symbols, a web address, a sentence) is left out rather than shown:
 * "Saint-Étienne", "L'Haÿ-les-Roses", "St. Louis" and "Santa Cruz de Tenerife" pass; "Visit
 * cheap-iptv.example for 5€" does not.
 */
export function cleanCity(city: string | null): string | null {
  const text =
    city
      ?.replace(/[\p{C}]/gu, "")
      .replace(/\s+/g, " ")
      .trim() ?? "";
  if (text === "" || text.length > MAX_CITY_CHARS) return null;
  if (!/^\p{L}[\p{L}\p{M} '’.-]*$/u.test(text)) return null;
  if (/\.\p{L}/u.test(text) || text.split(" ").length > 4) return null;
  return text;
}

/**
 * Whether the orders of the active payment provider appear in the recent-purchases notice (see
 * purchaseFilter): then the pages where a buyer gives the name and city it shows say so.
 */
export function purchasesInNotice(config: Pick<Config, "stripe" | "env">): boolean {
  return config.stripe !== undefined || config.env !== "production";
}

/**
 * Which orders count as purchases on this site right now: those of the active payment provider only.
 * Orders the owner made while trying the built-in test checkout stay in the table after Stripe is
 * configured, and a live Stripe site must not show Stripe test-mode checkouts (ids `cs_test_...`)
 * either: neither was ever a real payment.
 */
export function purchaseFilter(config: Pick<Config, "stripe" | "env">) {
  // The built-in test checkout takes no money: its orders make a toast only while trying the site
  // out, never on a production server (even one that allows the test checkout as a demo).
  if (!purchasesInNotice(config)) return sql`0`;
  if (config.stripe === undefined) return eq(orders.provider, "test");
  const live = /^(sk|rk)_live_/.test(config.stripe.secretKey);
  return live ? and(eq(orders.provider, "stripe"), eq(sql`substr(${orders.checkoutId}, 1, 8)`, "cs_live_")) : eq(orders.provider, "stripe");
}

/**
 * The city a toast may show: a clean place name that is on the shipped list or that the owner
 * approved (server/shop/social-proof/places.ts); otherwise null, and the toast names the initial alone.
 */
export function shownCity(city: string | null, places: PlaceNames, approved: ReadonlySet<string>): string | null {
  const clean = cleanCity(city);
  if (clean === null) return null;
  return places.has(clean) || approved.has(placeKey(clean)) ? clean : null;
}

/**
 * Development's sample purchases, shown while no real one is (as its sample reviews are), so that
 * the notice can be seen before any sale: marked "example" in the notice, never counted anywhere.
 * Only `NODE_ENV=development` (what `bun run start` runs without it): never production, nor the
 * test suite's servers, whose pages show only the purchases a test makes.
 */
export const SAMPLE_PURCHASES: readonly SocialProofEntry[] = [
  { initial: "C.", city: "Nantes", minutesAgo: 4, sample: true },
  { initial: "L.", city: "Torino", minutesAgo: 38, sample: true },
  { initial: "J.", city: null, minutesAgo: 60 * 5, sample: true },
];

export function recentPurchases(
  db: Db,
  now: Date,
  config: Pick<Config, "stripe" | "env">,
  places: PlaceNames,
  approved: ReadonlySet<string>,
): SocialProofEntry[] {
  const since = new Date(now.getTime() - SOCIAL_PROOF_WINDOW_MS);
  const rows = db
    .select({ firstName: orders.firstName, city: orders.city, paidAt: orders.paidAt })
    .from(orders)
    // Only buyers who ticked the payment page's box: nobody is shown without having agreed.
    .where(
      and(
        eq(orders.status, "paid"),
        eq(orders.inNotice, true),
        purchaseFilter(config),
        isNotNull(orders.paidAt),
        gte(orders.paidAt, since),
      ),
    )
    .orderBy(desc(orders.paidAt))
    .limit(SOCIAL_PROOF_MAX_ENTRIES)
    .all();
  const entries: SocialProofEntry[] = [];
  for (const row of rows) {
    if (row.paidAt === null) continue;
    const minutesAgo = Math.max(0, Math.floor((now.getTime() - row.paidAt.getTime()) / 60_000));
    entries.push({ initial: initialOf(row.firstName), city: shownCity(row.city, places, approved), minutesAgo });
  }
  if (entries.length === 0 && config.env === "development") return [...SAMPLE_PURCHASES];
  return entries;
}
