import { afterAll, beforeAll, expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const page = async (path: string) => {
  const response = await site.request(path);
  return { status: response.status, html: await response.text() };
};

// Access e-mails link to these anchors: they are an address, not a detail of the page.
const DEVICE_ANCHORS = ["android", "ios", "windows", "mac", "tv"];

test("the guide answers 200 at /guide and under every language prefix", async () => {
  expect(LOCALES.map((locale) => pathFor("guide", locale))).toEqual(["/guide", "/en/guide", "/it/guide", "/es/guide"]);
  for (const locale of LOCALES) {
    const path = pathFor("guide", locale);
    const { status, html } = await page(path);
    expect({ path, status }).toEqual({ path, status: 200 });
    expect(html).toContain(`<html lang="${locale}"`);
  }
});

test("the guide has one section per device, each with its anchor, a heading and five ordered steps", async () => {
  for (const locale of LOCALES) {
    const { html } = await page(pathFor("guide", locale));
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const id of DEVICE_ANCHORS) {
      const section = new RegExp(`<section[^>]*id="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1] ?? "";
      expect({ locale, id, heading: section.includes(`<h2 id="${id}-title">`) }).toEqual({ locale, id, heading: true });
      expect({ locale, id, steps: section.match(/<li>/g)?.length }).toEqual({ locale, id, steps: 5 });
      expect(section).toContain("<ol");
      // The table of contents at the top links to the section.
      expect(html).toContain(`href="#${id}"`);
    }
  }
});

test("the guide is in the visitor's language, with its own title and description", async () => {
  const fr = (await page("/guide")).html;
  expect(fr).toContain("<title>Guide d&#x27;installation — Lifetime Stream</title>");
  expect(fr).toContain("Installez Lifetime Stream en 2 minutes environ");
  expect(fr).toContain("Ouvrez l&#x27;App Store sur votre iPhone ou votre iPad.");
  expect(fr).toContain("Saisissez la clé de licence indiquée dans votre email d&#x27;accès.");

  const en = (await page("/en/guide")).html;
  expect(en).toContain("<title>Installation guide — Lifetime Stream</title>");
  expect(en).toMatch(/<meta name="description" content="Install Lifetime Stream in about 2 minutes on Android/);
  expect(en).toContain("Search for Lifetime Stream, then tap Install.");
  expect(en).toContain("Enter the licence key from your access e-mail.");

  expect((await page("/it/guide")).html).toContain("Apri Microsoft Store dal menu Start.");
  expect((await page("/es/guide")).html).toContain("Busca Lifetime Stream con el mando y instala la app.");
});

test("the guide ends with help: the support address, the support hours and the 7-day guarantee", async () => {
  const { html } = await page("/en/guide");
  const help = /<section[^>]*aria-labelledby="guide-help-title"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
  expect(help).toContain("Need help?");
  expect(help).toContain('href="mailto:support@example.com"');
  expect(help).toContain("7 days a week");
  expect(help).toContain("7-day money-back guarantee");
  // The refund is the access e-mail's link, which the site itself carries out.
  expect(help).toContain(
    "within 7 days of your purchase, one click on the refund link in your access e-mail refunds you in full, straight away.",
  );
});

test("the footer of every page links to the guide in the page's language", async () => {
  const paths: [string, string, string][] = [
    ["/", "/guide", "Guide d&#x27;installation"],
    ["/en/paiement", "/en/guide", "Installation guide"],
    ["/it/payment-canceled", "/it/guide", "Guida all&#x27;installazione"],
    ["/es/payment-success", "/es/guide", "Guía de instalación"],
    ["/en/no-such-page", "/en/guide", "Installation guide"],
  ];
  for (const [path, guide, text] of paths) {
    const footer = /<footer class="site-footer">([\s\S]*)<\/footer>/.exec((await page(path)).html)?.[1] ?? "";
    expect({ path, link: footer.includes(`<a href="${guide}">${text}</a>`) }).toEqual({ path, link: true });
  }
});

test("the landing page's installation-guides benefit links to the guide", async () => {
  expect((await page("/en")).html).toContain('<a href="/en/guide">See the installation guide</a>');
  expect((await page("/")).html).toContain('<a href="/guide">Voir le guide d&#x27;installation</a>');
});
