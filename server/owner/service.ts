import * as v from "valibot";
import { defaultContent } from "../../shared/content";
import type { Config } from "../platform/config";
import { ENGINE_SETTINGS } from "../platform/engine-settings";
import { STOP_DEADLINE_MS } from "../platform/http/drain";
import { MIGRATE_REQ_SETTING } from "../platform/http/migrate-requests";
import { VERSION } from "../platform/version";
import { seededDocument } from "../site/content/start";

/**
 * `site service [--user NAME] [--data DIR] [--env-file FILE]`: a systemd unit that runs this
 * executable, where it stands, as a service (docs/owner/deploy.md). The owner saves it as
 * /etc/systemd/system/site.service; `systemd-analyze verify` passes on it (test/server/service.system.test.ts).
 */
export function serviceCommand(
  args: { user?: string; data?: string; envFile?: string },
  config: Config,
  out: (text: string) => void,
  err: (line: string) => void,
  self: string[],
): number {
  const parsed = parseServiceArgs(args);
  if (typeof parsed === "string") {
    err(parsed);
    return 2;
  }
  const unsafe = self.find((part, i) => !SAFE_WORD.test(part) || (i === 0 && !part.startsWith("/")));
  if (unsafe !== undefined) {
    err(
      `The executable's path ${JSON.stringify(unsafe)} has characters a unit cannot hold as they are: move it to a path such as /opt/site/site.`,
    );
    return 1;
  }
  // The unit is written before the service's database exists (or away from it): the name the first
  // start will publish, from SITE_NAME or the default; a later rename in the console changes only
  // the pages, not this description.
  const siteName = seededDocument(defaultContent(), config.contentSeed).offer.productName;
  const backupDir = config.backup?.kind === "file" ? config.backup.path : undefined;
  if (backupDir !== undefined && !SAFE_WORD.test(backupDir)) {
    err(
      `The backup folder ${JSON.stringify(backupDir)} (BACKUP_URL) has characters a unit cannot hold as they are: use a path such as /mnt/backup/site.`,
    );
    return 1;
  }
  out(serviceUnit({ ...parsed, command: self, siteName, backupDir }));
  return 0;
}

/** A path or word systemd takes as it is in ExecStart= (no quoting, no specifiers, no spaces). */
const SAFE_WORD = /^[A-Za-z0-9._/+-]+$/;

const Name = v.pipe(v.string(), v.regex(/^[a-z_][a-z0-9_-]{0,30}$/, "must be a system user name such as site"));
const StateDir = v.pipe(
  v.string(),
  v.regex(/^\/var\/lib\/[A-Za-z0-9._-]+$/, "must be a folder right under /var/lib, such as /var/lib/site (systemd makes it for the user)"),
);
const EnvFile = v.pipe(v.string(), v.regex(/^\/etc\/[A-Za-z0-9._/-]+$/, "must be a file under /etc, such as /etc/site/site.env"));

export type ServiceOptions = { user: string; dataDir: string; envFile: string };

function parseServiceArgs(args: { user?: string; data?: string; envFile?: string }): ServiceOptions | string {
  const checks = [
    ["--user", Name, args.user ?? "site"],
    ["--data", StateDir, args.data ?? "/var/lib/site"],
    ["--env-file", EnvFile, args.envFile ?? "/etc/site/site.env"],
  ] as const;
  for (const [flag, schema, value] of checks) {
    const checked = v.safeParse(schema, value);
    if (!checked.success) return `${flag} ${checked.issues[0].message}`;
  }
  return { user: checks[0][2], dataDir: checks[1][2], envFile: checks[2][2] };
}

/**
 * The stop timeout systemd waits before SIGKILL: longer than the server's own deadline, so the
 * server always ends by itself (its log says how) and a stop never loses the last writes.
 */
export const SERVICE_STOP_TIMEOUT_S = Math.ceil(STOP_DEADLINE_MS / 1000) + 10;

export function serviceUnit(options: ServiceOptions & { command: string[]; siteName: string; backupDir?: string | undefined }): string {
  const { user, dataDir, envFile, command } = options;
  const underHome = command.some((part) => /^\/(home|root)\//.test(part));
  return `# Made by \`site service\` (version ${VERSION}). Save as /etc/systemd/system/site.service, then:
#   sudo systemctl daemon-reload && sudo systemctl enable --now site
# docs/owner/deploy.md explains each line.
[Unit]
Description=${options.siteName.replace(/[\n%]/g, " ")} (the shop's web server)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
# Connections queued at an executable that lets the port go (an upgrade, docs/owner/deploy.md) move
# to the one still listening instead of being reset: a kernel setting, made by root before the start
# ("+"), its failure ignored ("-") on a kernel without it.
ExecStartPre=+-/bin/sh -c 'echo 1 > ${MIGRATE_REQ_SETTING}'
ExecStart=${command.join(" ")}
# A user of its own, made once by the owner: adduser --system --group --home ${dataDir} ${user}
User=${user}
Group=${user}
# The data folder: systemd makes it, owned by the user, before the start.
StateDirectory=${dataDir.slice("/var/lib/".length)}
StateDirectoryMode=0700
WorkingDirectory=${dataDir}
Environment=NODE_ENV=production
Environment=DATA_DIR=${dataDir}
# The JavaScript engine's settings for a small server, which the executable otherwise gives itself by
# starting a second time (about 50 ms of each start).
${Object.entries(ENGINE_SETTINGS)
  .map(([name, value]) => `Environment=${name}=${value}`)
  .join("\n")}
# The owner's settings (PUBLIC_BASE_URL, Stripe keys, SMTP_URL...), readable by root and the user's group.
EnvironmentFile=${envFile}
Restart=on-failure
RestartSec=2
# SIGTERM to the first process only: it drains and stops its own processes (no refused request),
# and ends by itself within ${STOP_DEADLINE_MS / 1000} s; systemd waits ${SERVICE_STOP_TIMEOUT_S} s before killing what is left.
KillMode=mixed
KillSignal=SIGTERM
TimeoutStopSec=${SERVICE_STOP_TIMEOUT_S}
# Ports 80 and 443 without root: this capability alone, nothing else.
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=${underHome ? "read-only" : "true"}
${
  options.backupDir !== undefined
    ? `# The backup folder of BACKUP_URL (file://): everything else outside the data folder is read-only.
# It must exist before the start: sudo install -d -o ${user} -g ${user} -m 0700 ${options.backupDir}
ReadWritePaths=${options.backupDir}
`
    : ""
}PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectControlGroups=true
RestrictSUIDSGID=true
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
`;
}
