import type { Db } from "../db/client";
import type { Write } from "../db/writer";
import type { AssetStore } from "./assets";
import type { Config } from "./config";
import type { RateLimitStore } from "./http/rate-limit-store";
import type { Logger } from "./log";
import type { MailSender } from "./mail/sender";
import type { Renderer } from "./render";

/** What every feature controller gets from the app: no globals, so tests build their own. */
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
  log: Logger;
  render: Renderer;
  /** The e-mail sender: told when a transaction has queued mail, so it goes out at once. */
  mailer: Pick<MailSender, "wake">;
  /** The rate limiters' counters, shared by every process on the data folder. */
  rateLimits: RateLimitStore;
  /** The clock, replaceable in tests. */
  now: () => Date;
};
