import { expect, test } from "bun:test";
import { useDom } from "../support/dom";
import { serverHtml } from "../support/islands";
import { makePageData } from "../support/page-data";

useDom();

const { within } = await import("@testing-library/react");
const { LandingPage } = await import("../../client/pages/landing");
const { LanguageSwitcher } = await import("../../client/components/language-switcher");

// The landing page as the server renders it (it is server HTML but for its islands).
const landing = (data = makePageData()) => within(serverHtml(data, <LandingPage />));

test("the landing page has the spec's count of cards in every section", () => {
  const page = landing();
  expect(page.getAllByTestId("trust-badge")).toHaveLength(3);
  expect(page.getAllByTestId("feature-card")).toHaveLength(4);
  // Development's three sample reviews (marked), while none is published.
  expect(page.getAllByTestId("review")).toHaveLength(3);
  expect(page.getAllByTestId("benefit-card")).toHaveLength(6);
  expect(page.getAllByTestId("comparison-row")).toHaveLength(3);
  expect(page.getAllByTestId("step")).toHaveLength(4);
  expect(page.getAllByTestId("faq-item")).toHaveLength(5);
});

test("exactly five 'Voir la démo' buttons, each next to an 'Obtenir l'accès' link to the payment page", () => {
  const html = serverHtml(makePageData(), <LandingPage />);
  const page = within(html);
  const demo = page.getAllByRole("link", { name: "Voir la démo" });
  expect(demo).toHaveLength(5);
  const access = page.getAllByRole("link", { name: "Obtenir l'accès" });
  expect(access).toHaveLength(5);
  for (const link of access) expect(link.getAttribute("href")).toBe("/paiement");
  // The hero and the app preview each have the see-details button too, all links to the demo page
  // (the video with its captions, without script) whose video the demo island opens in its dialog.
  const buttons = [...html.querySelectorAll("[data-demo-button]")];
  expect(buttons.map((a) => a.getAttribute("href"))).toEqual(Array(7).fill("/demo"));
});

test("every review card shows initials, name, its stars, its date and, for a sample, that it is one", () => {
  for (const card of landing().getAllByTestId("review")) {
    expect(within(card).getByRole("img", { name: /^Noté [1-5] sur 5$/ })).toBeTruthy();
    expect(card.querySelectorAll(".stars svg")).toHaveLength(5);
    expect(card.querySelector(".avatar")?.textContent).toMatch(/^[A-Z]{2}$/);
    expect(card.querySelector("time")?.getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(card.querySelector("[data-testid=review-sample]")?.textContent).toBe("Exemple");
  }
});

test("the pricing card shows the configured price with the old price struck through", () => {
  const page = landing();
  expect(page.getByTestId("price").textContent?.replace(/\s/g, " ")).toBe("29,99 €");
  expect(page.getByTestId("old-price").tagName).toBe("DEL");
  expect(page.getByTestId("old-price").textContent).toContain("99");
});

test("once the offer has ended the pricing card shows the same price, with no struck-through price and no early-bird badge", () => {
  const data = makePageData();
  const html = serverHtml({ ...data, facts: { ...data.facts, offer: { on: false } } }, <LandingPage />);
  const page = within(html);
  expect(page.getByTestId("price").textContent?.replace(/\s/g, " ")).toBe("29,99 €");
  expect(page.queryByTestId("old-price")).toBeNull();
  expect(page.queryByTestId("early-bird")).toBeNull();
  expect(html.querySelector("del")).toBeNull();
  expect(page.getByTestId("hero-badge").textContent).toBe(" Un seul paiement — sans abonnement");
});

test("the landing page speaks English under /en", () => {
  const page = landing(makePageData({ page: "landing" }, "en"));
  expect(page.getByRole("heading", { level: 1 }).textContent).toBe("Every film and series. One payment. For life.");
  expect(page.getAllByRole("link", { name: "See the demo" })).toHaveLength(5);
  expect(page.getByTestId("price").textContent).toBe("€29.99");
});

test("the app preview offers a 640, 960 and 1280 px file for the width it takes, loaded lazily", () => {
  const html = serverHtml(makePageData(), <LandingPage />);
  const image = html.querySelector(".preview__image img");
  if (image === null) throw new Error("no app preview");
  expect(image.getAttribute("srcset")).toBe(
    "/assets/app-preview-640.webp 640w, /assets/app-preview-960.webp 960w, /assets/app-preview-1280.webp 1280w",
  );
  expect(image.getAttribute("sizes")).toBe("(min-width: 900px) 568px, calc(100vw - 40px)");
  expect(image.getAttribute("loading")).toBe("lazy");
});

test("FAQ: the five questions are one group of <details>, which the browser keeps to one open, script or not", () => {
  const items = landing().getAllByTestId("faq-item");
  expect(items.map((item) => [item.tagName, item.getAttribute("name")])).toEqual(Array(5).fill(["DETAILS", "faq"]));
});

test("language switcher: four flags, the active one marked and not a link, the others link to the same page", () => {
  const nav = within(serverHtml(makePageData({ page: "payment", purchaseNotice: false }, "it"), <LanguageSwitcher />)).getByRole(
    "navigation",
  );
  const current = nav.querySelector('[aria-current="true"]');
  expect(current?.textContent).toBe("Italiano");
  expect(current?.tagName).not.toBe("A");
  const links = within(nav).getAllByRole("link");
  expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
    ["Français", "/paiement"],
    ["English", "/en/paiement"],
    ["Español", "/es/paiement"],
  ]);
  expect(nav.querySelectorAll("svg.flag")).toHaveLength(4);
});
