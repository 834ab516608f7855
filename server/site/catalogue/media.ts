import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type Sharp from "sharp";
import type { Db } from "../../../db/client";
import { media, mediaFiles } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import type { MediaKind, Picture } from "../../../shared/catalogue";
import { errorText } from "../../../shared/error-text";
import { mp4DurationSeconds } from "../video-duration";

// The owner's pictures and video (docs/decisions/019-catalogue-and-media.md). A picture is checked
// (what it really is, its weight, its pixels) and converted once, at upload, with sharp (libvips)
// to the sizes and formats the pages use: AVIF and WebP at each width, a JPEG for the rest. What is
// stored is only what passed, all of it in one transaction, so a refused upload stores nothing.

/** A refused upload: the message says why, in words the owner can act on. */
export class MediaRejected extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "MediaRejected";
  }
}

export const MEDIA_MAX = {
  imageBytes: 15 * 1024 * 1024,
  videoBytes: 100 * 1024 * 1024,
  /** 40 megapixels: a 200-megapixel picture (or a small file that claims to be one, an "image bomb") is refused before it is decoded. */
  pixels: 40_000_000,
  side: 12_000,
} as const;

/** How a picture of each kind is cut: the widths made, and the shape when it is cropped to one. */
const PLANS: Record<Exclude<MediaKind, "video">, { widths: number[]; aspect: number | null; fallback: "jpeg"; minWidth: number }> = {
  // Posters are 2:3 (what studios and catalogues use), shown about 150 px wide: 1x and 2x screens.
  poster: { widths: [160, 320], aspect: 1.5, fallback: "jpeg", minWidth: 100 },
  preview: { widths: [640, 960, 1280], aspect: null, fallback: "jpeg", minWidth: 320 },
  // What link previews (Open Graph) expect: 1200×630, a JPEG every scraper reads.
  og: { widths: [1200], aspect: 630 / 1200, fallback: "jpeg", minWidth: 600 },
  "video-poster": { widths: [640, 1280], aspect: null, fallback: "jpeg", minWidth: 320 },
};

const FORMATS = ["jpeg", "png", "webp", "avif", "heif"] as const;
const isFormat = (format: string | undefined): boolean => FORMATS.some((f) => f === format);

export type StoredFile = { name: string; contentType: string; width: number | null; bytes: Uint8Array };
export type Converted = {
  id: string;
  kind: MediaKind;
  name: string;
  width: number | null;
  height: number | null;
  seconds: number | null;
  files: StoredFile[];
};

export const mediaIdOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

const megabytes = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

let sharpLoaded: Promise<typeof Sharp> | undefined;
/**
 * sharp, loaded at the first picture: a server that converts no picture starts without loading
 * libvips. In the compiled executable its native files come from inside the executable
 * (scripts/embedded-sharp.ts); a failure to load them is said to the owner and tried again at the
 * next picture.
 */
const loadSharp = (): Promise<typeof Sharp> => {
  sharpLoaded ??= import("sharp").then(
    (m) => m.default,
    (error: unknown) => {
      sharpLoaded = undefined;
      throw new PicturesUnavailable(errorText(error));
    },
  );
  return sharpLoaded;
};

/**
 * sharp (libvips) could not be loaded on this machine: said plainly to the owner with the reason
 * the system gave, and nothing stored.
 */
export class PicturesUnavailable extends Error {
  constructor(readonly cause: string) {
    super(
      `pictures cannot be converted on this server: its image library (sharp) did not load (${cause.split("\n")[0]}). If the temporary folder does not allow loading libraries (mounted noexec), start the site with TMPDIR set to one that does; videos and captions upload as they are`,
    );
    this.name = "PicturesUnavailable";
  }
}

/** What a video file really is, from its first bytes (never its name): MP4's `ftyp` box, WebM's EBML header. */
function videoTypeOf(bytes: Uint8Array): "video/mp4" | "video/webm" | null {
  if (bytes.length >= 12 && String.fromCharCode(...bytes.subarray(4, 8)) === "ftyp") return "video/mp4";
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "video/webm";
  return null;
}

/** A demo video, checked and stored as uploaded (browsers play MP4 and WebM as they are). */
export function acceptVideo(file: string, bytes: Uint8Array): Converted {
  if (bytes.byteLength > MEDIA_MAX.videoBytes)
    throw new MediaRejected(file, `is ${megabytes(bytes.byteLength)}: a video may weigh at most ${megabytes(MEDIA_MAX.videoBytes)}`);
  const type = videoTypeOf(bytes);
  if (type === null) throw new MediaRejected(file, "is not an MP4 or WebM video (whatever its name says): upload an MP4 or WebM file");
  const id = mediaIdOf(bytes);
  const seconds = type === "video/mp4" ? mp4DurationSeconds(bytes) : null;
  const ext = type === "video/mp4" ? "mp4" : "webm";
  return {
    id,
    kind: "video",
    name: file,
    width: null,
    height: null,
    seconds,
    files: [{ name: `${id}.${ext}`, contentType: type, width: null, bytes }],
  };
}

/** Reads a picture's header only: its real format and size, before anything decodes it. */
async function checkedPicture(file: string, bytes: Uint8Array, minWidth: number) {
  if (bytes.byteLength > MEDIA_MAX.imageBytes)
    throw new MediaRejected(file, `is ${megabytes(bytes.byteLength)}: a picture may weigh at most ${megabytes(MEDIA_MAX.imageBytes)}`);
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<ReturnType<typeof Sharp>["metadata"]>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new MediaRejected(file, "is not a picture: upload a JPEG, PNG, WebP or AVIF file");
  }
  if (!isFormat(meta.format)) throw new MediaRejected(file, `is a ${meta.format ?? "unknown"} file: upload a JPEG, PNG, WebP or AVIF file`);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (width === undefined || height === undefined) throw new MediaRejected(file, "has no readable size");
  if (width * height > MEDIA_MAX.pixels || width > MEDIA_MAX.side || height > MEDIA_MAX.side)
    throw new MediaRejected(
      file,
      `is ${width}×${height} pixels (${Math.round((width * height) / 1e6)} megapixels): at most ${MEDIA_MAX.pixels / 1e6} megapixels and ${MEDIA_MAX.side} pixels a side`,
    );
  if (width < minWidth) throw new MediaRejected(file, `is ${width} pixels wide: this picture needs at least ${minWidth}`);
  return { width, height };
}

/** A picture converted to every size and format its kind uses (nothing stored yet). */
export async function convertPicture(kind: Exclude<MediaKind, "video">, file: string, bytes: Uint8Array): Promise<Converted> {
  const sharp = await loadSharp();
  const plan = PLANS[kind];
  const size = await checkedPicture(file, bytes, plan.minWidth);
  const id = mediaIdOf(bytes);
  const files: StoredFile[] = [];
  const largest = plan.widths[plan.widths.length - 1] ?? size.width;
  let shownHeight = size.height;
  try {
    for (const wanted of plan.widths) {
      // Never enlarged: a small upload gives its own width.
      const width = Math.min(wanted, size.width);
      const height = plan.aspect === null ? Math.round((size.height * width) / size.width) : Math.round(width * plan.aspect);
      if (wanted === largest) shownHeight = height;
      const base = sharp(bytes, { limitInputPixels: MEDIA_MAX.pixels })
        .autoOrient()
        .resize(width, height, { fit: "cover", position: "attention" });
      const [avif, webp] = await Promise.all([
        // effort 3: about 4 times faster than the default for a few percent more bytes, so an import of thousands of posters ends in minutes.
        base.clone().avif({ quality: 50, effort: 3 }).toBuffer(),
        base.clone().webp({ quality: 72 }).toBuffer(),
      ]);
      files.push({ name: `${id}-${wanted}.avif`, contentType: "image/avif", width, bytes: avif });
      files.push({ name: `${id}-${wanted}.webp`, contentType: "image/webp", width, bytes: webp });
      if (wanted === largest) {
        const jpeg = await base.clone().flatten({ background: "#0b0d17" }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
        files.push({ name: `${id}-${wanted}.jpg`, contentType: "image/jpeg", width, bytes: jpeg });
      }
    }
  } catch {
    throw new MediaRejected(file, "could not be read as a picture (damaged or cut short): export it again and upload that");
  }
  const width = Math.min(largest, size.width);
  return { id, kind, name: file, width, height: shownHeight, seconds: null, files };
}

/** Stores converted media (a medium already stored is kept as it is: its bytes are the same). */
export function storeMedia(tx: DbWriter, converted: readonly Converted[], now: Date): void {
  for (const item of converted) {
    const exists = tx.select({ id: media.id }).from(media).where(eq(media.id, item.id)).get();
    if (exists !== undefined) {
      // The same bytes under another name: the CSV finds a poster by the name it was last given.
      tx.update(media).set({ name: item.name }).where(eq(media.id, item.id)).run();
      continue;
    }
    tx.insert(media)
      .values({
        id: item.id,
        kind: item.kind,
        name: item.name,
        width: item.width,
        height: item.height,
        seconds: item.seconds,
        createdAt: now,
      })
      .run();
    for (const file of item.files) {
      tx.insert(mediaFiles)
        .values({
          name: file.name,
          mediaId: item.id,
          contentType: file.contentType,
          width: file.width,
          size: file.bytes.byteLength,
          bytes: Buffer.from(file.bytes),
        })
        .run();
    }
  }
}

export type MediaInfo = {
  id: string;
  kind: MediaKind;
  name: string;
  width: number | null;
  height: number | null;
  seconds: number | null;
  createdAt: Date;
  files: { name: string; contentType: string; width: number | null; size: number }[];
};

const asKind = (kind: string): MediaKind => {
  switch (kind) {
    case "poster":
    case "preview":
    case "og":
    case "video":
    case "video-poster":
      return kind;
    default:
      throw new Error(`media: unknown kind ${kind}`);
  }
};

/** The media of these ids, with their files' names (not their bytes). */
export function readMediaInfo(db: DbWriter, ids: readonly string[]): Map<string, MediaInfo> {
  const found = new Map<string, MediaInfo>();
  if (ids.length === 0) return found;
  // In chunks: SQLite takes at most 32766 parameters in one statement.
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    for (const row of db.select().from(media).where(inArray(media.id, chunk)).all())
      found.set(row.id, { ...row, kind: asKind(row.kind), files: [] });
    const files = db
      .select({
        name: mediaFiles.name,
        mediaId: mediaFiles.mediaId,
        contentType: mediaFiles.contentType,
        width: mediaFiles.width,
        size: mediaFiles.size,
      })
      .from(mediaFiles)
      .where(inArray(mediaFiles.mediaId, chunk))
      .all();
    for (const file of files) found.get(file.mediaId)?.files.push(file);
  }
  return found;
}

/** The posters by the name they were uploaded with (the CSV's `poster` column); the newest wins. */
export function postersByName(db: DbWriter): Map<string, string> {
  const rows = db.select({ id: media.id, name: media.name, createdAt: media.createdAt }).from(media).where(eq(media.kind, "poster")).all();
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return new Map(rows.map((r) => [r.name, r.id]));
}

export const MEDIA_PREFIX = "/media/";
export const mediaUrl = (name: string) => `${MEDIA_PREFIX}${name}`;

/** A picture's sources for `<picture>`: AVIF and WebP at every width, the largest JPEG as fallback. */
export function pictureOf(info: MediaInfo): Picture | null {
  const srcset = (type: string) =>
    info.files
      .filter((f) => f.contentType === type && f.width !== null)
      .sort((a, b) => (a.width ?? 0) - (b.width ?? 0))
      .map((f) => `${mediaUrl(f.name)} ${f.width}w`)
      .join(", ");
  const fallback = info.files.find((f) => f.contentType === "image/jpeg");
  if (fallback === undefined || info.width === null || info.height === null) return null;
  return {
    avif: srcset("image/avif"),
    webp: srcset("image/webp"),
    fallback: mediaUrl(fallback.name),
    width: info.width,
    height: info.height,
  };
}

/** One stored file's bytes and type, by its public name; null when there is none. */
export function readMediaFile(db: Db, name: string): { contentType: string; bytes: Uint8Array<ArrayBuffer> } | null {
  const row = db
    .select({ contentType: mediaFiles.contentType, bytes: mediaFiles.bytes })
    .from(mediaFiles)
    .where(eq(mediaFiles.name, name))
    .get();
  return row === undefined ? null : { contentType: row.contentType, bytes: new Uint8Array(row.bytes) };
}

/** Every stored file of the posters named (the export). */
export function readMediaFilesOf(db: Db, mediaId: string): StoredFile[] {
  return db
    .select()
    .from(mediaFiles)
    .where(eq(mediaFiles.mediaId, mediaId))
    .all()
    .map((r) => ({ name: r.name, contentType: r.contentType, width: r.width, bytes: new Uint8Array(r.bytes) }));
}
