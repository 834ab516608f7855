import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { runCommand } from "../../server/owner/cli";
import { listVersions, publish, readPublished } from "../../server/site/content/store";
import { BUILT_IN_FAQ, CONTENT_KEYS, type ContentDocument } from "../../shared/content";
import { LOCALES } from "../../shared/locales";
import { startServer } from "../e2e/harness";
import { createTestSite, type TestSite } from "../support/app";
import { endServer } from "../support/end-server";
import { until } from "../support/wait";

// `site content export` and `site content import FILE` (docs/content.md): the whole published
// content as a file the owner edits and imports back; a file with a mistake changes nothing and
// names the field; an import is a publish every running process follows.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});
// One clock for every site, so that two sites' pages (the default offer's end) can be compared byte for byte.
const NOW = new Date("2026-11-20T10:00:00Z");
async function site(dataDir?: string) {
  const s = await createTestSite({ now: () => NOW, dataDir });
  sites.push(s);
  return s;
}

const PAGES = ["/", "/en", "/it", "/es", "/guide", "/en/guide", "/it/guide", "/es/guide"];
const pages = async (s: TestSite) => {
  const bytes: Record<string, string> = {};
  for (const path of PAGES) bytes[path] = await (await s.request(path)).text();
  return bytes;
};

async function cli(s: TestSite, ...argv: string[]) {
  let out = "";
  const err: string[] = [];
  const code = await runCommand(
    argv,
    s.config,
    (chunk) => (out += chunk),
    (line) => err.push(line),
    { now: () => NOW },
  );
  return { code, out, err: err.join("\n") };
}

const fileWith = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "content-file-")), "content.json");
  writeFileSync(path, text);
  return path;
};

/** A shop whose owner changed a text, added a French-only FAQ entry and a device to the guide, and renamed another. */
async function editedShop(): Promise<TestSite> {
  const s = await site();
  const opened = readPublished(s.db);
  const document = structuredClone(opened.document);
  document.texts.heroTitle = { fr: "Votre cinéma, pour toujours.", en: "Your cinema, for good." };
  document.faq.push({
    id: "catalogue",
    shown: true,
    builtIn: null,
    question: { fr: "Que contient le catalogue ?" },
    answer: { fr: "Des films du domaine public." },
  });
  const tv = document.guide.devices[4];
  if (tv !== undefined) tv.title.text = { fr: "Téléviseurs connectés" };
  document.guide.devices.push({
    id: "linux",
    title: { builtIn: null, text: { fr: "Ordinateurs Linux" } },
    steps: [
      { builtIn: null, text: { fr: "Installez {siteName} depuis Flathub." } },
      { builtIn: "guide.step.key", text: {} },
    ],
    tip: null,
  });
  await publish(s.write, { document, openedVersion: opened.version, by: "Anna", now: NOW });
  s.content.refresh();
  return s;
}

test("the export is the whole content, defaults written out; importing it into a new shop gives the same pages, byte for byte", async () => {
  const a = await editedShop();
  const exported = await cli(a, "content", "export");
  expect(exported.code).toBe(0);
  const file: ContentDocument = JSON.parse(exported.out);
  // Every text the owner may change, in every language, the owner's where set and the default elsewhere.
  expect(Object.keys(file.texts)).toEqual([...CONTENT_KEYS]);
  for (const key of CONTENT_KEYS) expect({ key, languages: Object.keys(file.texts[key] ?? {}) }).toEqual({ key, languages: [...LOCALES] });
  expect(file.texts.heroTitle).toMatchObject({
    fr: "Votre cinéma, pour toujours.",
    it: "Tutti i film e le serie. Un solo pagamento. Per sempre.",
  });
  for (const entry of file.faq.filter((e) => e.builtIn !== null)) {
    expect(Object.keys(entry.question)).toEqual([...LOCALES]);
    expect(Object.keys(entry.answer)).toEqual([...LOCALES]);
  }
  expect(file.faq).toHaveLength(BUILT_IN_FAQ.length + 1);
  // The guide's steps too: the built-in ones written out, the owner's as written (French only).
  expect(file.guide.devices[0]?.steps[0]?.text.en).toBe("Open Google Play on your phone or tablet.");
  expect(file.guide.devices[5]?.steps[0]?.text).toEqual({ fr: "Installez {siteName} depuis Flathub." });
  expect(file.offer).toMatchObject({ productName: "Lifetime Stream", priceMinor: 2999, currency: "EUR" });
  expect(file.comparison.rows).toHaveLength(2);

  const b = await site();
  const imported = await cli(b, "content", "import", fileWith(exported.out));
  expect(imported).toMatchObject({ code: 0, out: expect.stringContaining("Published version 1") });
  expect(b.content.refresh()).toBe(true);
  // The texts equal to their defaults stay the defaults: the same document as the first shop's.
  expect(readPublished(b.db).document).toEqual(readPublished(a.db).document);
  expect(listVersions(b.db)[0]).toMatchObject({ version: 1, publishedBy: "cli" });
  expect(await pages(b)).toEqual(await pages(a));
});

test("importing an unchanged export publishes nothing; an edited value is published as a new version, the rest left as it was", async () => {
  const s = await site();
  const before = await pages(s);
  const exported = (await cli(s, "content", "export")).out;
  const again = await cli(s, "content", "import", fileWith(exported));
  expect(again).toMatchObject({ code: 0, out: expect.stringContaining("Nothing to publish") });
  expect(readPublished(s.db).version).toBe(0);

  const file: ContentDocument = JSON.parse(exported);
  file.texts.heroTitle = { ...file.texts.heroTitle, en: "Every film, for good." };
  file.guide.devices[1]!.title.text.en = "Apple phones and tablets";
  file.offer.priceMinor = 2499;
  const edited = await cli(s, "content", "import", fileWith(JSON.stringify(file)));
  expect(edited.code).toBe(0);
  const published = readPublished(s.db);
  expect(published).toMatchObject({ version: 1, publishedBy: "cli" });
  // Only what was edited is the owner's: the written-out defaults did not become owner texts.
  expect(published.document.texts).toEqual({ heroTitle: { en: "Every film, for good." } });
  expect(published.document.guide.devices[1]?.title.text).toEqual({ en: "Apple phones and tablets" });
  expect(published.document.guide.devices[0]?.steps.every((step) => Object.keys(step.text).length === 0)).toBe(true);
  expect(listVersions(s.db)[0]?.changes).toEqual(["offer.priceMinor", "texts.heroTitle.en", "guide"]);

  s.content.refresh();
  const after = await pages(s);
  expect(after["/en"]).toContain("Every film, for good.");
  expect(after["/en"]).toContain("€24.99");
  expect(after["/en/guide"]).toContain("Apple phones and tablets");
  // French kept its own texts.
  expect(after["/"]).toContain("Tous les films et séries. Un seul paiement. À vie.");
  expect(after["/guide"]).toContain("Téléphones et tablettes Android");
  expect(after["/guide"]).not.toContain("Apple phones");
  expect(before["/guide"]).not.toContain("24,99");
});

test("a file with a mistake changes nothing and says which field is wrong", async () => {
  const s = await editedShop();
  const version = readPublished(s.db).version;
  const before = await pages(s);
  const exported: ContentDocument = JSON.parse((await cli(s, "content", "export")).out);

  const cases: [string, string, string][] = [];
  const html = structuredClone(exported);
  html.faq[2]!.answer.fr = "Vous recevez <b>tout de suite</b> votre clé.";
  cases.push(["HTML in an answer", JSON.stringify(html), "faq[2].answer.fr: must be plain text"]);
  const placeholder = structuredClone(exported);
  placeholder.guide.devices[0]!.steps[1]!.text.it = "Cerca {nome}.";
  cases.push(["a placeholder the site cannot fill", JSON.stringify(placeholder), "guide.devices[0].steps[1].text.it: uses {nome}"]);
  const price = structuredClone(exported);
  Object.assign(price.offer, { priceMinor: "29,99" });
  cases.push(["a price that is not a number", JSON.stringify(price), "offer.priceMinor: the price must be a number of cents"]);
  const device = structuredClone(exported);
  device.guide.devices[5]!.id = "Linux PC";
  cases.push(["a device id with spaces", JSON.stringify(device), "guide.devices[5].id: must be lowercase letters"]);
  const twice = structuredClone(exported);
  twice.guide.devices[5]!.id = "tv";
  cases.push(["two devices with one id", JSON.stringify(twice), "guide.devices: has two devices with the same id"]);
  const typo = structuredClone(exported);
  Object.assign(typo.guide.devices[0]!, { stepz: [] });
  cases.push(["a misspelt field", JSON.stringify(typo), "guide.devices[0]"]);
  cases.push(["a file cut short", JSON.stringify(exported).slice(0, 500), "(the file): is not JSON"]);

  for (const [what, text, message] of cases) {
    const result = await cli(s, "content", "import", fileWith(text));
    expect({ what, code: result.code, err: result.err }).toEqual({ what, code: 1, err: expect.stringContaining(message) });
    expect({ what, err: result.err }).toEqual({ what, err: expect.stringContaining("nothing was changed") });
  }
  const missing = await cli(s, "content", "import", "/nonexistent/content.json");
  expect(missing).toMatchObject({ code: 1, err: expect.stringContaining("Could not read /nonexistent/content.json") });
  expect((await cli(s, "content", "import")).code).toBe(2);

  expect(readPublished(s.db).version).toBe(version);
  expect(s.content.refresh()).toBe(false);
  expect(await pages(s)).toEqual(before);
});

test("an import into a running server's database is served by the server without a restart", async () => {
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  const server = await startServer({ env: { WORKERS: "1" } });
  try {
    const before = await (await fetch(`${server.baseUrl}/en/guide`)).text();
    expect(before).toContain("Android phones and tablets");
    const local = await site(server.dataDir);
    const file: ContentDocument = JSON.parse((await cli(local, "content", "export")).out);
    file.guide.devices = file.guide.devices.filter((d) => d.id !== "android");
    file.texts.heroTitle = { ...file.texts.heroTitle, en: "Imported from a file." };
    const path = fileWith(JSON.stringify(file, null, 2));
    // The owner's command, as a program of its own beside the running server.
    const command = spawn({
      cmd: [process.execPath, "run", join(import.meta.dir, "..", "..", "server", "main.ts"), "content", "import", path],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATA_DIR: server.dataDir, LOG_LEVEL: "silent" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await command.exited).toBe(0);
    expect(await new Response(command.stdout).text()).toContain("Published version 1");
    // The server looks for a publish four times a second: its pages change without a restart. A
    // deadline, not a wait: under a load of 25 the pages took more than 15 s to be made again.
    const guide = await until(
      "the server to serve the imported guide",
      async () => {
        const html = await (await fetch(`${server.baseUrl}/en/guide`)).text();
        return html.includes("Android phones and tablets") ? null : html;
      },
      { timeoutMs: 60_000 },
    ).catch((e) => {
      console.log(server.output.slice(-30).join("\n"));
      throw e;
    });
    expect(guide).toContain('id="ios"');
    expect(await (await fetch(`${server.baseUrl}/en`)).text()).toContain("Imported from a file.");
  } finally {
    await endServer(server);
  }
}, 120_000);
