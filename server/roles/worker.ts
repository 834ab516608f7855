import { errorText } from "../../shared/error-text";
import type { Config } from "../platform/config";
import { jitAsUsual } from "../platform/engine-settings";
import type { Compress } from "../platform/http/compress";
import { listenShared } from "../platform/http/listen";
import { configSecrets, createLogger } from "../platform/log";
import { startTrace } from "../platform/start-trace";
import { currentBuild } from "../platform/version";
import { loadIpHashSecret } from "../shop/leads/service";
import { openLicenseKeys } from "../shop/licenses/tokens";
import { assetStoreFrom } from "../site/assets";
import { openContent, renderAfterPublish } from "../site/content/live";
import { firstStartedAt } from "../site/offer";
import { staticPageRefs } from "../site/pages/controller";
import { tlsPendingPage } from "../site/tls-pending-page";
import { wireSite, writerFor } from "../wiring";
import {
  dataOfFirstProcessExists,
  onCertificateChanged,
  receiveWorkerStart,
  wakeMailerOfFirstProcess,
  whenFirstProcessGone,
} from "./processes";
import { dbOrExit, type Embedded } from "./start-up";

/**
 * A second (third…) process: serves the first process's pages and files on its port, sends no e-mail.
 * The console's files it takes from the executable (or bundles from source) itself: the same bytes
 * as the first process's, so a page from one process names a script the other serves.
 */
export async function serveAsWorker(loaded: Config, worker: number, compress: Compress, embedded?: Embedded): Promise<void> {
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded), fields: { worker } });
  const stopped = new Promise<string>((resolve) => {
    // Ctrl-C in a terminal reaches every process of the group; the first process also sends SIGTERM.
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
    whenFirstProcessGone(() => resolve("first process gone"));
  });
  const start = await Promise.race([receiveWorkerStart(), stopped.then(() => null)]);
  if (start === null || !dataOfFirstProcessExists(loaded.dbPath)) process.exit(0);

  const db = dbOrExit(loaded, { create: false });
  const config = loaded;
  // The first process recorded the first start before starting this one: this only reads it.
  const content = openContent({
    db,
    settings: config.site,
    firstStartedAt: await firstStartedAt(writerFor(db, config), new Date(), db),
    log,
    now: () => new Date(),
  });
  const site = wireSite({
    config,
    db,
    log,
    assets: assetStoreFrom(start.assets),
    consoleFiles: embedded?.console,
    prebuilt: start.pages,
    compress,
    mailer: { wake: wakeMailerOfFirstProcess },
    licenseKeys: openLicenseKeys(config, () => new Date()),
    rateLimitSecret: loadIpHashSecret(config.ipHashSecret, config.dataDir),
    content,
    build: currentBuild(embedded?.build),
  });
  // DOMAIN set: the HTTP and HTTPS ports, with the certificate the first process keeps in DATA_DIR/tls/.
  // Loaded only then: the ACME client and its certificate code are about 1 MB a plain start skips.
  const https =
    config.tls !== null
      ? await (await import("../platform/tls/start")).joinHttpsSite({
          app: site.app,
          config,
          settings: config.tls,
          log,
          pendingPage: tlsPendingPage(content.current().site.name),
        })
      : null;
  if (https !== null)
    onCertificateChanged(() => {
      https.reload().catch((error: unknown) => log.error("the new HTTPS certificate could not be served", { error: errorText(error) }));
    });
  const server = https !== null ? { port: start.port } : listenShared(site.app, { ...config, port: start.port }, "join");
  startTrace("worker listening");
  jitAsUsual();
  log.info("worker listening", { port: server.port, pages: start.pages.length, content: content.current().version });
  // A publish the first process's pages predate (made meanwhile) or a later one: rendered here.
  const refs = staticPageRefs(config);
  renderAfterPublish(content, () => site.deps.staticPages.warm(refs), log);
  content.watch();

  const reason = await stopped;
  content.stop();
  log.info("worker stopping", { reason });
  // Asked to stop: let connections go without refusing a request. The first process gone: at once.
  if (reason === "first process gone") await Promise.all([site.app.stop(), https?.site.http.stop(true)]);
  else await Promise.all([site.stop(), https?.site.stopHttp()]);
  await site.close();
  db.$client.close();
  process.exit(0);
}
