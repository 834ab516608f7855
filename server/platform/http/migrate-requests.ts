import { readFileSync, writeFileSync } from "node:fs";

/**
 * Connections waiting to be accepted by a socket that closes are reset by Linux, even when other
 * sockets listen on the same port (SO_REUSEPORT): when a server lets its port go to the executable
 * replacing it, a visitor whose connection had just been queued at the old one sees an error. The
 * kernel setting net.ipv4.tcp_migrate_req (Linux 5.14 and later) moves them to a socket still
 * listening instead. Measured on the swap test under load: two to four resets in three swaps without
 * it, none with it.
 */
export const MIGRATE_REQ_SETTING = "/proc/sys/net/ipv4/tcp_migrate_req";

/** `on` already; `turned on` by this process (it runs as root); `off` and not ours to change; `absent` from this kernel. */
export type RequestMigration = "on" | "turned on" | "off" | "absent";

type SettingFile = { read(path: string): string; write(path: string, value: string): void };
const realFile: SettingFile = { read: (path) => readFileSync(path, "utf8"), write: (path, value) => writeFileSync(path, value) };

/** Turns the setting on when it is off and this process may (root); says what it found. */
export function ensureRequestMigration(path = MIGRATE_REQ_SETTING, file: SettingFile = realFile): RequestMigration {
  let value: string;
  try {
    value = file.read(path).trim();
  } catch {
    return "absent";
  }
  if (value !== "0") return "on";
  try {
    file.write(path, "1\n");
    return file.read(path).trim() === "0" ? "off" : "turned on";
  } catch {
    return "off";
  }
}

/** The command that turns it on, for the owner when the server could not. */
export const MIGRATE_REQ_COMMAND = "sudo sysctl -w net.ipv4.tcp_migrate_req=1";
