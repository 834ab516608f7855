import { and, desc, eq, gte, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { orders } from "../../db/schema";
import type { Write } from "../../db/writer";
import type { Config } from "../platform/config";
import { approvedPlaceKeys, approvePlace, loadPlaceNames, revokePlace } from "../shop/social-proof/places";
import { purchaseFilter, SOCIAL_PROOF_WINDOW_MS, shownCity } from "../shop/social-proof/service";

/**
 * `site places pending|approve NAME|revoke NAME`: the cities buyers typed that the purchase toast
 * leaves out (not on the shipped list of places, not approved), and the owner's approvals.
 */
export async function placesCommand(
  db: Db,
  write: Write,
  config: Config,
  action: string,
  name: string | undefined,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  if (action === "pending") {
    const places = loadPlaceNames();
    const approved = approvedPlaceKeys(db);
    const since = new Date(Date.now() - SOCIAL_PROOF_WINDOW_MS);
    const rows = db
      .select({ id: orders.id, city: orders.city })
      .from(orders)
      .where(and(eq(orders.status, "paid"), purchaseFilter(config), isNotNull(orders.city), gte(orders.paidAt, since)))
      .orderBy(desc(orders.paidAt))
      .all();
    const pending = rows.filter((row) => shownCity(row.city, places, approved) === null);
    for (const row of pending) out(`${row.id}\t${row.city}\n`);
    if (pending.length === 0) out("Every city of the last 30 days' orders is shown (or there is none).\n");
    return 0;
  }
  const trimmed = name?.trim() ?? "";
  if (trimmed === "" || trimmed.length > 80) {
    err(`site places ${action} needs a place name: site places ${action} "Saint-Martin-de-Ré"`);
    return 2;
  }
  if (action === "approve") {
    out((await approvePlace(write, trimmed, new Date())) ? `Approved: ${trimmed}\n` : `Already approved: ${trimmed}\n`);
    return 0;
  }
  out((await revokePlace(write, trimmed)) ? `No longer approved: ${trimmed}\n` : `Was not approved: ${trimmed}\n`);
  return 0;
}
