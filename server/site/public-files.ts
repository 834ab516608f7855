// Every file the site serves besides the client bundle. Imported `with { type: "file" }` so that
// `bun build --compile` embeds them in the executable; when run from source they are read from disk.

import preview640 from "../../public/app-preview-640.webp" with { type: "file" };
import preview960 from "../../public/app-preview-960.webp" with { type: "file" };
import preview1280 from "../../public/app-preview-1280.webp" with { type: "file" };
import appleTouchIcon from "../../public/apple-touch-icon.png" with { type: "file" };
import poster from "../../public/demo-poster.webp" with { type: "file" };
import video from "../../public/demo-video.mp4" with { type: "file" };
import favicon from "../../public/favicon.svg" with { type: "file" };
// Inter, subset to what the site's languages use (scripts/media/subset-font.sh).
import font from "../../public/inter-subset.woff2" with { type: "file" };
import ogImage from "../../public/og-image.jpg" with { type: "file" };

export const PUBLIC_FILES = {
  font: { path: font, name: "inter-subset", ext: "woff2" },
  appleTouchIcon: { path: appleTouchIcon, name: "apple-touch-icon", ext: "png" },
  preview640: { path: preview640, name: "app-preview-640", ext: "webp" },
  preview960: { path: preview960, name: "app-preview-960", ext: "webp" },
  preview1280: { path: preview1280, name: "app-preview-1280", ext: "webp" },
  poster: { path: poster, name: "demo-poster", ext: "webp" },
  video: { path: video, name: "demo-video", ext: "mp4" },
  favicon: { path: favicon, name: "favicon", ext: "svg" },
  ogImage: { path: ogImage, name: "og-image", ext: "jpg" },
} as const;
