import { expect, test } from "bun:test";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";

useDom();

const { render, screen, within, fireEvent } = await import("@testing-library/react");
const { I18nProvider } = await import("../../client/i18n");
const { ToastProvider } = await import("../../client/components/toast");
const { DemoDialogProvider } = await import("../../client/components/demo-dialog");
const { LandingPage } = await import("../../client/pages/landing");
const { FaqList } = await import("../../client/components/faq");
const { LanguageSwitcher } = await import("../../client/components/language-switcher");

type Data = ReturnType<typeof makePageData>;
function renderWithProviders(ui: React.ReactNode, data: Data = makePageData()) {
  return render(
    <I18nProvider data={data}>
      <ToastProvider>
        <DemoDialogProvider>{ui}</DemoDialogProvider>
      </ToastProvider>
    </I18nProvider>,
  );
}

test("the landing page has the spec's count of cards in every section", () => {
  renderWithProviders(<LandingPage />);
  expect(screen.getAllByTestId("trust-badge")).toHaveLength(3);
  expect(screen.getAllByTestId("feature-card")).toHaveLength(4);
  expect(screen.getAllByTestId("testimonial")).toHaveLength(4);
  expect(screen.getAllByTestId("benefit-card")).toHaveLength(6);
  expect(screen.getAllByTestId("comparison-row")).toHaveLength(3);
  expect(screen.getAllByTestId("step")).toHaveLength(4);
  expect(screen.getAllByTestId("faq-item")).toHaveLength(5);
});

test("exactly five 'Voir la démo' buttons, each next to an 'Obtenir l'accès' link to the payment page", () => {
  renderWithProviders(<LandingPage />);
  const demo = screen.getAllByRole("link", { name: "Voir la démo" });
  expect(demo).toHaveLength(5);
  const access = screen.getAllByRole("link", { name: "Obtenir l'accès" });
  expect(access).toHaveLength(5);
  for (const link of access) expect(link.getAttribute("href")).toBe("/paiement");
  // The hero and the app preview each have the see-details button too.
  expect(document.querySelectorAll("[data-demo-button]")).toHaveLength(7);
});

test("every testimonial shows initials, name, city and five stars", () => {
  renderWithProviders(<LandingPage />);
  for (const card of screen.getAllByTestId("testimonial")) {
    expect(within(card).getByRole("img", { name: "Noté 5 sur 5" })).toBeTruthy();
    expect(card.querySelectorAll(".stars svg")).toHaveLength(5);
    expect(card.querySelector(".avatar")?.textContent).toMatch(/^[A-Z]{2}$/);
  }
});

test("the pricing card shows the configured price with the old price struck through", () => {
  renderWithProviders(<LandingPage />);
  expect(screen.getByTestId("price").textContent?.replace(/\s/g, " ")).toBe("29,99 €");
  expect(screen.getByTestId("old-price").tagName).toBe("DEL");
  expect(screen.getByTestId("old-price").textContent).toContain("99");
});

test("once the offer has ended the pricing card shows the same price, with no struck-through price and no early-bird badge", () => {
  const data = makePageData();
  renderWithProviders(<LandingPage />, { ...data, facts: { ...data.facts, offer: { on: false } } });
  expect(screen.getByTestId("price").textContent?.replace(/\s/g, " ")).toBe("29,99 €");
  expect(screen.queryByTestId("old-price")).toBeNull();
  expect(screen.queryByTestId("early-bird")).toBeNull();
  expect(document.querySelector("del")).toBeNull();
  expect(screen.getByTestId("hero-badge").textContent).toBe(" Un seul paiement — sans abonnement");
});

test("the landing page speaks English under /en", () => {
  renderWithProviders(<LandingPage />, makePageData({ page: "landing" }, "en"));
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Every film and series. One payment. For life.");
  expect(screen.getAllByRole("link", { name: "See the demo" })).toHaveLength(5);
  expect(screen.getByTestId("price").textContent).toBe("€29.99");
});

test("FAQ: opening a question closes the open one, and the open one can be closed again", () => {
  renderWithProviders(<FaqList />);
  const items = screen.getAllByTestId("faq-item");
  const [first, second] = items;
  if (!(first instanceof HTMLDetailsElement) || !(second instanceof HTMLDetailsElement)) throw new Error("not <details>");
  fireEvent.click(first.querySelector("summary")!);
  expect(first.open).toBe(true);
  fireEvent.click(second.querySelector("summary")!);
  expect(second.open).toBe(true);
  expect(first.open).toBe(false);
  expect(items.filter((d) => d instanceof HTMLDetailsElement && d.open)).toHaveLength(1);
  fireEvent.click(second.querySelector("summary")!);
  expect(items.filter((d) => d instanceof HTMLDetailsElement && d.open)).toHaveLength(0);
});

test("language switcher: four flags, the active one marked and not a link, the others link to the same page", () => {
  renderWithProviders(<LanguageSwitcher />, makePageData({ page: "payment" }, "it"));
  const nav = screen.getByRole("navigation");
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
