import { readFileSync } from "node:fs";
import { gunzipSync } from "bun";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { approvedPlaces } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { placeKey } from "./place-key";
import placesFile from "./places.txt.gz" with { type: "file" };

// The purchase toast shows a city to every visitor, and buyers type their city themselves: it is
// shown only when it names a real place. The list of places ships with the site (made by
// scripts/places/make-place-list.ts); a place missing from it (a village, a spelling the list
// lacks) is shown once the owner approved it (`site places approve NAME`).

export type PlaceNames = { has: (city: string) => boolean };

/** The shipped list of place names: about 100,000 keys, read when first needed. */
export function loadPlaceNames(): PlaceNames {
  const keys = new Set(new TextDecoder().decode(gunzipSync(readFileSync(placesFile))).split("\n"));
  return { has: (city) => keys.has(placeKey(city)) };
}

/** The owner's approved place names, as keys. */
export function approvedPlaceKeys(db: Db): Set<string> {
  return new Set(
    db
      .select({ key: approvedPlaces.key })
      .from(approvedPlaces)
      .all()
      .map((row) => row.key),
  );
}

/** Approves a place name for the toast; true when it was not approved yet. */
export function approvePlace(write: Write, name: string, now: Date): Promise<boolean> {
  const key = placeKey(name);
  return write((tx) => {
    const [row] = tx.insert(approvedPlaces).values({ key, name, approvedAt: now }).onConflictDoNothing().returning().all();
    return row !== undefined;
  });
}

/** Withdraws an approval; true when the name was approved. */
export function revokePlace(write: Write, name: string): Promise<boolean> {
  return write(
    (tx) =>
      tx
        .delete(approvedPlaces)
        .where(eq(approvedPlaces.key, placeKey(name)))
        .returning()
        .all().length > 0,
  );
}
