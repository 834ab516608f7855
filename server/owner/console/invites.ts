import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerInvites } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { activityDetail, recordActivity } from "./activity";
import { hashToken, randomToken } from "./tokens";

/** How long the link `site owner invite` prints stays usable. */
export const INVITE_TTL_MS = 15 * 60 * 1000;

export type InviteState = "valid" | "used" | "expired" | "unknown";

/** A new one-time link's secret; only its hash is kept. */
export async function createInvite(write: Write, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  await write((tx) => {
    tx.insert(ownerInvites)
      .values({ tokenHash: hashToken(token), createdAt: now, expiresAt })
      .run();
    // The log shows when it was made; an instant in UTC's notation would only puzzle the owner.
    recordActivity(tx, { action: "invite-created", detail: activityDetail.invite(INVITE_TTL_MS / 60_000), sessionId: null }, now);
  });
  return { token, expiresAt };
}

export function inviteState(db: Pick<Db, "select"> | DbWriter, token: string, now: Date): InviteState {
  const row = db
    .select()
    .from(ownerInvites)
    .where(eq(ownerInvites.tokenHash, hashToken(token)))
    .get();
  if (row === undefined) return "unknown";
  if (row.usedAt !== null) return "used";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "valid";
}

/** Marks the invite used, in the transaction that registers its passkey; false when it no longer may be. */
export function consumeInvite(tx: DbWriter, token: string, now: Date): boolean {
  if (inviteState(tx, token, now) !== "valid") return false;
  tx.update(ownerInvites)
    .set({ usedAt: now })
    .where(eq(ownerInvites.tokenHash, hashToken(token)))
    .run();
  return true;
}

/** The link the owner opens: absolute, on the site's public address. */
export const inviteUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl.replace(/\/$/, "")}/admin/invite/${token}`;
