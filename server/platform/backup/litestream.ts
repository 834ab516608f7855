import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BackupTarget } from "./settings";

/**
 * The litestream binary: LITESTREAM_PATH, else a `litestream` beside the running executable (the
 * build puts one next to dist/site), else the one the npm package @flydotio/litestream installs for
 * this platform, else `litestream` on the PATH.
 */
export function litestreamBinary(configured: string | undefined, besideDir = dirname(process.execPath)): string {
  if (configured !== undefined) return configured;
  const beside = join(besideDir, "litestream");
  if (existsSync(beside)) return beside;
  const packaged = packagedLitestream();
  if (packaged !== null) return packaged;
  return Bun.which("litestream") ?? "litestream";
}

/** The binary of the npm package @flydotio/litestream for this platform, when it is installed. */
export function packagedLitestream(): string | null {
  try {
    const path = new URL(import.meta.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`)).pathname;
    if (existsSync(path)) return path;
  } catch {
    // Not installed for this platform.
  }
  return null;
}

/** A YAML string: always quoted, so a path is never read as something else. */
const quoted = (value: string) => JSON.stringify(value);

/**
 * Litestream's configuration for the site's database. Keys never go in it: they reach the child
 * process by its environment (LITESTREAM_ACCESS_KEY_ID...), so the file holds nothing secret.
 * Half a second between syncs: an acknowledged order is off the machine within about a second.
 */
export function litestreamConfig(dbPath: string, target: BackupTarget): string {
  const replica =
    target.kind === "file"
      ? [`      - type: file`, `        path: ${quoted(target.path)}`]
      : [
          `      - type: s3`,
          `        bucket: ${quoted(target.bucket)}`,
          `        path: ${quoted(target.path)}`,
          ...(target.endpoint !== undefined ? [`        endpoint: ${quoted(target.endpoint)}`] : []),
          ...(target.region !== undefined ? [`        region: ${quoted(target.region)}`] : []),
          `        force-path-style: ${target.forcePathStyle ? "true" : "false"}`,
        ];
  return [
    "dbs:",
    `  - path: ${quoted(dbPath)}`,
    // Looks at the WAL four times a second and ships it twice a second: an acknowledged order is
    // in the replica well within 2 s (bench/backup.ts). Idle, it sends nothing.
    "    monitor-interval: 250ms",
    "    replicas:",
    ...replica,
    "        sync-interval: 500ms",
    // Snapshots daily, kept for a week: a restore to any point in the last 7 days.
    "        snapshot-interval: 24h",
    "        retention: 168h",
    "",
  ].join("\n");
}

/** The child's environment: for S3, the keys; nothing else of the site's (no Stripe key). */
export function litestreamEnv(target: BackupTarget): Record<string, string> {
  const env: Record<string, string> = {};
  if (target.kind === "s3") {
    if (target.accessKeyId !== undefined) env.LITESTREAM_ACCESS_KEY_ID = target.accessKeyId;
    if (target.secretAccessKey !== undefined) env.LITESTREAM_SECRET_ACCESS_KEY = target.secretAccessKey;
  }
  return env;
}
