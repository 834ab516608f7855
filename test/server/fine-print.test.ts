import { afterEach, expect, test } from "bun:test";
import { LOCALES, type Locale } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// The fine print a buyer needs before paying, where the price is: how many devices one key works on
// (LICENSE_ACTIVATION_LIMIT, the figure the licence API enforces and the terms state) and what
// "lifetime" means (for as long as the app is offered, the terms' wording). A visitor read "install
// it everywhere with the same access" on the landing page while the terms said five devices.

let site: TestSite | undefined;
afterEach(() => site?.close());

/** The page as a visitor reads it: tags and the page data script out, entities and spaces plain. */
const read = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/[\u00a0\u202f]/g, " ")
    .replace(/\s+/g, " ");

/** The text of the element marked `data-testid="fineprint"`. */
const finePrint = (html: string) => {
  const match = /<p[^>]*data-testid="fineprint"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match === null ? null : read(match[1] ?? "").trim();
};

const SAID: Record<Locale, { devices: (n: number) => string; lifetime: string; terms: string }> = {
  fr: {
    devices: (n) => `${n} appareils à la fois`,
    lifetime: "aussi longtemps que l'application Lifetime Stream est proposée",
    terms: "aussi longtemps que l'application est proposée",
  },
  en: {
    devices: (n) => `${n} devices at a time`,
    lifetime: "for as long as the Lifetime Stream app is offered",
    terms: "for as long as the app is offered",
  },
  it: {
    devices: (n) => `${n} dispositivi alla volta`,
    lifetime: "finché l'app Lifetime Stream è disponibile",
    terms: "per tutto il tempo in cui l'app è offerta",
  },
  es: {
    devices: (n) => `${n} dispositivos a la vez`,
    lifetime: "mientras la app Lifetime Stream se siga ofreciendo",
    terms: "mientras la app se siga ofreciendo",
  },
};

for (const limit of [3, 7]) {
  test(`with LICENSE_ACTIVATION_LIMIT=${limit}, the landing page's pricing card and features and the payment page say ${limit} devices and what lifetime means, in every language`, async () => {
    site = await createTestSite({ env: { LICENSE_ACTIVATION_LIMIT: String(limit) } });
    for (const locale of LOCALES) {
      const said = SAID[locale];
      const landing = await (await site.request(pathFor("landing", locale))).text();
      const payment = await (await site.request(pathFor("payment", locale))).text();
      const terms = read(await (await site.request(pathFor("terms", locale))).text());
      for (const [page, html] of [
        ["landing", landing],
        ["payment", payment],
      ] as const) {
        const fine = finePrint(html);
        expect({ locale, page, devices: fine?.includes(said.devices(limit)) }).toEqual({ locale, page, devices: true });
        expect({ locale, page, lifetime: fine?.includes(said.lifetime) }).toEqual({ locale, page, lifetime: true });
      }
      // The features and the pricing card's list say it too; nothing says "everywhere".
      const text = read(landing);
      expect(text.split(said.devices(limit)).length - 1).toBeGreaterThanOrEqual(3);
      for (const loose of [
        "partout avec le même accès",
        "everywhere with the same access",
        "ovunque con lo stesso accesso",
        "donde quieras con el mismo acceso",
      ])
        expect(text.includes(loose)).toBe(false);
      // The terms say the same of "lifetime" and of the devices.
      expect({ locale, terms: terms.includes(said.terms) }).toEqual({ locale, terms: true });
      expect({ locale, terms: terms.includes(String(limit)) }).toEqual({ locale, terms: true });
    }
  }, 60_000);
}

test("the support is said as what it is (e-mail answered within the site's hours), never as priority support", async () => {
  site = await createTestSite();
  const hours: Record<Locale, string> = {
    fr: "Support par email 7 jours sur 7",
    en: "E-mail support 7 days a week",
    it: "Assistenza via email 7 giorni su 7",
    es: "Soporte por email 7 días a la semana",
  };
  for (const locale of LOCALES) {
    const text = read(await (await site.request(pathFor("landing", locale))).text());
    expect({ locale, hours: text.includes(hours[locale]) }).toEqual({ locale, hours: true });
    expect({ locale, priority: /priorit/i.test(text) }).toEqual({ locale, priority: false });
  }
});
