import { afterAll, expect, test } from "bun:test";
import { createOfflineAssistant } from "../../server/shop/chat/offline-assistant";
import { checkContent } from "../../server/site/content/check";
import { publish, readPublished } from "../../server/site/content/store";
import { type ContentDocument, defaultContent, type GuideDevice } from "../../shared/content";
import { createTestSite, type TestSite } from "../support/app";

// The installation guide is the owner's content (docs/content.md): devices added, removed and
// renamed, their steps per language; a language without the owner's text shows the built-in one,
// and a device or step of the owner's own missing in a language is left out of it.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const s of sites) await s.close();
});

const html = async (s: TestSite, path: string) => (await s.request(path)).text();
const section = (page: string, id: string) => new RegExp(`<section[^>]*id="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(page)?.[1] ?? null;
const steps = (part: string | null) =>
  [...(part ?? "").matchAll(/<li><span[^>]*>\d+<\/span><span>([^<]*)<\/span><\/li>/g)].map((m) => m[1]);
const toc = (page: string) => [...page.matchAll(/<li><a href="#([a-z0-9-]+)">/g)].map((m) => m[1]);

async function publishedGuide(change: (devices: GuideDevice[]) => GuideDevice[]): Promise<TestSite> {
  const s = await createTestSite();
  sites.push(s);
  const opened = readPublished(s.db);
  const document: ContentDocument = structuredClone(opened.document);
  document.guide.devices = change(document.guide.devices);
  const checked = checkContent(document);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  await publish(s.write, { document: checked.document, openedVersion: opened.version, by: "Anna", now: new Date() });
  s.content.refresh();
  return s;
}

test("devices added, removed, renamed and reordered show on the guide as published, each language with its own texts", async () => {
  const s = await publishedGuide((devices) => {
    const [android, ios, , mac, tv] = devices;
    if (android === undefined || ios === undefined || mac === undefined || tv === undefined) throw new Error("five built-in devices");
    // Renamed in French only; one step rewritten in English only.
    tv.title.text = { fr: "Téléviseurs connectés" };
    const store = tv.steps[0];
    if (store !== undefined) store.text = { en: "On the TV, open the app store that came with it." };
    const linux: GuideDevice = {
      id: "linux",
      title: { builtIn: null, text: { fr: "Ordinateurs Linux", en: "Linux computers" } },
      steps: [
        { builtIn: null, text: { fr: "Installez {siteName} depuis Flathub.", en: "Install {siteName} from Flathub." } },
        // A step written in French only: the English guide leaves it out.
        { builtIn: null, text: { fr: "Autorisez l'app dans le pare-feu si on vous le demande." } },
        { builtIn: "guide.step.key", text: {} },
      ],
      tip: null,
    };
    // Windows removed; Linux first; a French-only device.
    const chromebook: GuideDevice = {
      id: "chromebook",
      title: { builtIn: null, text: { fr: "Chromebook" } },
      steps: [{ builtIn: null, text: { fr: "Ouvrez Google Play sur le Chromebook." } }],
      tip: null,
    };
    return [linux, android, ios, mac, tv, chromebook];
  });

  const fr = await html(s, "/guide");
  const en = await html(s, "/en/guide");
  expect(toc(fr)).toEqual(["linux", "android", "ios", "mac", "tv", "chromebook"]);
  expect(toc(en)).toEqual(["linux", "android", "ios", "mac", "tv"]);
  expect(fr).not.toContain('id="windows"');
  expect(en).not.toContain("Windows computers");

  expect(steps(section(fr, "linux"))).toEqual([
    "Installez Lifetime Stream depuis Flathub.",
    "Autorisez l&#x27;app dans le pare-feu si on vous le demande.",
    "Saisissez la clé de licence indiquée dans votre email d&#x27;accès.",
  ]);
  expect(steps(section(en, "linux"))).toEqual(["Install Lifetime Stream from Flathub.", "Enter the licence key from your access e-mail."]);
  // The renamed device: French shows the owner's name, English its built-in one, never the other language's.
  expect(section(fr, "tv")).toContain('<h2 id="tv-title">Téléviseurs connectés</h2>');
  expect(section(en, "tv")).toContain('<h2 id="tv-title">Smart TVs and TV sticks</h2>');
  // The rewritten step: English the owner's, French (and Italian) the built-in one; the tip kept.
  expect(steps(section(en, "tv"))[0]).toBe("On the TV, open the app store that came with it.");
  expect(steps(section(fr, "tv"))[0]).toStartWith("Sur la TV, ouvrez la boutique d&#x27;applications");
  expect(section(en, "tv")).toContain('class="guide-tip"');
  expect(steps(section(await html(s, "/it/guide"), "tv"))).toHaveLength(5);
});

test("the chat names the guide's devices once the owner changed them, in the visitor's language", async () => {
  const s = await publishedGuide((devices) => [
    ...devices.filter((d) => d.id !== "windows" && d.id !== "mac"),
    {
      id: "linux",
      title: { builtIn: null, text: { en: "Linux computers", fr: "Ordinateurs Linux" } },
      steps: [{ builtIn: null, text: { en: "Install it from Flathub.", fr: "Installez-la depuis Flathub." } }],
      tip: null,
    },
  ]);
  const assistant = createOfflineAssistant({ licenseActivationLimit: s.config.licenseActivationLimit, content: s.content });
  const devices = assistant.answer("Which devices does it work on?", "en").text;
  expect(devices).toContain("Linux computers");
  expect(devices).toContain("Android phones and tablets");
  expect(devices).not.toContain("Windows");
  expect(devices).not.toContain("Mac");
  const install = assistant.answer("Comment installer l'application ?", "fr").text;
  expect(install).toContain("Ordinateurs Linux");
  expect(install).not.toContain("Windows");
  expect(install).toContain("/guide");
});

test("the built-in guide keeps the chat's built-in answers", async () => {
  const s = await createTestSite();
  sites.push(s);
  const assistant = createOfflineAssistant({ licenseActivationLimit: s.config.licenseActivationLimit, content: s.content });
  expect(assistant.answer("Which devices does it work on?", "en").text).toStartWith(
    "On Android and iOS phones and tablets, on Windows and Mac computers, and on smart TVs.",
  );
});

test("guide texts with HTML, a placeholder the site cannot fill, or no text at all are refused with the field named", () => {
  const withGuide = (change: (devices: GuideDevice[]) => void) => {
    const document = defaultContent();
    change(document.guide.devices);
    return checkContent(document);
  };
  expect(
    withGuide((d) => {
      d[0]!.steps[0]!.text.fr = "Ouvrez <b>Google Play</b>.";
    }),
  ).toMatchObject({ ok: false, problems: [{ path: "guide.devices[0].steps[0].text.fr", message: expect.stringContaining("HTML") }] });
  expect(
    withGuide((d) => {
      d[1]!.title.text.es = "iPhone de {nombre}";
    }),
  ).toMatchObject({ ok: false, problems: [{ path: "guide.devices[1].title.text.es", message: expect.stringContaining("{nombre}") }] });
  expect(
    withGuide((d) => {
      d.push({ id: "linux", title: { builtIn: null, text: {} }, steps: [{ builtIn: null, text: { en: "  " } }], tip: null });
    }),
  ).toMatchObject({
    ok: false,
    problems: [
      { path: "guide.devices[5].title.text", message: "needs its text in at least one language" },
      { path: "guide.devices[5].steps[0].text", message: "needs its text in at least one language" },
    ],
  });
  expect(
    withGuide((d) => {
      d[2]!.steps = [];
    }),
  ).toMatchObject({ ok: false, problems: [{ path: "guide.devices[2].steps", message: "must have at least one step" }] });
  expect(
    withGuide((d) => {
      d[2]!.id = "devices";
    }),
  ).toMatchObject({ ok: false, problems: [{ path: "guide.devices[2].id", message: expect.stringContaining("already uses") }] });
  expect(
    withGuide((d) => {
      d[3]!.steps[0]!.text.it = "x".repeat(401);
    }),
  ).toMatchObject({ ok: false, problems: [{ path: "guide.devices[3].steps[0].text.it", message: "must be at most 400 characters" }] });
  // The site's own values are allowed: the product's name, the support address.
  expect(
    withGuide((d) => {
      d[0]!.steps[0]!.text.en = "Search for {siteName}; stuck? Write to {email}.";
    }).ok,
  ).toBe(true);
});

test("a version published before the guide was content shows the built-in guide", async () => {
  const s = await createTestSite();
  sites.push(s);
  const before = await html(s, "/en/guide");
  const opened = readPublished(s.db);
  const { guide: _left, ...older } = structuredClone(opened.document);
  // Stored as an older version stored it: without `guide`.
  s.db.$client.run(
    "INSERT INTO content_versions (version, document, published_at, published_by, changes) VALUES (1, ?, ?, 'older', '[]')",
    [JSON.stringify({ ...older, texts: { heroTitle: { en: "Older version." } } }), Date.now()],
  );
  expect(s.content.refresh()).toBe(true);
  expect(readPublished(s.db).document.guide).toEqual(defaultContent().guide);
  expect(await html(s, "/en/guide")).toBe(before);
  expect(await html(s, "/en")).toContain("Older version.");
});
