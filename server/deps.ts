import type { Db } from "../db/client";
import type { Write } from "../db/writer";
import type { ConsoleBundleSource } from "./owner/console/bundle";
import type { Config } from "./platform/config";
import type { Drain } from "./platform/http/drain";
import type { RateLimitStore } from "./platform/http/rate-limit-store";
import type { Logger } from "./platform/log";
import type { BuildInfo } from "./platform/version";
import type { Analytics } from "./shop/analytics/service";
import type { Checkout } from "./shop/checkout/providers";
import type { SigningKeys } from "./shop/licenses/signing-keys";
import type { MailSender } from "./shop/mail/sender";
import type { Paperwork } from "./shop/paperwork/documents";
import type { AssetStore } from "./site/assets";
import type { ContentSource } from "./site/content/live";
import type { StaticPages } from "./site/pages/static-pages";
import type { Renderer } from "./site/render";

/** What every feature controller gets from the app: no globals; made by server/wiring.ts, for tests too. */
export type AppDeps = {
  config: Config;
  /** For reads; never blocked by another connection's write lock (WAL). */
  db: Db;
  /**
   * Every write goes through here: one transaction, waiting for another connection's lock without
   * holding up other requests, at most `config.dbBusyWaitMs`, then DatabaseBusyError (a 503).
   */
  write: Write;
  assets: AssetStore;
  /** The owner console's script and stylesheet (/admin/assets/): embedded in the executable, else bundled at first use. */
  consoleBundle: ConsoleBundleSource;
  log: Logger;
  /** Renders a page for one request (it reads the database or the request). */
  render: Renderer;
  /** The pages that are the same for every visitor, rendered and compressed once. */
  staticPages: StaticPages;
  /** The e-mail sender: told when a transaction has queued mail, so it goes out at once. */
  mailer: Pick<MailSender, "wake">;
  /** The rate limiters' counters, shared by every process on the data folder. */
  rateLimits: RateLimitStore;
  /** The payment provider this site uses, and what the success page remembers of its lookups. */
  checkout: Checkout;
  /** The Ed25519 keys that sign licence tokens and devices links (DATA_DIR/license-keys/). */
  licenseKeys: SigningKeys;
  /** Audience counting: beacons queued and written each second, checkouts' visits, daily totals. */
  analytics: Analytics;
  /**
   * Invoices, credit notes and the terms accepted, as PDFs (server/shop/paperwork/), and the secret
   * that keys their download links (the site's generated secret, as the rate limiters use it).
   */
  paperwork: { documents: Paperwork; linkSecret: string };
  /**
   * The owner's published content (name, price, offer, texts, FAQ): everything that quotes a fact
   * reads it here, never the environment. It follows publishes from any process.
   */
  content: ContentSource;
  /** The clock, replaceable in tests. */
  now: () => Date;
  /** This program's version, commit and date (/healthz, the console's footer). */
  build: BuildInfo;
  /** Set when the process stops: answers then close their connection (a replacing process takes the next). */
  drain: Drain;
  /** How long after a recovery request its batch is handled (ACCESS_BATCH_DELAY_MS; tests take a shorter one). */
  accessBatchDelayMs: number;
};
