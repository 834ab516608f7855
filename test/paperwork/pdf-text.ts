import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The text of a PDF as poppler's pdftotext reads it (Debian's poppler-utils, installed by scripts/ensure-chromium.sh). */
export function pdfText(pdf: Buffer | Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "pdf-text-"));
  try {
    const file = join(dir, "doc.pdf");
    writeFileSync(file, pdf);
    const result = Bun.spawnSync({ cmd: ["pdftotext", "-layout", "-enc", "UTF-8", file, "-"], stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`pdftotext failed: ${result.stderr.toString()}`);
    // Non-breaking and narrow spaces (French amounts: "25,20 €") read as plain spaces.
    return result.stdout.toString().replace(/[\u00a0\u202f]/g, " ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
