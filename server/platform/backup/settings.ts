import * as v from "valibot";
import { documented } from "../env-doc";

/**
 * Where the database is replicated continuously (Litestream), from BACKUP_URL and the usual S3
 * settings. `file:///mnt/other-disk/site` for a second disk or a mounted network share;
 * `s3://bucket/path` for AWS S3 or any S3-compatible storage (Backblaze B2, Scaleway, MinIO...).
 */
export type BackupTarget =
  | { kind: "file"; url: string; path: string }
  | {
      kind: "s3";
      url: string;
      bucket: string;
      /** The folder inside the bucket, without leading or trailing slashes. */
      path: string;
      endpoint: string | undefined;
      region: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")));

/** The variables, spread into the configuration's one schema (documented as env-doc.ts says). */
export const BACKUP_ENV = {
  BACKUP_URL: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(
          (value) => URL.canParse(value) && ["file:", "s3:"].includes(new URL(value).protocol),
          "must be file:///path or s3://bucket/path",
        ),
        v.check(
          (value) => !URL.canParse(value) || new URL(value).protocol !== "s3:" || new URL(value).hostname !== "",
          "must name the bucket: s3://bucket/path",
        ),
        v.check(
          (value) => !URL.canParse(value) || new URL(value).protocol !== "file:" || new URL(value).pathname.length > 1,
          "must name a folder: file:///path",
        ),
      ),
    ),
    {
      section: "Backups",
      default: "no backup (a warning at a production start)",
      description:
        "Replicate the database continuously with Litestream to `file:///mnt/other-disk/site` (another disk, a mounted share) or `s3://bucket/path` (AWS S3 or any S3-compatible storage: Backblaze B2, Scaleway, MinIO…). See [Backups and restore](backups.md).",
    },
  ),
  BACKUP_S3_ENDPOINT: documented(v.optional(v.pipe(v.string(), v.trim(), v.url("must be a URL (https://s3.example.com)"))), {
    section: "Backups",
    default: "AWS",
    description: "The storage's address for S3-compatible providers (`https://s3.fr-par.scw.cloud`).",
  }),
  BACKUP_S3_REGION: documented(optionalText, { section: "Backups", description: "The bucket's region." }),
  BACKUP_S3_ACCESS_KEY_ID: documented(optionalText, {
    section: "Backups",
    description: "With `BACKUP_S3_SECRET_ACCESS_KEY`: a key allowed to read and write that bucket path only.",
  }),
  BACKUP_S3_SECRET_ACCESS_KEY: documented(optionalText, {
    section: "Backups",
    description: "The secret of `BACKUP_S3_ACCESS_KEY_ID`.",
  }),
  BACKUP_S3_FORCE_PATH_STYLE: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(["1", "0", "true", "false", "yes", "no", "on", "off"], "must be true or false"),
        v.transform((s) => ["1", "true", "yes", "on"].includes(s)),
      ),
    ),
    {
      section: "Backups",
      default: "`true` when `BACKUP_S3_ENDPOINT` is set, else `false`",
      description: "`true` for storage that wants `endpoint/bucket/key` requests.",
    },
  ),
  /** The litestream binary; by default the one the npm package @flydotio/litestream installs. */
  LITESTREAM_PATH: documented(optionalText, {
    section: "Backups",
    default: "the one beside the executable, else the npm package's, else `litestream` on the `PATH`",
    description: "The litestream binary to run.",
  }),
};

type BackupEnv = v.InferOutput<v.ObjectSchema<typeof BACKUP_ENV, undefined>>;

export function backupTargetOf(env: BackupEnv): BackupTarget | null {
  if (env.BACKUP_URL === undefined) return null;
  const url = new URL(env.BACKUP_URL);
  if (url.protocol === "file:") return { kind: "file", url: env.BACKUP_URL, path: decodeURIComponent(url.pathname) };
  return {
    kind: "s3",
    url: env.BACKUP_URL,
    bucket: url.hostname,
    path: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ""),
    endpoint: env.BACKUP_S3_ENDPOINT,
    region: env.BACKUP_S3_REGION,
    accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID,
    secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY,
    // S3-compatible storage on its own address usually wants path-style requests.
    forcePathStyle: env.BACKUP_S3_FORCE_PATH_STYLE ?? env.BACKUP_S3_ENDPOINT !== undefined,
  };
}

/** What the log and the console may show of the target: never a key. */
export const describeTarget = (target: BackupTarget) =>
  target.kind === "file"
    ? target.url
    : `s3://${target.bucket}/${target.path}${target.endpoint !== undefined ? ` at ${target.endpoint}` : ""}`;

export const BACKUP_UNSET_WARNING =
  "BACKUP_URL is not set: the database (every order, licence and lead) exists only on this disk. Set BACKUP_URL (file:///other/disk or s3://bucket/path) to replicate it continuously.";
