import { asc, desc, eq, max } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../../db/client";
import { contentDraft, contentVersions, priceHistory } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { type ContentDocument, ContentDocumentSchema, changedPaths, defaultContent } from "../../../shared/content";

// The owner's content in the database (docs/decisions/018-owner-content.md): published versions,
// kept whole; the one draft the console edits; the prices charged. Version 0 is the defaults, not
// stored. Every change is one transaction, so two owners (or the console and the command line)
// never half-overwrite each other: a stale draft or publish is refused and nothing is lost.

export type PublishedVersion = {
  version: number;
  document: ContentDocument;
  /** null for version 0, the defaults. */
  publishedAt: Date | null;
  publishedBy: string;
  changes: string[];
  restoredFrom: number | null;
};

export type Draft = {
  document: ContentDocument;
  /** The published version the draft was opened from. */
  baseVersion: number;
  /** Counted up by every save: a page sends the one it was opened with. */
  revision: number;
  updatedAt: Date | null;
  updatedBy: string | null;
};

/** The content changed since it was opened (another owner, the command line): nothing was written. */
export class StaleContentError extends Error {
  constructor(
    readonly current: number,
    readonly opened: number,
  ) {
    super(`the content changed since it was opened (now version ${current}, opened at version ${opened})`);
    this.name = "StaleContentError";
  }
}

/** A publish that would change nothing. */
export class NothingToPublishError extends Error {
  constructor() {
    super("nothing changed since the published version");
    this.name = "NothingToPublishError";
  }
}

/** A version that does not exist (restore). */
export class UnknownVersionError extends Error {
  constructor(readonly version: number) {
    super(`there is no version ${version}`);
    this.name = "UnknownVersionError";
  }
}

// Stored documents were checked on the way in; read back, they are parsed again so that a row
// edited by hand (or by an older version) fails clearly rather than half-rendering a page.
const parseDocument = (json: string, where: string): ContentDocument => {
  const parsed = v.safeParse(ContentDocumentSchema, JSON.parse(json));
  if (!parsed.success) throw new Error(`${where}: stored content is not valid (${parsed.issues[0].message})`);
  return parsed.output;
};
const parseChanges = (json: string): string[] => v.parse(v.array(v.string()), JSON.parse(json));

const DEFAULTS_BY = "defaults";

export function currentVersionNumber(db: DbWriter): number {
  return (
    db
      .select({ version: max(contentVersions.version) })
      .from(contentVersions)
      .get()?.version ?? 0
  );
}

export function readVersion(db: DbWriter, version: number): PublishedVersion | null {
  if (version === 0)
    return { version: 0, document: defaultContent(), publishedAt: null, publishedBy: DEFAULTS_BY, changes: [], restoredFrom: null };
  const row = db.select().from(contentVersions).where(eq(contentVersions.version, version)).get();
  if (row === undefined) return null;
  return {
    version: row.version,
    document: parseDocument(row.document, `content version ${row.version}`),
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy,
    changes: parseChanges(row.changes),
    restoredFrom: row.restoredFrom,
  };
}

/** What the site shows now: the latest version (a restore is a new version too). */
export function readPublished(db: DbWriter): PublishedVersion {
  const version = currentVersionNumber(db);
  const found = readVersion(db, version);
  if (found === null) throw new Error(`content version ${version} vanished`);
  return found;
}

export type VersionSummary = Omit<PublishedVersion, "document">;

/** The history, newest first, version 0 last. */
export function listVersions(db: DbWriter, limit = 100): VersionSummary[] {
  const rows = db
    .select({
      version: contentVersions.version,
      publishedAt: contentVersions.publishedAt,
      publishedBy: contentVersions.publishedBy,
      changes: contentVersions.changes,
      restoredFrom: contentVersions.restoredFrom,
    })
    .from(contentVersions)
    .orderBy(desc(contentVersions.version))
    .limit(limit)
    .all();
  const listed: VersionSummary[] = rows.map((row) => ({ ...row, changes: parseChanges(row.changes) }));
  if (rows.length < limit) listed.push({ version: 0, publishedAt: null, publishedBy: DEFAULTS_BY, changes: [], restoredFrom: null });
  return listed;
}

export function readDraft(db: DbWriter): Draft {
  const row = db.select().from(contentDraft).where(eq(contentDraft.id, 1)).get();
  if (row === undefined) {
    const published = readPublished(db);
    return { document: published.document, baseVersion: published.version, revision: 0, updatedAt: null, updatedBy: null };
  }
  return {
    document: parseDocument(row.document, "content draft"),
    baseVersion: row.baseVersion,
    revision: row.revision,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

function writeDraft(tx: DbWriter, draft: Omit<Draft, "updatedAt" | "updatedBy">, by: string, now: Date): Draft {
  const row = {
    document: JSON.stringify(draft.document),
    baseVersion: draft.baseVersion,
    revision: draft.revision,
    updatedAt: now,
    updatedBy: by,
  };
  tx.insert(contentDraft)
    .values({ id: 1, ...row })
    .onConflictDoUpdate({ target: contentDraft.id, set: row })
    .run();
  return { ...draft, updatedAt: now, updatedBy: by };
}

/**
 * Saves the draft, when nobody saved it since the page sending it was opened (`openedRevision`);
 * otherwise StaleContentError, and the caller shows the owner their text again.
 */
export function saveDraft(
  write: Write,
  change: { openedRevision: number; document: ContentDocument; by: string; now: Date },
): Promise<Draft> {
  return write((tx) => {
    const draft = readDraft(tx);
    if (draft.revision !== change.openedRevision) throw new StaleContentError(draft.revision, change.openedRevision);
    return writeDraft(
      tx,
      { document: change.document, baseVersion: draft.baseVersion, revision: draft.revision + 1 },
      change.by,
      change.now,
    );
  });
}

/** The draft made the published content again (the owner's "discard my changes"). */
export function discardDraft(write: Write, by: string, now: Date): Promise<Draft> {
  return write((tx) => {
    const draft = readDraft(tx);
    const published = readPublished(tx);
    return writeDraft(tx, { document: published.document, baseVersion: published.version, revision: draft.revision + 1 }, by, now);
  });
}

/**
 * The one way content is published (console, import, restore, the environment's seed): a new
 * version when `openedVersion` is still the latest, else StaleContentError. Records the price
 * when it changed, and moves the draft on when it held nothing unpublished (or was what this
 * publishes).
 */
export function publishIn(
  tx: DbWriter,
  change: { document: ContentDocument; openedVersion: number; by: string; now: Date; restoredFrom?: number; draftRevision?: number },
): PublishedVersion {
  const current = readPublished(tx);
  if (current.version !== change.openedVersion) throw new StaleContentError(current.version, change.openedVersion);
  const changes = changedPaths(current.document, change.document);
  if (changes.length === 0 && change.restoredFrom === undefined) throw new NothingToPublishError();
  const version = current.version + 1;
  tx.insert(contentVersions)
    .values({
      version,
      document: JSON.stringify(change.document),
      publishedAt: change.now,
      publishedBy: change.by,
      changes: JSON.stringify(changes),
      restoredFrom: change.restoredFrom ?? null,
    })
    .run();
  recordPrice(tx, change.document, version, change.now);
  const draft = readDraft(tx);
  const draftWasPublished = change.draftRevision !== undefined && draft.revision === change.draftRevision;
  if (draftWasPublished || changedPaths(current.document, draft.document).length === 0)
    writeDraft(tx, { document: change.document, baseVersion: version, revision: draft.revision + 1 }, change.by, change.now);
  return {
    version,
    document: change.document,
    publishedAt: change.now,
    publishedBy: change.by,
    changes,
    restoredFrom: change.restoredFrom ?? null,
  };
}

export function publish(
  write: Write,
  change: { document: ContentDocument; openedVersion: number; by: string; now: Date },
): Promise<PublishedVersion> {
  return write((tx) => publishIn(tx, change));
}

/**
 * Publishes the draft, when it is the one the owner's page showed (`openedRevision`) and nobody
 * published since it was opened; otherwise StaleContentError and the draft stays as it is.
 */
export function publishDraft(write: Write, change: { openedRevision: number; by: string; now: Date }): Promise<PublishedVersion> {
  return write((tx) => {
    const draft = readDraft(tx);
    if (draft.revision !== change.openedRevision) throw new StaleContentError(draft.revision, change.openedRevision);
    return publishIn(tx, {
      document: draft.document,
      openedVersion: draft.baseVersion,
      by: change.by,
      now: change.now,
      draftRevision: draft.revision,
    });
  });
}

/**
 * The owner has seen what another publish changed and keeps their draft: it now counts as opened
 * from the latest version (its texts are unchanged), so the next publish replaces that version.
 */
export function rebaseDraft(write: Write, change: { openedRevision: number; by: string; now: Date }): Promise<Draft> {
  return write((tx) => {
    const draft = readDraft(tx);
    if (draft.revision !== change.openedRevision) throw new StaleContentError(draft.revision, change.openedRevision);
    return writeDraft(
      tx,
      { document: draft.document, baseVersion: currentVersionNumber(tx), revision: draft.revision + 1 },
      change.by,
      change.now,
    );
  });
}

/** Any earlier version, published again as a new one, in one step. */
export function restoreVersion(write: Write, change: { version: number; by: string; now: Date }): Promise<PublishedVersion> {
  return write((tx) => {
    const old = readVersion(tx, change.version);
    if (old === null) throw new UnknownVersionError(change.version);
    return publishIn(tx, {
      document: old.document,
      openedVersion: currentVersionNumber(tx),
      by: change.by,
      now: change.now,
      restoredFrom: change.version,
    });
  });
}

export type PriceCharged = { priceMinor: number; currency: string; since: Date };

/** The prices the site has charged, oldest first. */
export function readPriceHistory(db: DbWriter): PriceCharged[] {
  return db
    .select({ priceMinor: priceHistory.priceMinor, currency: priceHistory.currency, since: priceHistory.since })
    .from(priceHistory)
    .orderBy(asc(priceHistory.since), asc(priceHistory.id))
    .all();
}

function recordPrice(tx: DbWriter, document: ContentDocument, version: number, now: Date): void {
  const last = tx.select().from(priceHistory).orderBy(desc(priceHistory.since), desc(priceHistory.id)).limit(1).get();
  if (last !== undefined && last.priceMinor === document.offer.priceMinor && last.currency === document.offer.currency) return;
  tx.insert(priceHistory).values({ priceMinor: document.offer.priceMinor, currency: document.offer.currency, since: now, version }).run();
}

/**
 * At a start: the price shown is one the site charges from now on, when nothing is recorded yet
 * (a new shop, or one upgraded to this version): from the first start when that is known.
 */
export function recordFirstPrice(write: Write, since: Date): Promise<void> {
  return write((tx) => {
    if (tx.select({ id: priceHistory.id }).from(priceHistory).limit(1).get() !== undefined) return;
    const published = readPublished(tx);
    recordPrice(tx, published.document, published.version, since);
  });
}

/** The newest version's number, for the processes' look for a new publish (a read of one index). */
export const latestVersion = (db: Db): number => currentVersionNumber(db);
