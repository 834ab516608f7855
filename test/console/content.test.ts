import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { runCommand } from "../../server/owner/cli";
import { listVersions, readDraft, readPublished } from "../../server/site/content/store";
import { exportContent } from "../../server/site/content/transfer";
import { createTestSite, type TestSite } from "../support/app";
import { ownerCookie } from "./owner";

// The console's Content area (docs/content.md): its forms save the draft, the preview shows the
// draft to the signed-in owner alone, "Publish" makes it live, the history restores any version;
// every refusal (no session, another site's form, a wrong field, a stale page) changes nothing.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const s of sites) await s.close();
});
async function signedIn(options: Parameters<typeof createTestSite>[0] = {}, beforeSignIn?: () => void) {
  const site = await createTestSite(options);
  sites.push(site);
  beforeSignIn?.();
  const cookie = await ownerCookie(site);
  const get = (path: string) => site.request(path, { headers: { cookie, "accept-language": "en" } });
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    site.request(path, {
      method: "POST",
      headers: { cookie, "accept-language": "en", "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const revision = () => String(readDraft(site.db).revision);
  return { site, cookie, get, post, revision };
}

const publicPage = async (site: TestSite, path: string) => (await site.request(path)).text();
const unescaped = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
/** A page's form fields as the browser would send them back untouched (inputs and textareas). */
function fieldsOf(html: string, action: string): Record<string, string> {
  const fields = rawFieldsOf(html, action);
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, unescaped(value)]));
}
function rawFieldsOf(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  const form = html.slice(start, html.indexOf("</form>", start));
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="(?:hidden|text|date)"[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"/g))
    fields[m[1] ?? ""] = m[2] ?? "";
  for (const m of form.matchAll(/<input[^>]*?id="[^"]*"[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"/g)) fields[m[1] ?? ""] ??= m[2] ?? "";
  for (const m of form.matchAll(/<textarea[^>]*?name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[m[1] ?? ""] = m[2] ?? "";
  return fields;
}

test("without a session every Content page sends to the sign-in page, every form is refused, and the preview shows no draft", async () => {
  const { site, post, revision } = await signedIn();
  await post("/admin/content/texts/hero", { revision: revision(), "text:heroTitle:fr": "Brouillon secret" });
  expect(readDraft(site.db).document.texts.heroTitle).toEqual({ fr: "Brouillon secret" });
  for (const path of [
    "/admin/content",
    "/admin/content/offer",
    "/admin/content/texts/hero",
    "/admin/content/faq",
    "/admin/content/history",
  ]) {
    const response = await site.request(path);
    expect({ path, status: response.status, location: response.headers.get("location") }).toEqual({
      path,
      status: 303,
      location: "/admin/sign-in",
    });
  }
  const preview = await site.request("/admin/content/preview?page=landing&lang=fr");
  expect(preview.status).toBe(303);
  expect(await preview.text()).not.toContain("Brouillon secret");
  for (const path of ["/admin/content/publish", "/admin/content/offer", "/admin/content/restore", "/admin/content/faq/faq1/up"]) {
    const response = await site.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `revision=${revision()}&version=0&price=1`,
    });
    expect({ path, status: response.status }).toEqual({ path, status: 401 });
  }
  expect(readPublished(site.db).version).toBe(0);
});

test("a form posted from another site's page is refused, with the session's cookie too, and changes nothing", async () => {
  const { site, post, revision } = await signedIn();
  const before = readDraft(site.db);
  const response = await post(
    "/admin/content/offer",
    { revision: revision(), productName: "Pirate", price: "1", currency: "EUR" },
    { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  );
  expect(response.status).toBe(403);
  const publish = await post("/admin/content/publish", { revision: revision() }, { origin: "https://evil.example" });
  expect(publish.status).toBe(403);
  expect(readDraft(site.db)).toEqual(before);
  expect(readPublished(site.db).version).toBe(0);
});

test("the offer: the price as the owner types it, the reference computed from the price history, bad fields named with 422", async () => {
  // A shop first started 31 days ago: 29,99 € was charged over the whole 30 days before a reduction.
  let at = new Date("2026-11-01T10:00:00Z");
  const { site, get, post, revision } = await signedIn({ now: () => at }, () => {
    at = new Date("2026-12-02T10:00:00Z");
  });
  const page = await (await get("/admin/content/offer")).text();
  expect(page).toContain('value="29.99"');
  // The currency is said, and both ways of writing the decimals are accepted.
  expect(page).toContain("The amount paid in EUR, taxes included. With a point or a comma: 29.99 and 29,99 are both accepted.");
  expect(page).toContain("Reference if you publish now: none");
  expect(page).toContain("Prices charged");
  // The home page's figure is the site's count (Reviews), not a number typed here.
  expect(page).not.toContain("Number of users shown");
  // No reference to show: nothing to tick.
  expect(page).not.toContain('name="showReference"');

  const refused = await post("/admin/content/offer", {
    revision: revision(),
    productName: "",
    price: "twenty",
    currency: "EUR",
  });
  expect(refused.status).toBe(422);
  const text = await refused.text();
  expect(text).toContain('href="#f-offer-priceMinor">Price</a>: must be an amount');
  expect(text).toContain('aria-invalid="true"');
  // What the owner typed comes back as typed.
  expect(text).toContain('value="twenty"');
  expect(readDraft(site.db).document.offer.priceMinor).toBe(2999);

  const tooLong = await post("/admin/content/offer", {
    revision: revision(),
    productName: "x".repeat(61),
    price: "29,99",
    currency: "EUR",
  });
  expect(tooLong.status).toBe(422);
  expect(await tooLong.text()).toContain("Product name</a>: must be at most 60 characters");

  const saved = await post("/admin/content/offer", {
    revision: revision(),
    productName: "Ciné Maison",
    price: "19,99",
    currency: "eur",
    endsOn: "2027-01-31",
    showReference: "yes",
  });
  expect(saved.status).toBe(303);
  expect(saved.headers.get("location")).toBe("/admin/content/offer?done=saved");
  expect(readDraft(site.db).document.offer).toEqual({
    productName: "Ciné Maison",
    priceMinor: 1999,
    currency: "EUR",
    endsOn: "2027-01-31",
    showReference: true,
  });
  // A reduction from 29,99 €, the price charged until now: that is the reference, never a typed one.
  const after = await (await get("/admin/content/offer?done=saved")).text();
  expect(after).toContain("Draft saved.");
  expect(after).toContain("Reference if you publish now: €29.99");
  expect(after).toMatch(/<input type="checkbox" id="f-offer-showReference" name="showReference" checked=""/);
  // Saved is not published.
  expect(readPublished(site.db).version).toBe(0);
  expect(await publicPage(site, "/en")).not.toContain("Ciné Maison");
});

test("a new shop offers no struck-through price: a reduction minutes after the first start has no reference", async () => {
  const { site, get, post, revision } = await signedIn();
  const saved = await post("/admin/content/offer", { revision: revision(), productName: "Ciné Maison", price: "14,99", currency: "EUR" });
  expect(saved.status).toBe(303);
  const page = await (await get("/admin/content/offer")).text();
  expect(page).toContain("Reference if you publish now: none");
  expect(page).not.toContain('name="showReference"');
  expect(readDraft(site.db).document.offer.showReference).toBe(false);
});

test("texts by section: each language's field, the default beside it, the missing languages, back to the default in one click; a broken placeholder is named", async () => {
  const { site, get, post, revision } = await signedIn();
  const index = await (await get("/admin/content/texts")).text();
  expect(index).toContain('href="/admin/content/texts/hero"');
  expect(index).toContain("Home page");
  expect(index).toContain("Payment page");

  const hero = await (await get("/admin/content/texts/hero")).text();
  // Each text says what it is and what it says now; its key is a detail beside it.
  expect(hero).toMatch(
    /<legend>Title: “Every film and series. One payment. For life.”(?:<!-- -->)? <span class="note"><code>heroTitle<\/code>/,
  );
  expect(hero).toContain("Built-in text: Tous les films et séries. Un seul paiement. À vie.");
  expect(hero).toContain('name="text:heroTitle:es"');

  const wrong = await post("/admin/content/texts/hero", { revision: revision(), "text:heroSubtitle:fr": "Payez {prix} une fois." });
  expect(wrong.status).toBe(422);
  const wrongText = await wrong.text();
  expect(wrongText).toContain('href="#f-texts-heroSubtitle-fr">heroSubtitle (Français)</a>: uses {prix}');
  expect(wrongText).toContain("Payez {prix} une fois.");
  const html = await post("/admin/content/texts/hero", { revision: revision(), "text:heroTitle:en": "<b>Bold</b>" });
  expect(html.status).toBe(422);
  expect(await html.text()).toContain("HTML tags are not allowed");

  const saved = await post("/admin/content/texts/hero", {
    revision: revision(),
    "text:heroTitle:fr": "Votre cinéma, pour toujours.",
    "text:heroTitle:en": "Your cinema, for good.",
    "text:heroSubtitle:en": "",
  });
  expect(saved.status).toBe(303);
  expect(readDraft(site.db).document.texts).toEqual({ heroTitle: { fr: "Votre cinéma, pour toujours.", en: "Your cinema, for good." } });
  const page = await (await get("/admin/content/texts/hero")).text();
  expect(page).toContain("Missing in: Italiano, Español (the built-in text shows there).");
  expect(page).toContain("Back to the built-in text (heroTitle)");
  expect(await (await get("/admin/content/texts")).text()).toContain("1 of 9 replaced");

  // "Back to the default": the button of that text, the section's other fields as the page had them.
  const reset = await post("/admin/content/texts/hero", {
    ...fieldsOf(page, "/admin/content/texts/hero"),
    revision: revision(),
    reset: "heroTitle",
  });
  expect(reset.status).toBe(303);
  expect(readDraft(site.db).document.texts).toEqual({});
  expect((await get("/admin/content/texts/nope")).status).toBe(404);
});

test("each text has a length that fits it: a button's label is short, a paragraph longer; the browser cuts nothing, the server names the field", async () => {
  const { site, get, post, revision } = await signedIn();
  const hero = await (await get("/admin/content/texts/hero")).text();
  // No maxlength: a longer paste is not cut short without a word; the limit is said beside the field.
  expect(hero).not.toContain("maxLength");
  expect(hero).not.toContain("maxlength");
  expect(hero).toMatch(/id="f-texts-hero-getAccess-fr-hint"[^>]*>[^<]*At most 60 characters\./);
  expect(hero).toMatch(/id="f-texts-heroSubtitle-fr-hint"[^>]*>[^<]*At most 1000 characters\./);
  const long = await post("/admin/content/texts/hero", {
    revision: revision(),
    "text:hero.getAccess:fr": "Obtenir un accès ".repeat(5),
    "text:heroTitle:en": "A title that goes on. ".repeat(10),
    "text:heroSubtitle:fr": "Un paragraphe qui dit beaucoup. ".repeat(20),
  });
  expect(long.status).toBe(422);
  const page = await long.text();
  expect(page).toContain("is 84 characters long: a label may have at most 60");
  expect(page).toContain("is 219 characters long: a title may have at most 150");
  expect(page).toContain('href="#f-texts-hero-getAccess-fr"');
  // What was typed comes back whole, and nothing was saved.
  expect(page).toContain("Un paragraphe qui dit beaucoup. ".repeat(20).trim());
  expect(readDraft(site.db).document.texts).toEqual({});
  // A paragraph of 640 characters is fine.
  const paragraph = await post("/admin/content/texts/hero", {
    revision: revision(),
    "text:heroSubtitle:fr": "Un paragraphe qui dit beaucoup. ".repeat(20),
  });
  expect(paragraph.status).toBe(303);
  expect(readDraft(site.db).document.texts.heroSubtitle?.fr).toHaveLength(639);
});

test("the FAQ: add an entry in one language, reorder, hide, edit a built-in one, remove; a question without its answer is refused", async () => {
  const { site, get, post, revision } = await signedIn();
  const half = await post("/admin/content/faq/new", { revision: revision(), shown: "yes", "question:fr": "Le catalogue est-il légal ?" });
  expect(half.status).toBe(422);
  expect(await half.text()).toContain("needs a question and its answer in at least one language");
  const added = await post("/admin/content/faq/new", {
    revision: revision(),
    shown: "yes",
    "question:fr": "Le catalogue est-il légal ?",
    "answer:fr": "Oui : uniquement des œuvres sous licence.",
  });
  expect(added.status).toBe(303);
  const faq = readDraft(site.db).document.faq;
  expect(faq).toHaveLength(6);
  const entry = faq[5];
  expect(entry).toMatchObject({ builtIn: null, shown: true, question: { fr: "Le catalogue est-il légal ?" } });
  const list = await (await get("/admin/content/faq")).text();
  // An owner's entry is left out where it is missing, not replaced by a built-in text.
  expect(list).toContain("Missing in: English, Italiano, Español (the entry is left out of those pages).");
  expect(list).toContain(`aria-label="Move up “Le catalogue est-il légal ?”"`);

  expect((await post(`/admin/content/faq/${entry?.id}/up`, { revision: revision() })).status).toBe(303);
  expect(readDraft(site.db).document.faq.map((e) => e.id)).toEqual(["faq1", "faq2", "faq3", "faq4", entry?.id ?? "", "faq5"]);
  expect((await post("/admin/content/faq/faq1/toggle", { revision: revision() })).status).toBe(303);
  expect(readDraft(site.db).document.faq[0]?.shown).toBe(false);
  // A stale page's button: refused, the list as it is now, nothing moved.
  const stale = await post("/admin/content/faq/faq2/down", { revision: String(Number(revision()) - 1) });
  expect(stale.status).toBe(409);
  expect(await stale.text()).toContain("The draft changed since this page was opened");
  expect(readDraft(site.db).document.faq[1]?.id).toBe("faq2");

  const builtIn = await (await get("/admin/content/faq/faq2")).text();
  expect(builtIn).toContain("A built-in entry: a language you leave empty shows the built-in text.");
  expect(
    (
      await post("/admin/content/faq/faq2", {
        revision: revision(),
        shown: "yes",
        "answer:en": "Any device with a browser, {siteName} included.",
      })
    ).status,
  ).toBe(303);
  expect(readDraft(site.db).document.faq[1]).toMatchObject({
    id: "faq2",
    builtIn: 2,
    answer: { en: "Any device with a browser, {siteName} included." },
  });

  expect((await post(`/admin/content/faq/${entry?.id}/remove`, { revision: revision() })).status).toBe(303);
  expect(readDraft(site.db).document.faq).toHaveLength(5);
  expect((await get("/admin/content/faq/no-such-entry")).status).toBe(404);
  expect((await post("/admin/content/faq/faq1/sideways", { revision: revision() })).status).toBe(404);
});

test("the comparison: rows added, changed, removed; the date and the source together; an amount that is not one is named", async () => {
  const { site, get, post, revision } = await signedIn();
  const page = await (await get("/admin/content/comparison")).text();
  expect(page).toContain('value="Netflix + Disney+"');
  const base = {
    revision: revision(),
    rows: "2",
    "service:0": "Netflix + Disney+",
    "monthly:0": "25",
    "yearly:0": "300",
    "five:0": "1500",
  };
  const bad = await post("/admin/content/comparison", { ...base, "service:1": "IPTV", "monthly:1": "abc", "five:1": "900" });
  expect(bad.status).toBe(422);
  expect(await bad.text()).toContain("Row 2, Monthly (empty: none)</a>: must be an amount");
  const half = await post("/admin/content/comparison", { ...base, "remove:1": "yes", checkedOn: "2026-11-20" });
  expect(half.status).toBe(422);
  expect(await half.text()).toContain("needs both the date the prices were checked");
  const saved = await post("/admin/content/comparison", {
    ...base,
    "monthly:0": "27,99",
    "remove:1": "yes",
    "service:new": "Canal+",
    "monthly:new": "",
    "yearly:new": "359,88",
    "five:new": "1799,40",
    checkedOn: "2026-11-20",
    source: "the services' own sites",
  });
  expect(saved.status).toBe(303);
  expect(readDraft(site.db).document.comparison).toEqual({
    rows: [
      { service: "Netflix + Disney+", monthlyMinor: 2799, yearlyMinor: 30000, fiveYearsMinor: 150000 },
      { service: "Canal+", monthlyMinor: null, yearlyMinor: 35988, fiveYearsMinor: 179940 },
    ],
    checkedOn: "2026-11-20",
    source: "the services' own sites",
  });
});

test("preview shows the draft to the owner only, never cached; publish makes it live; a stale publish is refused and loses nothing", async () => {
  const { site, get, post, revision } = await signedIn();
  const opened = revision();
  await post("/admin/content/texts/hero", { revision: opened, "text:heroTitle:en": "Your cinema, for good." });
  const preview = await get("/admin/content/preview?page=landing&lang=en");
  expect(preview.status).toBe(200);
  expect(preview.headers.get("cache-control")).toBe("no-store, private");
  expect(await preview.text()).toContain("Your cinema, for good.");
  expect((await get("/admin/content/preview?page=terms&lang=it")).status).toBe(200);
  // The reviews page (/avis) and the catalogue are in the preview's list, and show.
  const pageList = await (await get("/admin/content")).text();
  expect(pageList).toContain('value="reviews"');
  expect(pageList).toContain('value="catalogue"');
  expect(await (await get("/admin/content/preview?page=reviews&lang=fr")).text()).toContain("Comment fonctionnent les avis");
  expect((await get("/admin/content/preview?page=catalogue&lang=en")).status).toBe(200);
  expect((await get("/admin/content/preview?page=landing&lang=de")).status).toBe(404);
  expect((await get("/admin/content/preview?page=success&lang=en")).status).toBe(404);
  expect(await publicPage(site, "/en")).not.toContain("Your cinema, for good.");

  const home = await (await get("/admin/content")).text();
  expect(home).toContain("1 unpublished change:");
  // Said in words: which text of which page, before and after; the key as a detail.
  expect(home).toContain(
    "<li>Hero (Home page), title (English): “Every film and series. One payment. For life.” → “Your cinema, for good.” · heroTitle</li>",
  );
  expect(home).toContain("s-maxage");

  // Published from a page opened before the last save: refused, the draft kept.
  const stale = await post("/admin/content/publish", { revision: opened });
  expect(stale.status).toBe(409);
  expect(await stale.text()).toContain("The content changed since this page was opened: nothing was published and nothing is lost.");
  expect(readPublished(site.db).version).toBe(0);
  expect(readDraft(site.db).document.texts.heroTitle).toEqual({ en: "Your cinema, for good." });

  const published = await post("/admin/content/publish", { revision: revision() });
  expect(published.status).toBe(303);
  expect(published.headers.get("location")).toBe("/admin/content?done=published");
  expect(await publicPage(site, "/en")).toContain("Your cinema, for good.");
  expect(listVersions(site.db)[0]).toMatchObject({
    version: 1,
    changes: ["texts.heroTitle.en"],
    publishedBy: expect.stringContaining("console"),
  });
  const nothing = await post("/admin/content/publish", { revision: revision() });
  expect(nothing.status).toBe(409);
  expect(await nothing.text()).toContain("Nothing to publish");
  expect((await post("/admin/content/publish", { revision: "x" })).status).toBe(400);
});

test("two owners: the second save from an older page is refused with their text kept; a publish by another makes the draft say so", async () => {
  const { site, get, post, revision } = await signedIn();
  const opened = revision();
  expect((await post("/admin/content/texts/hero", { revision: opened, "text:heroTitle:fr": "Titre d'Anna" })).status).toBe(303);
  const second = await post("/admin/content/texts/hero", { revision: opened, "text:heroTitle:fr": "Titre de Bruno" });
  expect(second.status).toBe(409);
  const text = await second.text();
  expect(text).toContain("Nothing was saved: what you typed is below");
  expect(text).toContain("Titre de Bruno");
  expect(text).toContain(`name="revision" value="${revision()}"`);
  expect(readDraft(site.db).document.texts.heroTitle).toEqual({ fr: "Titre d'Anna" });

  // Discard, then someone publishes from elsewhere (the command line) while this draft has changes.
  await post("/admin/content/texts/hero", { revision: revision(), "text:heroTitle:fr": "Titre de Bruno" });
  const { publish } = await import("../../server/site/content/store");
  const live = readPublished(site.db);
  await publish(site.write, {
    document: { ...live.document, offer: { ...live.document.offer, priceMinor: 2499 } },
    openedVersion: live.version,
    by: "cli",
    now: new Date(),
  });
  const home = await (await get("/admin/content")).text();
  expect(home).toContain("Someone published version 1 since this draft was opened (from version 0)");
  expect((await post("/admin/content/publish", { revision: revision() })).status).toBe(409);
  expect((await post("/admin/content/rebase", { revision: revision() })).status).toBe(303);
  expect((await post("/admin/content/publish", { revision: revision() })).status).toBe(303);
  // The draft opened before the price change still held the old price: the owner saw it and chose to replace.
  expect(readPublished(site.db)).toMatchObject({ version: 2, document: { texts: { heroTitle: { fr: "Titre de Bruno" } } } });
});

test("two tabs: a save from a page opened before another save merges field by field; a field changed on both sides is a 409 naming it", async () => {
  const { site, get, post } = await signedIn();
  const tabA = fieldsOf(await (await get("/admin/content/offer")).text(), "/admin/content/offer");
  const tabB = fieldsOf(await (await get("/admin/content/offer")).text(), "/admin/content/offer");
  expect(tabA.base).toBeDefined();
  expect((await post("/admin/content/offer", { ...tabA, productName: "CinéBox Max" })).status).toBe(303);
  // Tab B changes the price only: A's name is kept, B's price applied.
  const merged = await post("/admin/content/offer", { ...tabB, price: "19,99" });
  expect(merged.status).toBe(303);
  expect(merged.headers.get("location")).toBe("/admin/content/offer?done=merged");
  expect(readDraft(site.db).document.offer).toMatchObject({ productName: "CinéBox Max", priceMinor: 1999 });

  // Both change the name: nothing saved, both values shown, the field named and linked.
  const tabC = fieldsOf(await (await get("/admin/content/offer")).text(), "/admin/content/offer");
  const tabD = fieldsOf(await (await get("/admin/content/offer")).text(), "/admin/content/offer");
  expect((await post("/admin/content/offer", { ...tabC, productName: "CinéBox Pro" })).status).toBe(303);
  const conflict = await post("/admin/content/offer", { ...tabD, productName: "CinéBox Home", price: "17" });
  expect(conflict.status).toBe(409);
  const page = await conflict.text();
  expect(page).toContain(
    'href="#f-offer-productName">Product name</a>: changed on both sides. Yours: “CinéBox Home”. Saved meanwhile: “CinéBox Pro”',
  );
  expect(readDraft(site.db).document.offer).toMatchObject({ productName: "CinéBox Pro", priceMinor: 1999 });
  // The page shows this tab's values over the current draft; saved again, the owner's choice is kept, nothing else undone.
  const again = fieldsOf(page, "/admin/content/offer");
  expect(again).toMatchObject({ productName: "CinéBox Home", price: "17.00" });
  expect((await post("/admin/content/offer", again)).status).toBe(303);
  expect(readDraft(site.db).document.offer).toMatchObject({ productName: "CinéBox Home", priceMinor: 1700 });

  // Texts and an FAQ entry merge the same way, per language.
  const heroA = fieldsOf(await (await get("/admin/content/texts/hero")).text(), "/admin/content/texts/hero");
  const heroB = fieldsOf(await (await get("/admin/content/texts/hero")).text(), "/admin/content/texts/hero");
  expect((await post("/admin/content/texts/hero", { ...heroA, "text:heroTitle:fr": "Titre d'Anna" })).status).toBe(303);
  expect((await post("/admin/content/texts/hero", { ...heroB, "text:heroTitle:en": "Bruno's title" })).status).toBe(303);
  expect(readDraft(site.db).document.texts.heroTitle).toEqual({ fr: "Titre d'Anna", en: "Bruno's title" });
  const faqA = fieldsOf(await (await get("/admin/content/faq/faq2")).text(), "/admin/content/faq/faq2");
  const faqB = fieldsOf(await (await get("/admin/content/faq/faq2")).text(), "/admin/content/faq/faq2");
  expect((await post("/admin/content/faq/faq2", { ...faqA, shown: "yes", "question:fr": "Question d'Anna ?" })).status).toBe(303);
  expect((await post("/admin/content/faq/faq2", { ...faqB, shown: "yes", "answer:en": "Bruno's answer." })).status).toBe(303);
  expect(readDraft(site.db).document.faq[1]).toMatchObject({ question: { fr: "Question d'Anna ?" }, answer: { en: "Bruno's answer." } });
  // A base that is not one of the page's is refused and changes nothing.
  const before = readDraft(site.db);
  const forged = await post("/admin/content/offer", { ...tabA, base: '{"priceMinor":"free"}', price: "1" });
  expect(forged.status).toBe(400);
  expect(readDraft(site.db)).toEqual(before);
});

test("history: who, when, what changed; restoring any version (0 included) publishes it again, with the old bytes", async () => {
  const { site, get, post, revision } = await signedIn();
  const before = await publicPage(site, "/");
  await post("/admin/content/offer", {
    revision: revision(),
    productName: "Ciné Maison",
    price: "19",
    currency: "EUR",
  });
  await post("/admin/content/publish", { revision: revision() });
  expect(await publicPage(site, "/")).toContain("Ciné Maison");
  const history = await (await get("/admin/content/history")).text();
  expect(history).toContain("<li>Product name: “Lifetime Stream” → “Ciné Maison”</li>");
  expect(history).toContain("<li>Price: €29.99 → €19.00</li>");
  expect(history).not.toContain("offer.priceMinor");
  expect(history).toContain("built-in content");
  expect(history).toContain('aria-label="Restore version 0"');
  expect(history).not.toContain('aria-label="Restore version 1"');

  const restored = await post("/admin/content/restore", { version: "0" });
  expect(restored.status).toBe(303);
  expect(await publicPage(site, "/")).toBe(before);
  expect(readPublished(site.db)).toMatchObject({ version: 2, restoredFrom: 0 });
  expect(await (await get("/admin/content/history")).text()).toContain("restored from version 0");
  expect((await post("/admin/content/restore", { version: "99" })).status).toBe(404);
  expect((await post("/admin/content/restore", { version: "-1" })).status).toBe(400);
});

test("answer once: a handed-over question opens a new FAQ entry in its language; once published, the chat gives that answer", async () => {
  const { site, get, post, revision } = await signedIn();
  const question = "Le catalogue contient-il des chaînes de sport en direct ?";
  const ask = async () =>
    (
      await (
        await site.request("/api/chat", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ messages: [{ role: "user", content: question }], locale: "fr" }),
        })
      ).json()
    ).message as string;
  expect(await ask()).not.toContain("matchs en direct");
  const support = await (await get("/admin/support")).text();
  expect(support).toContain('action="/admin/content/faq/answer"');
  expect(support).toContain(`aria-label="Answer as an FAQ entry: “${question}”"`);

  const form = await post("/admin/content/faq/answer", { question, lang: "fr" });
  expect(form.status).toBe(200);
  const page = await form.text();
  expect(page).toMatch(new RegExp(`name="question:fr"[^>]*value="${question.replace(/[?]/g, "\\?")}"`));
  expect(readDraft(site.db).document.faq).toHaveLength(5);
  expect((await post("/admin/content/faq/answer", { question: "", lang: "fr" })).status).toBe(400);

  await post("/admin/content/faq/new", {
    revision: revision(),
    shown: "yes",
    "question:fr": question,
    "answer:fr": "Non : le catalogue ne contient pas de matchs en direct, seulement des films et des séries.",
  });
  await post("/admin/content/publish", { revision: revision() });
  expect(await ask()).toContain("matchs en direct");
});

test("the overview's checklist reads the published content: the product's description and an FAQ entry of the owner's", async () => {
  const { get, post, revision } = await signedIn();
  const todo = await (await get("/admin")).text();
  expect(todo).toMatch(/To do:<\/span> the product&#x27;s description is yours/);
  expect(todo).toMatch(/To do:<\/span> the FAQ has at least one entry of yours/);
  await post("/admin/content/texts/hero", { revision: revision(), "text:heroTitle:en": "Films of the public domain." });
  await post("/admin/content/faq/new", {
    revision: revision(),
    shown: "yes",
    "question:en": "What is in it?",
    "answer:en": "Public-domain films.",
  });
  await post("/admin/content/publish", { revision: revision() });
  const done = await (await get("/admin")).text();
  expect(done).toMatch(/Done:<\/span> the product&#x27;s description is yours/);
  expect(done).toMatch(/Done:<\/span> the FAQ has at least one entry of yours/);
});

test("whatever a form sends, the answer is a refusal the owner can read, never a 500, and nothing changes", async () => {
  const { site, cookie, post, revision } = await signedIn();
  const before = readDraft(site.db);
  const routes = [
    "/admin/content/publish",
    "/admin/content/offer",
    "/admin/content/texts/hero",
    "/admin/content/faq/new",
    "/admin/content/faq/answer",
    "/admin/content/faq/faq1",
    "/admin/content/comparison",
    "/admin/content/restore",
  ];
  const bodies: Record<string, string>[] = [
    {},
    { revision: "not a number" },
    { revision: "999999999999" },
    // The right revision, and a wrong value for each form's fields.
    {
      revision: revision(),
      price: "1e9",
      currency: "EURO",
      endsOn: "2026-02-30",
      claimedUsers: "0",
      rows: "99",
      "service:0": "",
      "five:0": "-1",
      "text:heroTitle:fr": "x".repeat(1001),
      "question:fr": "{",
      "answer:fr": "<script>",
      lang: "xx",
      version: "1",
    },
  ];
  for (const path of routes) {
    for (const body of bodies) {
      const response = await post(path, body);
      expect({ path, body, refused: response.status >= 400 && response.status < 500 }).toEqual({ path, body, refused: true });
    }
    const json = await site.request(path, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" });
    expect({ path, status: json.status }).toEqual({ path, status: 415 });
    const huge = await post(path, { revision: revision(), "text:heroTitle:fr": "x".repeat(300_000) });
    expect({ path, status: huge.status }).toEqual({ path, status: 413 });
  }
  // Discard, rebase and a move are done with a right revision: only a wrong one is tried.
  for (const path of ["/admin/content/discard", "/admin/content/rebase", "/admin/content/faq/faq1/up"]) {
    for (const body of bodies.slice(0, 3)) {
      const response = await post(path, body);
      expect({ path, body, refused: response.status >= 400 && response.status < 500 }).toEqual({ path, body, refused: true });
    }
  }
  expect(readDraft(site.db)).toEqual(before);
  expect(readPublished(site.db).version).toBe(0);
});

test("the activity log lists each publish, restore and import: who, a link to the version, what changed with its values, in the owner's language", async () => {
  const { site, cookie, get, post, revision } = await signedIn();
  await post("/admin/content/offer", { revision: revision(), productName: "Ciné Maison", price: "19", currency: "EUR" });
  await post("/admin/content/publish", { revision: revision() });
  await post("/admin/content/restore", { version: "0" });
  // A save alone publishes nothing: the log does not list it.
  await post("/admin/content/offer", { revision: revision(), productName: "Brouillon", price: "19", currency: "EUR" });

  const en = await (await get("/admin/activity")).text();
  const rows = en.split("<tr>").slice(2);
  expect(rows).toHaveLength(3);
  // Newest first: the restore, then the publish, then the sign-in.
  expect(rows[0]).toContain("Earlier content version restored");
  expect(rows[0]).toContain('<a href="/admin/content/history#version-2">Version 2 (brings back version 0)</a>');
  expect(rows[0]).toContain("<li>Product name: “Ciné Maison” → “Lifetime Stream”</li>");
  expect(rows[1]).toContain("Content published");
  expect(rows[1]).toContain('<a href="/admin/content/history#version-1">Version 1</a>');
  expect(rows[1]).toContain("<li>Price: €29.99 → €19.00</li>");
  expect(en).not.toContain("Brouillon");
  expect(en).not.toContain("version 1<");
  // The link leads to the version's row in the history.
  expect(await (await get("/admin/content/history")).text()).toContain('id="version-1"');

  const fr = await (await site.request("/admin/activity", { headers: { cookie, "accept-language": "fr" } })).text();
  expect(fr).toContain("Contenu publié");
  expect(fr).toContain("Version 2 (reprend la version 0)");
  expect(fr).toContain("<li>Nom du produit : “Lifetime Stream” → “Ciné Maison”</li>");

  // The command line's import: the same entry, from the command line, in the import's transaction.
  const file = `${site.dataDir}/content.json`;
  const exported = JSON.parse(exportContent(site.db));
  exported.offer.productName = "Ciné Fichier";
  writeFileSync(file, JSON.stringify(exported));
  const cli = (args: string[]) =>
    runCommand(
      args,
      site.config,
      () => {},
      () => {},
    );
  expect(await cli(["content", "import", file])).toBe(0);
  const after = await (await get("/admin/activity")).text();
  expect(after.split("<tr>")[2]).toContain("Content imported from a file");
  expect(after.split("<tr>")[2]).toContain("command line");
  expect(after.split("<tr>")[2]).toContain("<li>Product name: “Lifetime Stream” → “Ciné Fichier”</li>");
  // An unchanged file publishes nothing and logs nothing.
  expect(await cli(["content", "import", file])).toBe(0);
  expect((await (await get("/admin/activity")).text()).split("<tr>")).toHaveLength(6);
});
