import type { Db } from "../db/client";
import type { AssetStore } from "./assets";
import type { Config } from "./config";
import type { Logger } from "./log";
import type { Renderer } from "./render";

/** What every feature controller gets from the app: no globals, so tests build their own. */
export type AppDeps = {
  config: Config;
  db: Db;
  assets: AssetStore;
  log: Logger;
  render: Renderer;
  /** The clock, replaceable in tests. */
  now: () => Date;
};
