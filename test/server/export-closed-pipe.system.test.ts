import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { openDb } from "../../db/client";
import { chatMessages } from "../../db/schema";

const main = join(import.meta.dir, "..", "..", "server", "main.ts");

test("an export piped into a reader that stops early (`site chats export | head`) ends quietly, without an EPIPE stack trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "site-pipe-"));
  try {
    const db = openDb(join(dir, "site.db"));
    // Far more than a pipe's buffer, so the export is still writing when the reader has gone.
    const rows: (typeof chatMessages.$inferInsert)[] = Array.from({ length: 5000 }, (_, i) => ({
      conversationId: `c${i % 100}`,
      role: i % 2 === 0 ? "user" : "assistant",
      content: "Bonjour, est-ce que l'accès est vraiment à vie ? ".repeat(4),
      locale: "fr",
      createdAt: new Date(),
    }));
    db.insert(chatMessages).values(rows).run();
    db.$client.close();

    const stderr = join(dir, "stderr.txt");
    const script = `"${process.execPath}" run "${main}" chats export 2>"${stderr}" | head -n 2 >/dev/null; exit \${PIPESTATUS[0]}`;
    const result = spawnSync({
      cmd: ["bash", "-c", script],
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dir },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(readFileSync(stderr, "utf8")).toBe("");
    expect(result.exitCode).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
