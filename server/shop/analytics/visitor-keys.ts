import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { utcDay } from "./day";

/**
 * The keys that make visitor hashes: one random key per UTC day, a file of its own in
 * `DATA_DIR/analytics-keys/` so every server process on the folder counts a visitor the same way.
 * Not in the database, so no backup or copy of it ever holds a key. A day's key is only used during
 * that day, and housekeeping deletes it once the day is over (within the hour after midnight UTC):
 * nobody, the owner included, can then link that day's hashes to an address, or to another day.
 */
export type VisitorKeys = {
  /** HMAC-SHA256(the day's key, address + User-Agent), 128 bits in base64url. */
  visitorHash(ip: string, userAgent: string, at: Date): string;
  /** Deletes the keys of the days before `now`'s; answers how many it deleted. */
  deleteOld(now: Date): number;
};

export const visitorKeysDir = (dataDir: string) => join(dataDir, "analytics-keys");

export function openVisitorKeys(dataDir: string): VisitorKeys {
  const dir = visitorKeysDir(dataDir);
  let current: { day: string; key: Buffer } | null = null;
  const keyOf = (day: string): Buffer => {
    if (current?.day === day) return current.key;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${day}.key`);
    try {
      // "wx": the first process to need the day's key makes it; the others read that one.
      writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    }
    const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64url");
    current = { day, key };
    return key;
  };
  return {
    visitorHash(ip, userAgent, at) {
      return createHmac("sha256", keyOf(utcDay(at)))
        .update(`${ip}\n${userAgent}`)
        .digest("base64url")
        .slice(0, 22);
    },
    deleteOld(now) {
      const today = utcDay(now);
      let deleted = 0;
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return 0;
      }
      for (const name of names) {
        const day = /^(\d{4}-\d{2}-\d{2})\.key$/.exec(name)?.[1];
        if (day === undefined || day >= today) continue;
        rmSync(join(dir, name), { force: true });
        deleted++;
      }
      if (current !== null && current.day < today) current = null;
      return deleted;
    },
  };
}
