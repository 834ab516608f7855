import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "../../db/client";
import { createWriter, type Write } from "../../db/writer";
import { createApp } from "../../server/app";
import { buildClient, createAssetStore, type AssetStore } from "../../server/site/assets";
import { testConfig, type Config } from "../../server/platform/config";
import { openRateLimitStore, rateLimitDbPath } from "../../server/platform/http/rate-limit-store";
import { createLogger, type Logger } from "../../server/platform/log";
import type { SigningKeys } from "../../server/shop/licenses/signing-keys";
import { mailLinks, openLicenseKeys } from "../../server/shop/licenses/tokens";
import { createMailSender, type MailSender } from "../../server/shop/mail/sender";
import type { MailTransport } from "../../server/shop/mail/transport";
import { withOfferEnd } from "../../server/site/offer";
import { createStaticPages } from "../../server/site/pages/static-pages";
import { createDocumentRenderer, createRenderer } from "../../server/site/render";

let assetsOnce: Promise<AssetStore> | null = null;
/** The client bundle is built once per test run and shared: it is read-only. */
export const sharedAssets = () => (assetsOnce ??= buildClient().then(createAssetStore));

export type TestSite = {
  app: ReturnType<typeof createApp>;
  db: Db;
  /** The site's writer (its own wait for another connection's lock: DB_BUSY_WAIT_MS). */
  write: Write;
  config: Config;
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
 * A whole site on a throwaway SQLite file in a temporary directory; with `dataDir`, on that folder
 * instead (left in place on close), as a second server process sharing a folder would be.
 */
export async function createTestSite(
  options: { env?: Record<string, string>; now?: () => Date; log?: Logger; transport?: MailTransport; dataDir?: string } = {},
): Promise<TestSite> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "site-test-"));
  const loaded = testConfig(options.env ?? {}, dataDir);
  const db = openDb(loaded.dbPath, { synchronous: loaded.sqliteSynchronous });
  const write = createWriter(db, { waitMs: loaded.dbBusyWaitMs });
  const now = options.now ?? (() => new Date());
  // As at a real start: without OFFER_ENDS_AT, the offer ends two weeks after the folder's first start.
  const config = await withOfferEnd(loaded, write, now(), db);
  const logs: string[] = [];
  const log = options.log ?? createLogger("debug", (line) => logs.push(line));
  const assets = await sharedAssets();
  const render = createRenderer({ config, assets, log, now });
  const staticPages = createStaticPages({ documents: createDocumentRenderer({ config, assets, now }), log, config });
  const licenseKeys = openLicenseKeys(config, now);
  const links = mailLinks(licenseKeys, config.publicBaseUrl, now);
  const mailer =
    options.transport === undefined ? null : createMailSender({ db, write, config, log, transport: options.transport, now, links });
  mailer?.start();
  const rateLimits = openRateLimitStore(rateLimitDbPath(config.dataDir), { log, secret: "test-rate-limit-key" });
  const app = createApp({
    config,
    db,
    write,
    assets,
    log,
    render,
    staticPages,
    mailer: mailer ?? { wake: () => {} },
    rateLimits,
    licenseKeys,
    now,
  });
  return {
    app,
    licenseKeys,
    mailer,
    db,
    write,
    config,
    dataDir,
    logs,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    close: async () => {
      await mailer?.stop();
      db.$client.close();
      rateLimits.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
