import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A small file system of its own for a data folder, so a test can fill it up or make it read-only
// for real (the machine's tests run as root, which `mount` needs).

export type SmallDisk = {
  dir: string;
  /** Writes a filler file until the file system refuses another byte. */
  fill: () => void;
  /** Deletes the filler: the space is back. */
  free: () => void;
  unmount: () => void;
};

export function mountSmallDisk(options: { sizeKb?: number; readOnly?: boolean; noExec?: boolean } = {}): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), "site-disk-"));
  const mountOptions = `size=${options.sizeKb ?? 2048}k${options.readOnly === true ? ",ro" : ""}${options.noExec === true ? ",noexec" : ""}`;
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", mountOptions, "tmpfs", dir]);
  if (mounted.exitCode !== 0) throw new Error(`mount failed (the storage tests need root): ${mounted.stderr.toString()}`);
  const filler = join(dir, "filler");
  return {
    dir,
    fill: () => {
      for (const size of [65536, 4096, 512, 1]) {
        try {
          for (;;) appendFileSync(filler, Buffer.alloc(size));
        } catch {
          // Full at this granularity: try smaller pieces.
        }
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount: () => {
      Bun.spawnSync(["umount", "-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type FailingDisk = {
  dir: string;
  /**
   * What the kernel does when ext4 finds an error under a running server (errors=remount-ro): the
   * file system turns read-only at once, with the database open for writing.
   */
  turnReadOnly: () => void;
  /** Unmounted, checked and mounted again, as the owner would after a failure: read and write again. */
  repair: () => void;
  unmount: () => void;
};

/** A small ext4 file system on a loop device (root only), for faults tmpfs cannot make. */
export function mountFailingDisk(sizeMb = 16): FailingDisk {
  const root = mkdtempSync(join(tmpdir(), "site-ext4-"));
  const image = join(root, "disk.img");
  const dir = join(root, "mnt");
  const run = (cmd: string[]) => {
    const result = Bun.spawnSync(cmd);
    if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${result.stderr.toString()}`);
    return result.stdout.toString().trim();
  };
  run(["truncate", "-s", `${sizeMb}M`, image]);
  run(["mkfs.ext4", "-q", "-F", image]);
  run(["mkdir", "-p", dir]);
  let device = "";
  const mount = () => {
    device = run(["losetup", "--find", "--show", image]);
    run(["mount", "-o", "errors=remount-ro", device, dir]);
  };
  // Lazily: a test's own SQLite connection to the failed disk may stay open (a connection whose
  // statements are not all finalized closes only when they are), as a server's would until it exits.
  const release = () => {
    Bun.spawnSync(["umount", "-l", dir]);
    if (device !== "") Bun.spawnSync(["losetup", "-d", device]);
    device = "";
  };
  mount();
  return {
    dir,
    turnReadOnly: () => writeFileSync(`/sys/fs/ext4/${device.replace("/dev/", "")}/trigger_fs_error`, "test\n"),
    repair: () => {
      release();
      // e2fsck answers 1 when it fixed something: the error the kernel recorded.
      Bun.spawnSync(["e2fsck", "-fy", image]);
      mount();
    },
    unmount: () => {
      release();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
