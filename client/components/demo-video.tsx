import { LOCALE_TAGS, type Locale } from "../../shared/locales";
import type { AssetUrls } from "../../shared/page-data";

type DemoVideoProps = {
  poster: string;
  video: string;
  captions: AssetUrls["captions"];
  /** The page's language: its captions are shown, the others are a click away in the player's menu. */
  locale: Locale;
  /** `none` where the page opens with the player (the demo page), so that a visit that does not
   * press play downloads no video; `metadata` where it shows only once asked for (the dialog). */
  preload: "none" | "metadata";
  autoPlay?: boolean;
  /** The fallback's texts, for a browser that cannot play it: passed in, since the dialog (an island)
   * and the demo page (server HTML) read their texts in different ways. */
  unsupported: string;
  download: string;
};

/**
 * The demo video as both the landing page's dialog and the demo page show it. It draws no sentence
 * and has no sound: its captions, one track per language, tell what it shows.
 */
export function DemoVideo({ poster, video, captions, locale, preload, autoPlay = false, unsupported, download }: DemoVideoProps) {
  return (
    <video className="demo-video" controls autoPlay={autoPlay} playsInline preload={preload} poster={poster} width="1280" height="720">
      {/* The owner may upload WebM; its stored name says which. */}
      <source src={video} type={video.endsWith(".webm") ? "video/webm" : "video/mp4"} />
      {captions.map((track) => (
        <track
          key={track.locale}
          kind="captions"
          src={track.url}
          srcLang={track.locale}
          label={LOCALE_TAGS[track.locale].name}
          default={track.locale === locale}
        />
      ))}
      <p>
        {unsupported} <a href={video}>{download}</a>
      </p>
    </video>
  );
}
