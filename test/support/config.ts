import { type Config, loadConfig } from "../../server/platform/config";

/** A config for tests: defaults plus overrides, with a throwaway data directory. */
export function testConfig(overrides: Record<string, string> = {}, dataDir?: string): Config {
  return loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir ?? "/tmp/unused", ...overrides });
}
