import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient, buildClientCached, type ClientFile } from "../../server/site/client-build";

// What the browser is sent: the page's one script is the islands' loader, and the code
// of React, the forms, payment and chat comes in files of their own, loaded when an island needs
// them. The ICU message parser is in none of them: texts arrive compiled.

const files = await buildClient();
const text = (file: ClientFile) => new TextDecoder().decode(file.body);
const scripts = files.filter((file) => file.name.endsWith(".js"));
const entry = scripts.find((file) => file.name.startsWith("entry-"));
const holding = (marker: string) => scripts.filter((file) => text(file).includes(marker)).map((file) => file.name);

test("the page's script holds no React and no code for payment, chat or leads: those are chunks it imports when needed", () => {
  if (entry === undefined) throw new Error("no entry script");
  const code = text(entry);
  // React's element marker, and a text only the code of the pay button, the chat's client, the
  // lead form and the access form holds (the endpoints' paths are data in shared/api.ts, which the
  // page's script carries for the social-proof feed).
  for (const marker of ["react.transitional.element", "paymentUrlMissing", "ChatFailure", "lead.unexpectedError", "access.submitting"]) {
    expect({ marker, inEntry: code.includes(marker) }).toEqual({ marker, inEntry: false });
    expect({ marker, chunks: holding(marker).length > 0 }).toEqual({ marker, chunks: true });
  }
  expect(code).toContain('import("./chunk-');
});

test("the chat window's code is a chunk apart from the support button's, which imports it only when the menu opens", () => {
  const chat = holding("ChatFailure");
  const support = holding("support.emailCopiedDesc");
  expect(chat).toHaveLength(1);
  expect(support).toHaveLength(1);
  expect(chat).not.toEqual(support);
  expect(text(scripts.find((file) => file.name === support[0])!)).toContain(`import("./${chat[0]}")`);
});

test("no file holds the ICU message parser", () => {
  // An error name only the parser has (its no-parser build, which the browser gets, has none).
  expect(holding("EXPECT_ARGUMENT_CLOSING_BRACE")).toEqual([]);
  expect(holding("IntlMessageFormat").length + holding("formatToParts").length).toBeGreaterThan(0);
});

test("run from source, a start takes the bundle its sources made last time from the cache, and the first makes the same files as a build", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "site-client-cache-"));
  try {
    const first = await buildClientCached(cacheDir);
    expect(first.map((file) => [file.name, text(file)])).toEqual(files.map((file) => [file.name, text(file)]));
    // The next start reads the kept files rather than bundling again: a mark made in one shows.
    const [kept] = readdirSync(cacheDir);
    if (kept === undefined || entry === undefined) throw new Error("nothing kept");
    writeFileSync(join(cacheDir, kept, entry.name), "// kept");
    const next = await buildClientCached(cacheDir);
    expect(next.map((file) => file.name)).toEqual(files.map((file) => file.name));
    expect(next.find((file) => file.name === entry.name)?.body).toEqual(new TextEncoder().encode("// kept"));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
