import { basename, join } from "node:path";
import { isBusyError } from "../../db/writer";
import { errorText } from "../../shared/error-text";
import { startDigests } from "../owner/digest/job";
import { digestListsReader } from "../owner/digest/service";
import { readIdentity, restoredCopyReason } from "../platform/backup/identity";
import { describeTarget } from "../platform/backup/settings";
import { replicatorFor } from "../platform/backup/start";
import { readReplicationStatus } from "../platform/backup/status";
import type { Config } from "../platform/config";
import { jitAsUsual } from "../platform/engine-settings";
import type { Compress } from "../platform/http/compress";
import { STOP_DEADLINE_MS } from "../platform/http/drain";
import { isAddressInUse, isEveryAddress, listeningUrl, listenShared } from "../platform/http/listen";
import { ensureRequestMigration, MIGRATE_REQ_COMMAND } from "../platform/http/migrate-requests";
import { configSecrets, createLogger } from "../platform/log";
import { contentWarnings, startupWarnings } from "../platform/production-readiness";
import { forgetRunningServer, type RunningServer, recordRunningServer, runningServer } from "../platform/running-server";
import { startTrace } from "../platform/start-trace";
import { unwritableDataDir } from "../platform/storage-check";
import { httpsListeningText } from "../platform/tls/settings";
import { currentBuild } from "../platform/version";
import { startRollUps } from "../shop/analytics/jobs";
import { deleteExpiredAnalytics } from "../shop/analytics/retention";
import { openVisitorKeys } from "../shop/analytics/visitor-keys";
import { loadIpHashSecret } from "../shop/leads/service";
import { mailLinks, openLicenseKeys } from "../shop/licenses/tokens";
import { createMailSender } from "../shop/mail/sender";
import { createFileTransport, createSmtpTransport } from "../shop/mail/transport";
import { createPaperwork } from "../shop/paperwork/documents";
import { mailPaperwork } from "../shop/paperwork/mail-paperwork";
import { startRetention } from "../shop/privacy/retention";
import { startReviewChecks } from "../shop/reviews/invites";
import { createAssetStore } from "../site/assets";
import { buildClientCached } from "../site/client-build";
import { openContent, publishedFacts, renderAfterPublish } from "../site/content/live";
import { prepareContent } from "../site/content/start";
import { staticPageRefs } from "../site/pages/controller";
import { readPageCache, writePageCache } from "../site/pages/page-cache";
import { tlsPendingPage } from "../site/tls-pending-page";
import { type Site, wireSite, writerFor } from "../wiring";
import { renderPagesApart, startWorkers, type Workers } from "./processes";
import { dbOrExit, type Embedded } from "./start-up";

/**
 * The first (or only) server process: migrates the database, runs the e-mail sender, the
 * retention sweep and the owner's digest, builds the client files, listens, starts the other processes and hands them
 * the pages it had rendered.
 */
export async function serve(loaded: Config, embedded: Embedded | undefined, self: string[], compress: Compress): Promise<void> {
  const unwritable = unwritableDataDir(loaded.dataDir, [basename(loaded.dbPath), `${basename(loaded.dbPath)}-wal`, "rate-limits.db"]);
  if (unwritable !== null) {
    console.error(unwritable);
    process.exit(1);
  }
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded) });
  const build = currentBuild(embedded?.build);
  for (const warning of startupWarnings(loaded)) log.warn(warning);
  // Migrations run here, before any worker opens the database.
  const db = dbOrExit(loaded, {
    // Logged with the path: the copy `site rollback` restores if this version must be undone.
    onSaved: (copy) => log.info("database saved before migrating", { copy, version: build.version }),
  });
  startTrace("database opened and migrated");
  const now = () => new Date();
  const config = loaded;
  // The first start's date (the default early-bird end), the environment's content seeded once,
  // the first price recorded: read from (or, the first time, written to) the database.
  const firstStart = await prepareContent({ db, write: writerFor(db, config), config, log, now: now() }).catch((error: unknown) => {
    // Only a first start writes here; later ones only read.
    if (!isBusyError(error)) throw error;
    console.error(
      `The database ${loaded.dbPath} is locked by another program (an open sqlite3 session in a transaction?) and this first start must record its date and content: start again once it is finished.`,
    );
    process.exit(1);
  });
  const content = openContent({ db, settings: config.site, firstStartedAt: firstStart, log, now });
  for (const warning of contentWarnings(config, publishedFacts(content.current()))) log.warn(warning);
  startTrace("content read");
  const visitorKeys = openVisitorKeys(config.dataDir);
  const retention = await startRetention({
    write: writerFor(db, config),
    config,
    log,
    now,
    analytics: (at) => deleteExpiredAnalytics({ db, write: writerFor(db, config), keys: visitorKeys }, config.retention.analyticsDays, at),
  });
  startTrace("retention started");
  // Run from source, the bundle is kept in node_modules/.cache by its sources' key (as the compressed results are).
  const assets = await createAssetStore(
    embedded?.client ?? (await buildClientCached(join(import.meta.dir, "..", "..", "node_modules", ".cache", "site-client"))),
    compress,
  );
  startTrace("assets ready");
  const transport = config.mail.smtpUrl !== undefined ? createSmtpTransport(config.mail.smtpUrl) : createFileTransport(config.mail.dir);
  // The first start makes the licence signing key here, before any worker could race for it.
  const licenseKeys = openLicenseKeys(config, now);
  await licenseKeys.jwks();
  startTrace("licence keys ready");
  const siteSecret = loadIpHashSecret(config.ipHashSecret, config.dataDir);
  const links = mailLinks(licenseKeys, config.publicBaseUrl, now, siteSecret);
  const paperwork = mailPaperwork({
    db,
    paperwork: createPaperwork({ db, config, content }),
    baseUrl: config.publicBaseUrl,
    secret: siteSecret,
  });
  const mailer = createMailSender({
    db,
    write: writerFor(db, config),
    config,
    log,
    transport,
    now,
    links,
    paperwork,
    digestLists: digestListsReader(db, now, config.tls),
    content,
  });
  const site = wireSite({
    config,
    db,
    log,
    assets,
    consoleFiles: embedded?.console,
    // The pages this executable rendered at its last start on this data folder come after the
    // build's: with the default offer (its end is only known once the site has started) only they match.
    prebuilt: [...(embedded?.prebuilt?.pages ?? []), ...(embedded !== undefined ? readPageCache(config.dataDir, embedded.buildId) : [])],
    compress,
    build,
    mailer,
    licenseKeys,
    rateLimitSecret: siteSecret,
    content,
    now,
  });
  startTrace("site wired");
  const { staticPages } = site.deps;
  // DOMAIN set: this program serves HTTPS itself (server/platform/tls/), on the HTTP and HTTPS ports.
  let workers: Workers | null = null;
  // Serving HTTPS itself, a server already running on this data folder and HTTPS port is replaced
  // as on a plain port: this one listens beside it on both ports, then tells it to stop.
  const running = config.tls !== null ? runningServer(config.dataDir) : null;
  const replacing = running !== null && config.tls !== null && running.port === config.tls.httpsPort ? running : null;
  // The ACME client and its certificate code (about 1 MB) are loaded only by a site serving HTTPS itself.
  const https =
    config.tls !== null
      ? await (await import("../platform/tls/start")).startHttpsSite({
          replacing: replacing !== null,
          app: site.app,
          config,
          settings: config.tls,
          log,
          now,
          pendingPage: tlsPendingPage(content.current().site.name),
          onCertificate: () => workers?.certificateChanged(),
        })
      : null;
  const { server, predecessor } =
    config.tls !== null ? { server: { port: config.tls.httpsPort }, predecessor: replacing } : listenOrReplace(site.app, config);
  startTrace("listening");
  // A restored copy says at once that it does not replicate, and which command changes that.
  const restored = config.backup !== null ? readIdentity(db).restored : null;
  if (predecessor === null) recordRunningServer(config.dataDir, { pid: process.pid, port: server.port, version: build.version });
  log.info(
    `listening on ${config.tls !== null ? httpsListeningText(config.host, config.tls, (https?.site.serving() ?? null) !== null) : listeningUrl(config.host, server.port)}`,
    {
      version: build.version,
      commit: build.commit,
      built: build.date,
      ...(isEveryAddress(config.host) ? { reachable: "from every network of this machine (HOST)" } : {}),
      ...(predecessor !== null ? { replacing: { pid: predecessor.pid, version: predecessor.version } } : {}),
      data: config.dbPath,
      checkout: config.stripe ? "stripe" : "test",
      chat: config.anthropic ? "claude" : "offline",
      mail: mailer.describe,
      processes: config.workers,
      content: content.current().version,
      offerEndsAt: content.current().site.offerEndsAt?.toISOString() ?? null,
      backup: config.backup !== null ? describeTarget(config.backup) : "off",
      // What the last run recorded (DATA_DIR/backup-status.json): how old the replica is as this run starts.
      ...(config.backup !== null ? { lastReplication: readReplicationStatus(config).lastReplicatedAt?.toISOString() ?? "never" } : {}),
      ...(restored !== null ? { notReplicating: restoredCopyReason(restored) } : {}),
    },
  );
  mailer.start();
  const rollUps = startRollUps({ analytics: site.deps.analytics, log });
  // The owner's digest e-mail: this process alone schedules it, as it alone sends the mail.
  const digests = startDigests({ db, write: writerFor(db, config), config, log, now, mailer });
  // Review invitations and the landing page's figure: this process alone looks, every minute.
  const reviewChecks = startReviewChecks({ db, write: writerFor(db, config), config, log, now, mailer });
  const replicator = replicatorFor(config, log, now, db, writerFor(db, config));
  // Replacing a running server, Litestream starts once that one (and its own Litestream) is gone:
  // two on one database would each begin a history of their own in the replica.
  if (predecessor === null) replicator.start();
  startTrace("mailer and replicator started");
  // Someone who started the site in a terminal gets the address in plain words, above the JSON log.
  if (process.stderr.isTTY && config.tls === null)
    process.stderr.write(
      `\n  ${content.current().site.name} ${build.version} is running: open http://${isEveryAddress(config.host) || config.host === "127.0.0.1" ? "localhost" : config.host}:${server.port}  (Ctrl-C stops it; below, the server's log)\n\n`,
    );
  // Started now, so that they load while this process renders the pages they will be handed.
  workers = config.workers > 1 ? startWorkers({ count: config.workers, command: self, log, onWakeMailer: () => mailer.wake() }) : null;
  startTrace("workers spawned");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    // systemd's TimeoutStopSec (`site service`) is longer: the server ends by itself, its log says why.
    setTimeout(() => {
      log.error("stopping took too long: exiting now", { afterMs: STOP_DEADLINE_MS });
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // At once: the sender takes no more messages from a backlog, and those on their way get a few seconds.
    const mailStopped = mailer.stop();
    // Each process lets its connections go without refusing a request (a replacing server takes them).
    https?.certificates.stop();
    await Promise.all([site.stop(), workers?.stop(), https?.site.stopHttp()]);
    retention.stop();
    rollUps.stop();
    await digests.stop();
    await reviewChecks.stop();
    await mailStopped;
    await replicator.stop();
    content.stop();
    await site.close();
    db.$client.close();
    forgetRunningServer(config.dataDir);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  // Every page the same for all visitors, rendered and compressed now rather than by a visitor's
  // request. The executable brings them made at build time when its settings give the same pages;
  // otherwise (the offer's end is only known once the site has started) a short-lived process
  // renders them, and this one only takes them.
  const started = performance.now();
  const refs = staticPageRefs(config);
  // PAGES_AT_START=false (the tests' servers, which mostly ask for no page): each page is made at
  // its first request, as a page missing from the list below would be.
  const unmade = config.pagesAtStart ? await staticPages.takeReady(refs) : 0;
  const apart = unmade === 0 ? null : await renderPagesApart({ command: self, urls: assets.urls, log });
  if (apart !== null) staticPages.adopt(apart);
  const made = config.pagesAtStart ? await staticPages.warm(refs) : { rendered: 0, reused: 0, failed: 0 };
  log.info("pages ready", { ...made, renderedApart: apart?.length ?? 0, ms: Math.round(performance.now() - started) });
  if (embedded !== undefined && (made.rendered > 0 || (apart?.length ?? 0) > 0))
    writePageCache(config.dataDir, embedded.buildId, staticPages.finished());
  startTrace("pages ready");
  jitAsUsual();

  workers?.begin({ port: server.port, assets: { urls: assets.urls, files: assets.entries() }, pages: staticPages.finished() });

  // A publish (from the console in any process, or the command line) shows within a second: every
  // process looks for it, renders its pages again, and this one keeps them for the executable's
  // next start, which then serves what was last published at once.
  renderAfterPublish(
    content,
    () => staticPages.warm(refs),
    log,
    () => {
      if (embedded !== undefined) writePageCache(config.dataDir, embedded.buildId, staticPages.finished());
    },
  );
  content.watch();

  // Ready, pages made: the server this one replaces lets its connections go and exits.
  if (predecessor !== null && !stopping) {
    recordRunningServer(config.dataDir, { pid: process.pid, port: server.port, version: build.version });
    const migration = ensureRequestMigration();
    if (migration === "turned on")
      log.info("connections queued at the server being replaced will move to this one", { setting: "net.ipv4.tcp_migrate_req=1" });
    else if (migration === "off")
      log.warn(
        "a visitor's connection queued at the server being replaced may be reset as it lets the port go: this kernel setting moves it here instead",
        {
          command: MIGRATE_REQ_COMMAND,
        },
      );
    try {
      process.kill(predecessor.pid, "SIGTERM");
      log.info("replaced the server running before", { pid: predecessor.pid, version: predecessor.version });
    } catch (error) {
      log.warn("the server running before was gone already", {
        pid: predecessor.pid,
        error: errorText(error),
      });
    }
    await exited(predecessor.pid, 30_000);
    if (!stopping) replicator.start();
  }
}

/**
 * Takes the port, or shares it with the server already running on this data folder and port
 * (server.json), which this one then replaces. Any other holder of the port: a message, exit 1.
 */
function listenOrReplace(app: Site["app"], config: Config): { server: { port: number }; predecessor: RunningServer | null } {
  try {
    return { server: listenShared(app, config, "first"), predecessor: null };
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    // What the owner can fix: one line naming the setting, not a stack trace.
    if (code === "EACCES") {
      console.error(
        `Cannot start: port ${config.port} needs privileges this user does not have: set PORT to 1024 or above (and put a proxy in front), or run it as the service \`site service\` prints (it may bind 80 and 443).`,
      );
      process.exit(1);
    }
    if (code === "EADDRNOTAVAIL") {
      console.error(`Cannot start: ${config.host} is not an address of this machine: set HOST to one of its addresses (or 127.0.0.1).`);
      process.exit(1);
    }
    if (!isAddressInUse(error)) throw error;
    const predecessor = runningServer(config.dataDir);
    if (predecessor === null || predecessor.port !== config.port) {
      console.error(
        `Port ${config.port} on ${config.host} is in use by another program${predecessor !== null ? ` (the site on ${config.dataDir} runs on port ${predecessor.port})` : ""}: stop it, or set PORT to a free port.`,
      );
      process.exit(1);
    }
    return { server: listenShared(app, config, "replace"), predecessor };
  }
}

/** Resolves once the process `pid` is gone, or after `ms` (it may be stuck: replication must not wait for ever). */
async function exited(pid: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < end) await Bun.sleep(100);
}
