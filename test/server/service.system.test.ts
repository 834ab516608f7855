import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { ENGINE_SETTINGS } from "../../server/platform/engine-settings";
import { STOP_DEADLINE_MS } from "../../server/platform/http/drain";

const main = join(import.meta.dir, "..", "..", "server", "main.ts");
const site = (args: string[], env: Record<string, string> = {}) =>
  spawnSync({
    cmd: [process.execPath, "run", main, ...args],
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });

/** systemd-analyze verify on a unit file: its exit code and what it said (warnings included). */
function verify(unit: string): { code: number | null; said: string } {
  const dir = mkdtempSync(join(tmpdir(), "site-unit-"));
  try {
    // A name of its own: a unit named like one the machine knows would be checked against that one.
    const path = join(dir, "lifetime-stream-shop.service");
    writeFileSync(path, unit);
    const run = spawnSync({ cmd: ["systemd-analyze", "verify", path], stdout: "pipe", stderr: "pipe" });
    return { code: run.exitCode, said: (run.stdout.toString() + run.stderr.toString()).trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("'site service' prints a systemd unit that systemd-analyze verifies without a word, for this program where it stands", () => {
  const printed = site(["service"]);
  expect(printed.exitCode).toBe(0);
  const unit = printed.stdout.toString();
  // systemd-analyze checks the syntax, every directive's value and that ExecStart's program exists and
  // can run; it does not look the User= up (checked here: no user "site" is needed on this machine),
  // so what it says is about the unit alone. A misspelt value is only a warning: none is accepted.
  expect(verify(unit)).toEqual({ code: 0, said: "" });
  expect(unit).toContain(`ExecStart=${process.execPath} run ${main}\n`);
  for (const line of [
    "User=site",
    "StateDirectory=site",
    "Environment=DATA_DIR=/var/lib/site",
    "EnvironmentFile=/etc/site/site.env",
    "Restart=on-failure",
    "AmbientCapabilities=CAP_NET_BIND_SERVICE",
    "KillMode=mixed",
    // Root, before the start, turns on the kernel setting that keeps an upgrade from resetting a
    // connection queued at the old executable.
    "ExecStartPre=+-/bin/sh -c 'echo 1 > /proc/sys/net/ipv4/tcp_migrate_req'",
    // The engine's settings, so that the service's start need not run the program twice to have them.
    ...Object.entries(ENGINE_SETTINGS).map(([name, value]) => `Environment=${name}=${value}`),
  ])
    expect(unit).toContain(`\n${line}\n`);
  // systemd waits longer than the server takes at most to stop by itself.
  const timeout = Number(/\nTimeoutStopSec=(\d+)\n/.exec(unit)?.[1]);
  expect(timeout * 1000).toBeGreaterThan(STOP_DEADLINE_MS);
});

test("with a file:// BACKUP_URL the unit lets the service write that folder, which ProtectSystem=strict would make read-only", () => {
  const backup = mkdtempSync(join(tmpdir(), "site-unit-backup-"));
  try {
    const printed = site(["service"], { BACKUP_URL: `file://${backup}` });
    expect(printed.exitCode).toBe(0);
    const unit = printed.stdout.toString();
    expect(unit).toContain(`\nReadWritePaths=${backup}\n`);
    expect(unit).toContain("\nProtectSystem=strict\n");
    expect(verify(unit)).toEqual({ code: 0, said: "" });
    // Without it (or with S3), no such line: the data folder is the only one written.
    expect(site(["service"]).stdout.toString()).not.toContain("ReadWritePaths=");
  } finally {
    rmSync(backup, { recursive: true, force: true });
  }
});

test("'site service' takes another user, data folder and environment file, and refuses values a unit cannot hold", () => {
  const printed = site(["service", "--user", "shop", "--data", "/var/lib/shop", "--env-file", "/etc/shop/env"]);
  expect(printed.exitCode).toBe(0);
  const unit = printed.stdout.toString();
  expect(verify(unit)).toEqual({ code: 0, said: "" });
  for (const line of ["User=shop", "Group=shop", "StateDirectory=shop", "WorkingDirectory=/var/lib/shop", "EnvironmentFile=/etc/shop/env"])
    expect(unit).toContain(`\n${line}\n`);

  const outside = site(["service", "--data", "/srv/shop"]);
  expect(outside.exitCode).toBe(2);
  expect(outside.stderr.toString()).toContain("--data must be a folder right under /var/lib");
  const badUser = site(["service", "--user", "Shop Owner"]);
  expect(badUser.exitCode).toBe(2);
  expect(badUser.stderr.toString()).toContain("--user must be a system user name");
  const unknown = site(["service", "--restart", "always"]);
  expect(unknown.exitCode).toBe(2);
  expect(unknown.stderr.toString()).toContain("--restart");
  expect(unknown.stderr.toString()).toContain("Usage: site service");
  expect(site(["service", "--user"]).exitCode).toBe(2);
});
