import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The owner who starts the site on a port another program holds reads one line saying which port
// and which setting to change, not a stack trace with the server's source lines.

const main = join(import.meta.dir, "..", "..", "server", "main.ts");

for (const workers of ["1", "2"]) {
  test(`started on a port already in use (WORKERS=${workers}), the server exits 1 with one line naming the port and PORT`, async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    const dir = mkdtempSync(join(tmpdir(), "site-port-"));
    try {
      const port = String(holder.port);
      const child = Bun.spawn({
        cmd: [process.execPath, "run", main],
        env: { PATH: process.env.PATH ?? "", DATA_DIR: dir, PORT: port, HOST: "127.0.0.1", WORKERS: workers, LOG_LEVEL: "warn" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stderr, stdout] = await Promise.all([
        child.exited,
        new Response(child.stderr).text(),
        new Response(child.stdout).text(),
      ]);
      expect(code).toBe(1);
      const lines = stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]?.toLowerCase()).toContain(`port ${port}`);
      expect(lines[0]).toContain("PORT");
      // No stack trace nor source line anywhere the owner looks.
      for (const output of [stderr, stdout]) {
        expect(output).not.toMatch(/^\s+at /m);
        expect(output).not.toContain("EADDRINUSE");
        expect(output).not.toMatch(/\.ts:\d+/);
      }
      // The other program still answers: nothing took its port.
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("someone else");
    } finally {
      holder.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
