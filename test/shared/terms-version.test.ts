import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { SOURCE_MESSAGES as MESSAGES } from "../../server/site/locales";
import { TERMS_VERSION } from "../../shared/legal";
import { LOCALES } from "../../shared/locales";

// Each order stores the TERMS_VERSION its buyer accepted. That record is only worth
// something if a version names one text: when the terms or the consent sentence change in any
// language, TERMS_VERSION must change too. Add the new version and its hash below (keep the old).

const TERMS_TEXT_HASHES: Record<string, string> = {
  "2026-11-22": "7c0fc0c476dd3ce551e6aa96686a6b78d97d47ec5a22aeb8468f7a6ee2c0b7dd",
  "2026-11-24": "135b4ea202f0bf570c4f4efcb3bb9b5ebdb660aafda5f4cc92ea092eb8ab47bb",
  "2026-11-26": "7a1cc7207ad7d24753ee0017e0ddfb44e3dfaeec7bac72000231bb1a6414e89c",
  "2026-11-28": "fb0d0b80be0a301450342bf7562bbeecaad7e145ecdca40c1088daf34e706dcd",
};

function termsTextHash(): string {
  const hash = createHash("sha256");
  for (const locale of LOCALES) {
    const entries = Object.entries(MESSAGES[locale]).filter(([key]) => key.startsWith("terms.") || key === "consent.label");
    for (const [key, text] of entries.sort(([a], [b]) => (a < b ? -1 : 1))) {
      hash.update(`${locale}\u0000${key}\u0000${text}\u0000`);
    }
  }
  return hash.digest("hex");
}

test("the terms of sale's texts are the ones recorded for TERMS_VERSION (bump it when they change)", () => {
  expect({ version: TERMS_VERSION, sha256: termsTextHash() }).toEqual({
    version: TERMS_VERSION,
    sha256: TERMS_TEXT_HASHES[TERMS_VERSION] ?? "no hash recorded for this version",
  });
});
