import { randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerRecoveryCodes } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import { hashToken } from "./tokens";

export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: a code is copied by hand from paper.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** "ABCDE-FGHJK": 10 characters of a 31-letter alphabet, about 50 bits. */
function newCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** As typed: any case, spaces or dashes anywhere. */
export const normalizeRecoveryCode = (typed: string): string => {
  const bare = typed.toUpperCase().replace(/[\s-]/g, "");
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
};

/** Replaces every code with ten new ones, returned once in clear; only their hashes are kept. */
export function issueRecoveryCodes(tx: DbWriter, now: Date): string[] {
  tx.delete(ownerRecoveryCodes).run();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  tx.insert(ownerRecoveryCodes)
    .values(codes.map((c) => ({ codeHash: hashToken(c), createdAt: now })))
    .run();
  return codes;
}

/** Uses a code once: the number of codes left, or null when it is not an unused code. */
export function useRecoveryCode(tx: DbWriter, typed: string, now: Date): number | null {
  const used = tx
    .update(ownerRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(ownerRecoveryCodes.codeHash, hashToken(normalizeRecoveryCode(typed))), isNull(ownerRecoveryCodes.usedAt)))
    .returning({ id: ownerRecoveryCodes.id })
    .all();
  if (used.length === 0) return null;
  return recoveryCodesLeft(tx);
}

export function recoveryCodesLeft(db: Pick<Db, "select"> | DbWriter): number {
  return db.select({ n: count() }).from(ownerRecoveryCodes).where(isNull(ownerRecoveryCodes.usedAt)).get()?.n ?? 0;
}
