import * as v from "valibot";
import type { LocaleTexts } from "./content";

// The app's catalogue and the owner's pictures (docs/catalogue.md): one shape for the console, the
// command line, the store and the pages. A catalogue is imported whole (a CSV of thousands of
// titles); the published content names the imported set it shows, so an import is a publish like
// any other and a restore brings an older catalogue back.

/** What a title is; the pages name each kind in their language (locales: catalogue.kind.*). */
export const TITLE_KINDS = ["film", "series", "channel", "documentary", "show", "sport", "kids"] as const;
export type TitleKind = (typeof TITLE_KINDS)[number];

/** Words an owner may write in the CSV's `kind` column for each kind, in any of the four languages. */
const KIND_WORDS: Record<TitleKind, readonly string[]> = {
  film: ["film", "movie", "films", "movies", "película", "pelicula"],
  series: ["series", "serie", "série", "tv series", "show series", "séries"],
  channel: ["channel", "chaîne", "chaine", "canale", "canal", "live"],
  documentary: ["documentary", "documentaire", "documentario", "documental", "doc"],
  show: ["show", "émission", "emission", "programma", "programa", "tv show"],
  sport: ["sport", "sports", "deporte", "deportes"],
  kids: ["kids", "enfants", "jeunesse", "bambini", "niños", "ninos", "infantil"],
};

export function kindOf(word: string): TitleKind | null {
  const lower = word.trim().toLowerCase();
  for (const kind of TITLE_KINDS) if (kind === lower || KIND_WORDS[kind].includes(lower)) return kind;
  return null;
}

export const CATALOGUE_LIMITS = {
  titles: 20_000,
  name: 120,
  category: 60,
  rights: 2000,
  /** Without a `featured` column, the file's first rows are the poster wall. */
  featuredByDefault: 24,
  /** The landing page's poster wall shows at most this many. */
  wall: 24,
  /** Titles on one catalogue page (the rest behind "next"). */
  pageSize: 120,
  search: 80,
} as const;

/** One title, as the pages and the export read it. `poster`: the medium's id (media.id), or null. */
export type CatalogueTitle = {
  name: string;
  kind: TitleKind;
  year: number | null;
  category: string;
  poster: string | null;
  featured: boolean;
};

/** The catalogue's part of the published content: the imported set it shows and the rights statement. */
export type CatalogueContent = {
  /** The imported set (catalogue_sets.id) the site shows; null: none yet. */
  set: number | null;
  /** Where the content comes from (licences, partners), per language; shown beside the catalogue. */
  rights: LocaleTexts;
  /**
   * The owner confirmed the built-in claims ("every film and series", the comparison's rows) are
   * true of their app, or changed them: production's checklist asks until then.
   */
  claimsConfirmed: boolean;
};

/** The pictures and video the owner uploaded in place of the build's, by the medium's id; null: the build's. */
export type MediaSlots = {
  previewPhone: string | null;
  previewTablet: string | null;
  previewComputer: string | null;
  og: string | null;
  video: string | null;
  videoPoster: string | null;
};
export const MEDIA_SLOTS = ["previewPhone", "previewTablet", "previewComputer", "og", "video", "videoPoster"] as const;

export const emptyCatalogueContent = (): CatalogueContent => ({ set: null, rights: {}, claimsConfirmed: false });
export const emptyMediaSlots = (): MediaSlots => ({
  previewPhone: null,
  previewTablet: null,
  previewComputer: null,
  og: null,
  video: null,
  videoPoster: null,
});

/** A medium's id: the first 16 hex digits of the SHA-256 of the uploaded bytes. */
export const MEDIA_ID = /^[0-9a-f]{16}$/;
const mediaId = v.nullable(v.pipe(v.string(), v.regex(MEDIA_ID, "must be a medium's id (16 hex digits)")));

export const MediaSlotsSchema = v.object({
  previewPhone: mediaId,
  previewTablet: mediaId,
  previewComputer: mediaId,
  og: mediaId,
  video: mediaId,
  videoPoster: mediaId,
});

/** What kind of file a medium is: how it is checked and which sizes are made of it. */
export const MEDIA_KINDS = ["poster", "preview", "og", "video", "video-poster"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** A picture as the pages use it: the browser picks the format it reads and the width it needs. */
export type Picture = {
  avif: string;
  webp: string;
  /** The fallback for browsers without AVIF or WebP. */
  fallback: string;
  width: number;
  height: number;
};

/** A title as a page shows it: its poster's sources made ready. */
export type ShownTitle = Omit<CatalogueTitle, "poster"> & { poster: Picture | null };

/** What the landing page and the catalogue pages receive. */
export type CatalogueFacts = {
  /** Titles in the catalogue. */
  total: number;
  /** Titles per category, largest first. */
  categories: { name: string; count: number }[];
  /** The poster wall (at most CATALOGUE_LIMITS.wall). */
  wall: ShownTitle[];
  /** The rights statement in the page's language; null when the owner wrote none in it. */
  rights: string | null;
};

/** The catalogue page's search, from its query string (GET form: works without JavaScript). */
export type CatalogueSearch = { q: string; category: string; page: number };

export const CatalogueSearchSchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(CATALOGUE_LIMITS.search)), ""),
  category: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(CATALOGUE_LIMITS.category)), ""),
  page: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/),
      v.transform(Number),
      v.check((n) => n >= 1),
    ),
    "1",
  ),
});

/** Folded for search: lower case, accents removed ("Amélie" is found by "amelie"). */
export const folded = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

/** One page of results of the catalogue page. */
export type CatalogueResults = {
  search: CatalogueSearch;
  /** Titles matching, on all pages. */
  found: number;
  pages: number;
  titles: ShownTitle[];
};

/** The titles matching a search, one page of them (`titles` already folded by `foldedNames`). */
export function searchTitles<T extends { name: string; category: string }>(
  titles: readonly T[],
  foldedNames: readonly string[],
  search: CatalogueSearch,
): { found: number; pages: number; page: T[] } {
  const q = folded(search.q);
  const matches: T[] = [];
  for (let i = 0; i < titles.length; i++) {
    const title = titles[i];
    if (title === undefined) continue;
    if (search.category !== "" && title.category !== search.category) continue;
    if (q !== "" && !(foldedNames[i] ?? "").includes(q)) continue;
    matches.push(title);
  }
  const size = CATALOGUE_LIMITS.pageSize;
  const pages = Math.max(1, Math.ceil(matches.length / size));
  const start = (Math.min(search.page, pages) - 1) * size;
  return { found: matches.length, pages, page: matches.slice(start, start + size) };
}

/** One timed line of the demo video's captions, in seconds from the start. */
export type CaptionCue = { start: number; end: number; text: string };
/** The owner's captions of the uploaded demo video, per language (a language without lines has none). */
export type DemoCaptions = Partial<Record<"fr" | "en" | "it" | "es", CaptionCue[]>>;

export const CAPTION_LIMITS = { cues: 400, text: 200, seconds: 6 * 3600 } as const;

const CaptionCueSchema = v.pipe(
  v.object({
    start: v.pipe(v.number(), v.minValue(0), v.maxValue(CAPTION_LIMITS.seconds)),
    end: v.pipe(v.number(), v.minValue(0), v.maxValue(CAPTION_LIMITS.seconds)),
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(CAPTION_LIMITS.text)),
  }),
  v.check((cue) => cue.end > cue.start, "a line must end after it starts"),
);
const cueList = v.optional(v.pipe(v.array(CaptionCueSchema), v.maxLength(CAPTION_LIMITS.cues)));
export const DemoCaptionsSchema = v.object({ fr: cueList, en: cueList, it: cueList, es: cueList });
