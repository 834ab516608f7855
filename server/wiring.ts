import type { Db } from "../db/client";
import { createWriter } from "../db/writer";
import { createApp } from "./app";
import type { AppDeps } from "./deps";
import { consoleBundleSource } from "./owner/console/bundle";
import type { Config } from "./platform/config";
import type { Compress } from "./platform/http/compress";
import { createDrain } from "./platform/http/drain";
import { openRateLimitStore, rateLimitDbPath } from "./platform/http/rate-limit-store";
import type { Logger } from "./platform/log";
import { type BuildInfo, currentBuild } from "./platform/version";
import { createAnalytics } from "./shop/analytics/service";
import { createCheckout } from "./shop/checkout/providers";
import type { StripeConnection } from "./shop/checkout/stripe-provider";
import { ACCESS_BATCH_DELAY_MS } from "./shop/licenses/controller";
import type { SigningKeys } from "./shop/licenses/signing-keys";
import { createPaperwork } from "./shop/paperwork/documents";
import type { AssetStore } from "./site/assets";
import type { ClientFile } from "./site/client-build";
import type { ContentSource } from "./site/content/live";
import { createStaticPages } from "./site/pages/static-pages";
import type { PrebuiltPage } from "./site/prebuilt-page";
import { createDocumentRenderer, createRenderer } from "./site/render";

/** What a process brings to the site: its configuration, database, files and e-mail sender. */
export type SiteParts = {
  config: Config;
  db: Db;
  log: Logger;
  assets: AssetStore;
  /** The console's files as the build made them (the executable's); without them, bundled from client/admin/ at first use. */
  consoleFiles?: readonly ClientFile[];
  mailer: AppDeps["mailer"];
  /** The owner's published content, opened by the process (server/site/content/live.ts). */
  content: ContentSource;
  /** The licence signing keys (DATA_DIR/license-keys/), opened by the process before the site. */
  licenseKeys: SigningKeys;
  /**
   * Keys the rate limiters' counters of client addresses and the invoices' download links: the
   * site's own secret (server/shop/leads/service.ts: loadIpHashSecret).
   */
  rateLimitSecret: string;
  now?: () => Date;
  /** Pages made ahead (the build's, the first process's): used when their page data matches. */
  prebuilt?: readonly PrebuiltPage[];
  compress?: Compress;
  /** Where the Stripe SDK sends its requests: Stripe's API unless given (tests give a fake one on loopback). */
  stripeConnection?: StripeConnection;
  /** The executable's version, commit and date; run from source, read from git. */
  build?: BuildInfo;
  /** How long after a recovery request its batch is handled: ACCESS_BATCH_DELAY_MS unless given (the tests' is shorter). */
  accessBatchDelayMs?: number;
};

export type Site = {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /**
   * Closes what the wiring opened (the rate limiters' store, the analytics queue, whose last rows it
   * writes); the database and mailer are the caller's.
   */
  close(): Promise<void>;
  /**
   * Stops answering without refusing a request: connections closed after their next answer for a
   * moment (platform/http/drain.ts), then the port let go once the requests still running are answered.
   */
  stop(): Promise<void>;
};

/** Writes wait for another connection's lock at most DB_BUSY_WAIT_MS (db/writer.ts); the writer keeps no state. */
export const writerFor = (db: Db, config: Config) => createWriter(db, { waitMs: config.dbBusyWaitMs });

/**
 * The whole site wired from its parts: every dependency the controllers get (AppDeps) and the app
 * built on them. The server's processes and the tests all build their site here.
 */
export function wireSite(parts: SiteParts): Site {
  const { config, db, log, assets, mailer, content } = parts;
  const now = parts.now ?? (() => new Date());
  const write = writerFor(db, config);
  const documents = createDocumentRenderer({ config, assets, now, content });
  const staticPages = createStaticPages({ documents, log, config, prebuilt: parts.prebuilt, compress: parts.compress });
  const render = createRenderer({ config, assets, log, now, content });
  const rateLimits = openRateLimitStore(rateLimitDbPath(config.dataDir), { log, secret: parts.rateLimitSecret });
  const checkout = createCheckout({ config, db, write, now, content }, parts.stripeConnection);
  const analytics = createAnalytics({ config, db, write, log, now }, { timer: true });
  const deps: AppDeps = {
    config,
    db,
    write,
    assets,
    consoleBundle: consoleBundleSource(parts.consoleFiles, parts.compress),
    log,
    render,
    staticPages,
    mailer,
    rateLimits,
    checkout,
    licenseKeys: parts.licenseKeys,
    analytics,
    paperwork: { documents: createPaperwork({ db, config, content }), linkSecret: parts.rateLimitSecret },
    content,
    now,
    build: currentBuild(parts.build),
    drain: createDrain(),
    accessBatchDelayMs: parts.accessBatchDelayMs ?? ACCESS_BATCH_DELAY_MS,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    stop: async () => {
      await deps.drain.begin();
      await app.stop();
    },
    close: async () => {
      await analytics.stop();
      rateLimits.close();
    },
  };
}
