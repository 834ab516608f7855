import type { Config } from "../platform/config";
import { jitAsUsual } from "../platform/engine-settings";
import type { Compress } from "../platform/http/compress";
import { configSecrets, createLogger } from "../platform/log";
import { startTrace } from "../platform/start-trace";
import { assetStoreFrom } from "../site/assets";
import { fixedContent, loadPublished } from "../site/content/live";
import { firstStartedAt } from "../site/offer";
import { staticPageRefs } from "../site/pages/controller";
import { createStaticPages } from "../site/pages/static-pages";
import { createDocumentRenderer } from "../site/render";
import { writerFor } from "../wiring";
import { dataOfFirstProcessExists, RENDER_COMMAND, receiveRenderRequest, sendRenderedPages, whenFirstProcessGone } from "./processes";
import { dbOrExit, type Embedded } from "./start-up";

/**
 * The page renderer: renders and compresses the pages the same for every visitor, with the first
 * process's configuration and client files, hands them over and is stopped. It reads the database
 * (the offer's end) and writes nothing.
 */
export async function renderForFirstProcess(loaded: Config, embedded: Embedded | undefined, compress: Compress): Promise<void> {
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded), fields: { process: RENDER_COMMAND } });
  whenFirstProcessGone(() => process.exit(0));
  // Rendering every page runs the same code many times over: the engine compiles it as usual.
  jitAsUsual();
  const urls = await receiveRenderRequest();
  // A request can arrive after the first process died and its data folder was deleted: never make it again.
  if (urls === null || !dataOfFirstProcessExists(loaded.dbPath)) process.exit(0);
  const db = dbOrExit(loaded, { create: false });
  const config = loaded;
  // The content published now; a publish meanwhile is the first process's to render again.
  const published = loadPublished(db, config.site, await firstStartedAt(writerFor(db, config), new Date(), db), new Date());
  db.$client.close();
  const documents = createDocumentRenderer({
    config,
    assets: assetStoreFrom({ urls, files: [] }),
    now: () => new Date(),
    content: fixedContent(published),
  });
  const staticPages = createStaticPages({ documents, log, config, prebuilt: embedded?.prebuilt?.pages ?? [], compress });
  await staticPages.warm(staticPageRefs(config));
  startTrace("pages rendered apart");
  sendRenderedPages(staticPages.finished());
}
