import { afterAll, expect, test } from "bun:test";
import { publishDraft, readDraft, readPublished } from "../../server/site/content/store";
import { createTestSite, type TestSite } from "../support/app";
import { ownerCookie } from "./owner";

// The installation guide's editor in the console (/admin/content/guide): devices added, renamed,
// moved and removed, steps written per language, all into the draft, with the revision the page
// was opened at; refused edits say which field and change nothing.

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const EN = { "accept-language": "en" };

const sites: TestSite[] = [];
afterAll(async () => {
  for (const s of sites) await s.close();
});

async function signedIn() {
  const site = await createTestSite();
  sites.push(site);
  const cookie = await ownerCookie(site);
  const get = (path: string) => site.request(path, { headers: { cookie, ...EN } });
  const post = (path: string, fields: Record<string, string>) =>
    site.request(path, { method: "POST", headers: { cookie, ...EN, ...FORM }, body: new URLSearchParams(fields).toString() });
  const revision = () => String(readDraft(site.db).revision);
  return { site, get, post, revision };
}

test("without a session the guide editor goes to the sign-in page and its forms change nothing", async () => {
  const site = await createTestSite();
  sites.push(site);
  const page = await site.request("/admin/content/guide");
  expect(page.status).toBe(303);
  expect(page.headers.get("location")).toBe("/admin/sign-in");
  const posted = await site.request("/admin/content/guide/add", { method: "POST", headers: FORM, body: "revision=0&title.en=Linux" });
  expect(posted.status).toBe(401);
  expect(readDraft(site.db).revision).toBe(0);
});

test("the owner adds a device, writes its steps per language, renames and moves devices; the draft holds it and a publish shows it", async () => {
  const { site, get, post, revision } = await signedIn();
  const list = await (await get("/admin/content/guide")).text();
  for (const name of ["Android phones and tablets", "iPhone and iPad", "Windows computers", "Mac", "Smart TVs and TV sticks"])
    expect(list).toContain(name);
  expect(list).toContain("/guide#tv");

  const added = await post("/admin/content/guide/add", {
    revision: revision(),
    "title.fr": "Ordinateurs Linux",
    "title.en": "Linux computers",
    "step.fr": "Installez {siteName} depuis Flathub.",
    "step.en": "Install {siteName} from Flathub.",
  });
  expect(added.status).toBe(303);
  expect(added.headers.get("location")).toBe("/admin/content/guide/ordinateurs-linux?done=added");
  const devicePage = await (await get(added.headers.get("location") ?? "")).text();
  expect(devicePage).toContain("Device added to the draft.");
  // The missing languages are named: the device is left out of their pages.
  expect(devicePage).toContain("Missing in Italiano, Español: left out of those pages.");
  expect(devicePage).toContain('<label for="f-steps-0-en">English</label>');

  // A second step, then moved up to first.
  const saved = await post("/admin/content/guide/ordinateurs-linux", {
    revision: revision(),
    action: "save",
    "title.fr": "Ordinateurs Linux",
    "title.en": "Linux computers",
    "steps.0.fr": "Installez {siteName} depuis Flathub.",
    "steps.0.en": "Install {siteName} from Flathub.",
    "new.en": "Open a terminal first.",
  });
  expect(saved.status).toBe(303);
  const moved = await post("/admin/content/guide/ordinateurs-linux", {
    revision: revision(),
    action: "up-1",
    "title.fr": "Ordinateurs Linux",
    "title.en": "Linux computers",
    "steps.0.fr": "Installez {siteName} depuis Flathub.",
    "steps.0.en": "Install {siteName} from Flathub.",
    "steps.1.en": "Open a terminal first.",
  });
  expect(moved.status).toBe(303);

  // A built-in device renamed in English only, and moved first; Windows removed.
  const tvFields: Record<string, string> = { revision: revision(), action: "save", "title.en": "Televisions" };
  const tv = readDraft(site.db).document.guide.devices.find((d) => d.id === "tv");
  tv?.steps.forEach((_, i) => {
    tvFields[`steps.${i}.en`] = "";
  });
  expect((await post("/admin/content/guide/tv", tvFields)).status).toBe(303);
  expect((await post("/admin/content/guide/windows/move", { revision: revision(), move: "remove" })).status).toBe(303);
  expect((await post("/admin/content/guide/ordinateurs-linux/move", { revision: revision(), move: "up" })).status).toBe(303);

  const draft = readDraft(site.db);
  expect(draft.document.guide.devices.map((d) => d.id)).toEqual(["android", "ios", "mac", "ordinateurs-linux", "tv"]);
  const linux = draft.document.guide.devices[3];
  expect(linux?.steps.map((s) => s.text)).toEqual([
    { en: "Open a terminal first." },
    { fr: "Installez {siteName} depuis Flathub.", en: "Install {siteName} from Flathub." },
  ]);
  // The built-in texts left empty stay built-in: the TV's steps are still the defaults.
  expect(draft.document.guide.devices[4]?.title).toEqual({ builtIn: "guide.tv.title", text: { en: "Televisions" } });
  expect(draft.document.guide.devices[4]?.steps.every((s) => s.builtIn !== null && Object.keys(s.text).length === 0)).toBe(true);
  // Nothing is online before the publish.
  expect(readPublished(site.db).version).toBe(0);
  expect(await (await site.request("/en/guide")).text()).toContain("Windows computers");

  await publishDraft(site.write, { openedRevision: draft.revision, by: "test", now: new Date() });
  site.content.refresh();
  const en = await (await site.request("/en/guide")).text();
  expect(en).not.toContain("Windows computers");
  expect(en).toContain('<h2 id="ordinateurs-linux-title">Linux computers</h2>');
  expect(en).toContain("Open a terminal first.");
  expect(en).toContain('<h2 id="tv-title">Televisions</h2>');
  const it = await (await site.request("/it/guide")).text();
  expect(it).not.toContain("ordinateurs-linux");
  expect(it).toContain("Smart TV e chiavette TV");
});

test("a refused edit names the field, keeps what the owner wrote and changes nothing; a stale page is told so", async () => {
  const { site, post, revision } = await signedIn();
  const before = readDraft(site.db);
  const refused = await post("/admin/content/guide/ios", {
    revision: revision(),
    action: "save",
    "title.en": "iPhone <b>and</b> iPad",
    "steps.0.it": "Apri {negozio}.",
  });
  expect(refused.status).toBe(422);
  const page = await refused.text();
  expect(page).toContain("Nothing was saved: 2 fields need a change.");
  expect(page).toMatch(/id="f-title-en"[^>]*aria-invalid="true"/);
  expect(page).toContain('<p class="error" id="f-title-en-error">must be plain text');
  expect(page).toContain('id="f-steps-0-it-error">uses {negozio}');
  // What the owner wrote is in the fields again.
  expect(page).toContain("iPhone &lt;b&gt;and&lt;/b&gt; iPad");
  expect(readDraft(site.db)).toEqual(before);

  const stale = await post("/admin/content/guide/ios", { revision: String(before.revision + 5), action: "save", "title.en": "Apple" });
  expect(stale.status).toBe(409);
  expect(await stale.text()).toContain("The content changed since this page was opened");
  expect(readDraft(site.db)).toEqual(before);

  const unknown = await post("/admin/content/guide/nokia/move", { revision: revision(), move: "up" });
  expect(unknown.status).toBe(404);
  const badMove = await post("/admin/content/guide/ios/move", { revision: revision(), move: "sideways" });
  expect(badMove.status).toBe(400);
  const noName = await post("/admin/content/guide/add", { revision: revision(), "step.en": "Do it." });
  expect(noName.status).toBe(422);
  expect(await noName.text()).toContain("needs its text in at least one language");
  expect(readDraft(site.db)).toEqual(before);
});
