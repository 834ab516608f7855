import type { DbWriter } from "../../../db/writer";
import { type DemoCaptions, MEDIA_SLOTS, type MediaSlots, type Picture } from "../../../shared/catalogue";
import { LOCALES, type Locale } from "../../../shared/locales";
import type { AssetUrls } from "../../../shared/page-data";
import { captionsFileName, captionsVtt } from "./captions";
import { type MediaInfo, mediaUrl, pictureOf, readMediaInfo } from "./media";

// The owner's uploaded pictures and video in place of the build's: the app's screenshots, the link
// preview (Open Graph) picture, the demo video and its poster. Without an upload, a slot keeps the
// executable's built-in file, what a fresh install shows.

export type LoadedMedia = {
  previewPhone: Picture | null;
  previewTablet: Picture | null;
  previewComputer: Picture | null;
  og: string | null;
  video: { url: string; seconds: number | null; type: string } | null;
  videoPoster: Picture | null;
  /** The owner's captions of the uploaded video, one WebVTT file per language that has lines. */
  captions: { locale: Locale; url: string; vtt: string }[];
};

export const EMPTY_MEDIA: LoadedMedia = {
  previewPhone: null,
  previewTablet: null,
  previewComputer: null,
  og: null,
  video: null,
  videoPoster: null,
  captions: [],
};

const largestOf = (info: MediaInfo, type: string) =>
  info.files.filter((f) => f.contentType === type).sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0];

export function loadMediaSlots(db: DbWriter, slots: MediaSlots, captions: DemoCaptions = {}): LoadedMedia {
  const ids = MEDIA_SLOTS.flatMap((slot) => {
    const id = slots[slot];
    return id === null ? [] : [id];
  });
  const info = readMediaInfo(db, ids);
  const of = (slot: keyof MediaSlots) => {
    const id = slots[slot];
    return id === null ? undefined : info.get(id);
  };
  const picture = (slot: keyof MediaSlots) => {
    const found = of(slot);
    return found === undefined ? null : pictureOf(found);
  };
  const og = of("og");
  const ogFile = og === undefined ? undefined : largestOf(og, "image/jpeg");
  const video = of("video");
  const videoFile = video?.files[0];
  return {
    previewPhone: picture("previewPhone"),
    previewTablet: picture("previewTablet"),
    previewComputer: picture("previewComputer"),
    og: ogFile === undefined ? null : mediaUrl(ogFile.name),
    video:
      video === undefined || videoFile === undefined
        ? null
        : { url: mediaUrl(videoFile.name), seconds: video.seconds, type: videoFile.contentType },
    videoPoster: picture("videoPoster"),
    captions: LOCALES.flatMap((locale) => {
      const cues = captions[locale];
      if (cues === undefined || cues.length === 0) return [];
      const vtt = captionsVtt(cues);
      return [{ locale, url: mediaUrl(captionsFileName(locale, vtt)), vtt }];
    }),
  };
}

/** The first URL of a srcset at the width closest above `width`. */
function srcAt(srcset: string, width: number): string | undefined {
  const entries = srcset
    .split(", ")
    .map((part) => {
      const [url, w] = part.split(" ");
      return { url: url ?? "", w: Number.parseInt(w ?? "0", 10) };
    })
    .filter((e) => e.url !== "");
  return (entries.find((e) => e.w >= width) ?? entries[entries.length - 1])?.url;
}

/** The build's asset addresses with the owner's uploads in their place. */
export function withOwnerMedia(urls: AssetUrls, loaded: LoadedMedia): AssetUrls {
  const out = { ...urls };
  const computer = loaded.previewComputer;
  if (computer !== null) {
    out.preview640 = srcAt(computer.webp, 640) ?? out.preview640;
    out.preview960 = srcAt(computer.webp, 960) ?? out.preview960;
    out.preview1280 = srcAt(computer.webp, 1280) ?? out.preview1280;
  }
  if (loaded.og !== null) out.ogImage = loaded.og;
  if (loaded.videoPoster !== null) out.poster = srcAt(loaded.videoPoster.webp, 1280) ?? out.poster;
  if (loaded.video !== null) {
    out.video = loaded.video.url;
    out.videoSeconds = loaded.video.seconds;
    // The build's captions describe the build's video: the owner's video has only the owner's.
    out.captions = loaded.captions.map(({ locale, url }) => ({ locale, url }));
  }
  return out;
}
