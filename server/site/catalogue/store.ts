import { asc, eq, max } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../../db/client";
import { catalogueSets, catalogueTitles, contentDraft } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { type CatalogueTitle, folded, kindOf, type Picture, type ShownTitle } from "../../../shared/catalogue";
import { type ContentDocument, ContentDocumentSchema } from "../../../shared/content";
import { type PublishedVersion, publishIn, readPublished } from "../content/store";
import { type CsvProblem, type CsvTitle, readCatalogueCsv } from "./csv";
import { type Converted, convertPicture, MediaRejected, mediaIdOf, pictureOf, postersByName, readMediaInfo, storeMedia } from "./media";

// The catalogue in the database (docs/decisions/019-catalogue-and-media.md): each import is a set
// of titles kept whole, and the published content names the set the site shows. An import is
// checked whole, its posters converted, then stored and published in one transaction: a refused
// file, or a poster that is not a picture, leaves everything as it was.

/** The file was refused: every bad row, with its field. Nothing was stored. */
export class CatalogueRefused extends Error {
  constructor(
    readonly problems: CsvProblem[],
    readonly more: number,
  ) {
    super(`the catalogue was refused (${problems.length + more} problem(s)); nothing changed`);
    this.name = "CatalogueRefused";
  }
}

/**
 * Publishes a change of the catalogue or media (an import, the rights statement, an uploaded
 * picture) on top of what is published now: a new version like any other publish, in the history.
 * The console's draft gets the same change, so publishing the draft later does not undo it.
 */
export function publishChange(
  tx: DbWriter,
  change: { apply: (document: ContentDocument) => ContentDocument; by: string; now: Date },
): PublishedVersion {
  const current = readPublished(tx);
  const published = publishIn(tx, {
    document: change.apply(current.document),
    openedVersion: current.version,
    by: change.by,
    now: change.now,
  });
  const draft = tx.select().from(contentDraft).where(eq(contentDraft.id, 1)).get();
  if (draft !== undefined) {
    const parsed = v.safeParse(ContentDocumentSchema, JSON.parse(draft.document));
    if (parsed.success && JSON.stringify(parsed.output) !== JSON.stringify(published.document))
      tx.update(contentDraft)
        .set({ document: JSON.stringify(change.apply(parsed.output)) })
        .where(eq(contentDraft.id, 1))
        .run();
  }
  return published;
}

export type ImportResult = { set: number; titles: number; postersConverted: number; version: number };

/**
 * Replaces the catalogue with a CSV file's titles. `posters`: the folder's (or zip's) files by
 * name; a row may also name a poster uploaded before. Converts at most two posters at once (the
 * machine's other core keeps serving).
 */
export async function importCatalogue(deps: {
  db: Db;
  write: Write;
  csv: string;
  posters: ReadonlyMap<string, Uint8Array>;
  by: string;
  now: Date;
  onProgress?: (done: number, total: number) => void;
}): Promise<ImportResult> {
  const { db, write, posters, by, now } = deps;
  const stored = postersByName(db);
  const read = readCatalogueCsv(deps.csv, (file) => posters.has(file) || stored.has(file), now.getUTCFullYear());
  if (!read.ok) throw new CatalogueRefused(read.problems, read.more);
  const titles = read.titles;

  // The files the rows name, each converted once, unless the same bytes are stored already.
  const wanted = new Map<string, number>();
  titles.forEach((t, i) => {
    if (t.posterFile !== null && posters.has(t.posterFile) && !wanted.has(t.posterFile)) wanted.set(t.posterFile, i + 2);
  });
  const storedIds = new Set(stored.values());
  const idOfFile = new Map<string, string>();
  const converted: Converted[] = [];
  const problems: CsvProblem[] = [];
  const queue = [...wanted.entries()];
  let done = 0;
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [file, row] = next;
      const bytes = posters.get(file);
      if (bytes === undefined) continue;
      const id = mediaIdOf(bytes);
      idOfFile.set(file, id);
      const known = storedIds.has(id) || readMediaInfo(db, [id]).size > 0;
      try {
        if (!known) converted.push(await convertPicture("poster", file, bytes));
      } catch (error) {
        if (!(error instanceof MediaRejected)) throw error;
        problems.push({ row, field: "poster", message: error.message });
      }
      deps.onProgress?.(++done, wanted.size);
    }
  };
  await Promise.all([worker(), worker()]);
  if (problems.length > 0)
    throw new CatalogueRefused(problems.sort((a, b) => a.row - b.row).slice(0, 50), Math.max(0, problems.length - 50));

  const posterId = (t: CsvTitle) => (t.posterFile === null ? null : (idOfFile.get(t.posterFile) ?? stored.get(t.posterFile) ?? null));
  return write((tx) => {
    storeMedia(tx, converted, now);
    const set = tx
      .insert(catalogueSets)
      .values({ titles: titles.length, createdAt: now, createdBy: by })
      .returning({ id: catalogueSets.id })
      .get();
    // In chunks: one statement per 500 rows keeps under SQLite's parameter limit.
    for (let i = 0; i < titles.length; i += 500) {
      tx.insert(catalogueTitles)
        .values(
          titles.slice(i, i + 500).map((t, j) => ({
            setId: set.id,
            position: i + j,
            name: t.name,
            kind: t.kind,
            year: t.year,
            category: t.category,
            posterId: posterId(t),
            featured: t.featured,
          })),
        )
        .run();
    }
    const published = publishChange(tx, { apply: (d) => ({ ...d, catalogue: { ...d.catalogue, set: set.id } }), by, now });
    return { set: set.id, titles: titles.length, postersConverted: converted.length, version: published.version };
  });
}

/** The titles of an imported set, in the file's order. */
export function readTitles(db: DbWriter, setId: number): CatalogueTitle[] {
  return db
    .select()
    .from(catalogueTitles)
    .where(eq(catalogueTitles.setId, setId))
    .orderBy(asc(catalogueTitles.position))
    .all()
    .map((row) => ({
      name: row.name,
      kind: kindOf(row.kind) ?? "film",
      year: row.year,
      category: row.category,
      poster: row.posterId,
      featured: row.featured,
    }));
}

export const latestSet = (db: DbWriter): number | null =>
  db
    .select({ id: max(catalogueSets.id) })
    .from(catalogueSets)
    .get()?.id ?? null;

/** The catalogue as every page of a process reads it, built once per published version. */
export type LoadedCatalogue = {
  titles: ShownTitle[];
  /** Each title's name folded for search, same order. */
  foldedNames: string[];
  categories: { name: string; count: number }[];
  wall: ShownTitle[];
};

export const EMPTY_CATALOGUE: LoadedCatalogue = { titles: [], foldedNames: [], categories: [], wall: [] };

export function loadCatalogue(db: DbWriter, setId: number | null, wallSize: number): LoadedCatalogue {
  if (setId === null) return EMPTY_CATALOGUE;
  const titles = readTitles(db, setId);
  const ids = [...new Set(titles.flatMap((t) => (t.poster === null ? [] : [t.poster])))];
  const info = readMediaInfo(db, ids);
  const pictures = new Map<string, Picture | null>();
  for (const [id, item] of info) pictures.set(id, pictureOf(item));
  const shown: ShownTitle[] = titles.map((t) => ({ ...t, poster: t.poster === null ? null : (pictures.get(t.poster) ?? null) }));
  const counts = new Map<string, number>();
  for (const t of shown) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
  return {
    titles: shown,
    foldedNames: shown.map((t) => folded(t.name)),
    categories: [...counts.entries()]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    // The wall shows posters: a featured title without one is listed, not put on the wall.
    wall: shown.filter((t) => t.featured && t.poster !== null).slice(0, wallSize),
  };
}
