import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openDb } from "../../db/client";
import type { Write } from "../../db/writer";
import type { AppDeps } from "../../server/deps";
import { buildConsoleFiles } from "../../server/owner/console/bundle";
import { digestListsReader } from "../../server/owner/digest/service";
import type { Config } from "../../server/platform/config";
import { type Compress, type Compressed, contentHash, createCompressor } from "../../server/platform/http/compress";
import { createLogger, type Logger } from "../../server/platform/log";
import type { StripeConnection } from "../../server/shop/checkout/stripe-provider";
import type { SigningKeys } from "../../server/shop/licenses/signing-keys";
import { mailLinks, openLicenseKeys } from "../../server/shop/licenses/tokens";
import { createMailSender, type MailSender } from "../../server/shop/mail/sender";
import type { MailTransport } from "../../server/shop/mail/transport";
import { createPaperwork } from "../../server/shop/paperwork/documents";
import { mailPaperwork } from "../../server/shop/paperwork/mail-paperwork";
import { type AssetStore, createAssetStore } from "../../server/site/assets";
import { buildClient, type ClientFile } from "../../server/site/client-build";
import { type ContentSource, openContent } from "../../server/site/content/live";
import { prepareContent } from "../../server/site/content/start";
import { type Site, wireSite, writerFor } from "../../server/wiring";
import { testConfig } from "./config";

/**
 * How long after a recovery request a test site handles its batch: still after the answer, as the
 * server's second (ACCESS_BATCH_DELAY_MS) is, without a test waiting that second for each batch.
 */
export const TEST_ACCESS_BATCH_DELAY_MS = 20;

/** The test sites' own secret (a server generates one into DATA_DIR): rate limits and invoice links. */
export const SITE_SECRET = "test-rate-limit-key";

let consoleOnce: Promise<ClientFile[]> | null = null;
/**
 * The console's files, bundled once per test run as the executable's build does once: a site
 * bundles them (and compresses them, about a tenth of a second of CPU) at its first console page.
 */
const sharedConsoleFiles = () => (consoleOnce ??= buildConsoleFiles());

const compressedOnce = new Map<string, Promise<Compressed>>();
const compressCached = createCompressor({ cacheDir: join(import.meta.dir, "..", "..", "node_modules", ".cache", "site-compressed") });
/**
 * What a server run from source compresses with (`compressBest`, its results kept on disk between
 * runs), each body once per test run: every test site serves the same console files and mostly
 * the same pages, compressed once rather than once per site.
 */
const testCompress: Compress = (body) => {
  const hash = contentHash(body);
  let compressed = compressedOnce.get(hash);
  if (compressed === undefined) {
    compressed = compressCached(body);
    compressedOnce.set(hash, compressed);
    // A failure is not kept: the next site compresses again.
    compressed.catch(() => compressedOnce.delete(hash));
  }
  return compressed;
};

let assetsOnce: Promise<AssetStore> | null = null;
/** The client bundle is built once per test run and shared: it is read-only. */
export const sharedAssets = () => (assetsOnce ??= buildClient().then((files) => createAssetStore(files, testCompress)));

let templateOnce: string | null = null;
/**
 * A database file migrated once per test process: a new test site starts from a copy of it, the
 * file `openDb` would have made (migrating a new file costs about 16 ms of CPU, hundreds of times
 * a run; a copy nothing). The copy still goes through `openDb`, which finds nothing to migrate.
 */
function migratedTemplate(): string {
  if (templateOnce !== null) return templateOnce;
  const dir = mkdtempSync(join(tmpdir(), "site-test-template-"));
  const path = join(dir, "site.db");
  // Closed: its write-ahead log is folded into the file, which alone is copied.
  openDb(path).$client.close();
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  templateOnce = path;
  return path;
}

export type TestSite = {
  app: Site["app"];
  db: Db;
  /** The site's writer (its own wait for another connection's lock: DB_BUSY_WAIT_MS). */
  write: Write;
  config: Config;
  /** The site's audience counting (flush its queue to see beacons in the database). */
  analytics: AppDeps["analytics"];
  /** The published content the site serves (it follows publishes: `content.refresh()` after one made by hand). */
  content: ContentSource;
  /** The site's payment provider (the test checkout's own calls, for a test that needs them). */
  checkout: AppDeps["checkout"];
  dataDir: string;
  logs: string[];
  /** The site's licence signing keys (in `dataDir`). */
  licenseKeys: SigningKeys;
  /** The e-mail sender, running when a transport was given (otherwise mail only queues). */
  mailer: MailSender | null;
  /** Sends a request through the app, without a port. */
  request: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
};

/**
 * A whole site, wired as the server wires it (server/wiring.ts), on a throwaway SQLite file in a
 * temporary directory; with `dataDir`, on that folder instead (left in place on close), as a second
 * server process sharing a folder would be. `stripeConnection` sends the Stripe SDK to a fake Stripe.
 */
export async function createTestSite(
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    log?: Logger;
    transport?: MailTransport;
    dataDir?: string;
    stripeConnection?: StripeConnection;
  } = {},
): Promise<TestSite> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "site-test-"));
  const loaded = testConfig(options.env ?? {}, dataDir);
  // A folder of the test's own may hold anything (an older database, none, a read-only one): only a
  // new one of ours starts from the migrated copy.
  if (options.dataDir === undefined) copyFileSync(migratedTemplate(), loaded.dbPath);
  const db = openDb(loaded.dbPath, { synchronous: loaded.sqliteSynchronous });
  const write = writerFor(db, loaded);
  const now = options.now ?? (() => new Date());
  const config = loaded;
  const logs: string[] = [];
  const log = options.log ?? createLogger("debug", (line) => logs.push(line));
  // As at a real start: the first start recorded (the default offer ends two weeks after it), the
  // environment's content seeded, the first price recorded.
  const firstStart = await prepareContent({ db, write, config, log, now: now() });
  const content = openContent({ db, settings: config.site, firstStartedAt: firstStart, log, now });
  const licenseKeys = openLicenseKeys(config, now);
  const links = mailLinks(licenseKeys, config.publicBaseUrl, now, SITE_SECRET);
  const paperwork = mailPaperwork({
    db,
    paperwork: createPaperwork({ db, config, content }),
    baseUrl: config.publicBaseUrl,
    secret: SITE_SECRET,
  });
  const mailer =
    options.transport === undefined
      ? null
      : createMailSender({
          db,
          write,
          config,
          log,
          transport: options.transport,
          now,
          links,
          paperwork,
          digestLists: digestListsReader(db, now, config.tls),
          content,
        });
  mailer?.start();
  const site = wireSite({
    config,
    db,
    log,
    assets: await sharedAssets(),
    consoleFiles: await sharedConsoleFiles(),
    compress: testCompress,
    mailer: mailer ?? { wake: () => {} },
    licenseKeys,
    rateLimitSecret: SITE_SECRET,
    content,
    now,
    stripeConnection: options.stripeConnection,
    accessBatchDelayMs: TEST_ACCESS_BATCH_DELAY_MS,
  });
  const { app } = site;
  return {
    app,
    mailer,
    db,
    write: site.deps.write,
    config,
    licenseKeys,
    checkout: site.deps.checkout,
    content,
    analytics: site.deps.analytics,
    dataDir,
    logs,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    close: async () => {
      await mailer?.stop();
      await site.close();
      db.$client.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
