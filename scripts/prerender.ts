// Run by scripts/build.ts with React in production mode (as in the executable): compresses the
// client files (the site's and the console's) and renders and compresses the pages that are the same for every visitor, with the
// configuration of the build's environment, into one file the executable embeds (server/site/prebuilt.ts).
//   bun run --define 'process.env.NODE_ENV:"production"' scripts/prerender.ts CLIENT_DIR OUT_FILE [CONSOLE_DIR]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { consoleBundleFrom } from "../server/owner/console/bundle";
import { loadConfig } from "../server/platform/config";
import { ConfigError } from "../server/platform/config-error";
import { type Compressed, compressBest, contentHash } from "../server/platform/http/compress";
import { createLogger } from "../server/platform/log";
import { createAssetStore } from "../server/site/assets";
import { defaultContentSource } from "../server/site/content/live";
import { staticPageRefs } from "../server/site/pages/controller";
import { createStaticPages } from "../server/site/pages/static-pages";
import { encodePrebuilt } from "../server/site/prebuilt";
import type { PrebuiltPage } from "../server/site/prebuilt-page";
import { createDocumentRenderer } from "../server/site/render";

const [clientDir, outFile, consoleDir] = process.argv.slice(2);
if (clientDir === undefined || outFile === undefined) throw new Error("usage: prerender.ts CLIENT_DIR OUT_FILE [CONSOLE_DIR]");

const filesOf = (dir: string) => readdirSync(dir).map((name) => ({ name, body: new Uint8Array(readFileSync(join(dir, name))) }));
const compressed = new Map<string, Compressed>();
const remember = async (body: Uint8Array) => {
  const made = await compressBest(body);
  compressed.set(contentHash(body), made);
  return made;
};
const assets = await createAssetStore(filesOf(clientDir), remember);
if (consoleDir !== undefined) await consoleBundleFrom(filesOf(consoleDir), remember);

let pages: PrebuiltPage[] = [];
let note = "";
try {
  const config = loadConfig();
  const log = createLogger("warn");
  const staticPages = createStaticPages({
    documents: createDocumentRenderer({ config, assets, now: () => new Date(), content: defaultContentSource(config.site) }),
    log,
    config,
  });
  const made = await staticPages.warm(staticPageRefs(config));
  if (made.failed > 0) throw new Error(`${made.failed} pages failed to render`);
  pages = staticPages.finished();
  note = `, ${pages.length} pages for ${config.publicBaseUrl}`;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The build does not need the site's configuration: the executable then renders its pages at start-up.
  note = ` and no pages (${error.message})`;
}

writeFileSync(outFile, encodePrebuilt({ compressed, pages }));
console.log(`prerendered ${compressed.size} compressed files${note}`);
