import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
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

export function mountSmallDisk(options: { sizeKb?: number; readOnly?: boolean } = {}): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), "site-disk-"));
  const mountOptions = `size=${options.sizeKb ?? 2048}k${options.readOnly === true ? ",ro" : ""}`;
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
