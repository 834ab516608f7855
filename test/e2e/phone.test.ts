import { beforeAll, expect } from "bun:test";
import type { Page } from "playwright-core";
import { payWithTestCard } from "../support/purchase";
import { placement, settle } from "./floating";
import { useSite } from "./harness";
import { sideBySide } from "./limit";
import { visit } from "./visit";

// A buyer on a phone (360 x 800), and the same on a laptop (1440 x 900) where layout or timing is
// concerned: the purchase notice shows on the first screen at its first turn, help is at hand on the
// payment page, the first screen shows the app, the exit popup raises no keyboard on a touch
// screen, the demo takes the screen's width, and switching language keeps the section.

const site = useSite();

/** The journeys are independent (each its own context, reading only its own pages): side by side,
 * three at a time. */
const journey = sideBySide(3);
const PHONE = { width: 360, height: 800 };
const LAPTOP = { width: 1440, height: 900 };

/** A context where the exit popup (30 s) has already been seen, unless `popup`. */
async function open(viewport: { width: number; height: number }, options: { touch?: boolean; popup?: boolean; clock?: boolean } = {}) {
  const context = await site.newContext({ viewport, hasTouch: options.touch === true, isMobile: options.touch === true });
  if (options.popup !== true) await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  if (options.clock === true) await page.clock.install();
  return { context, page };
}

/** What of the page the box of `selector` covers that a visitor uses or decides on (not text). */
const usedCovered = async (page: Page, selector: string) => (await placement(page, selector)).covers.filter((c) => !c.startsWith("text: "));

let bought: Promise<string> | null = null;
/** One real paid order (from Lyon) for the purchase notice, made once for the file: its success page. */
const aRealOrder = () =>
  (bought ??= payWithTestCard(
    { request: (path, init) => fetch(`${site.server.baseUrl}${path}`, { ...init, redirect: "manual" }) },
    { locale: "fr", email: "buyer-phone@example.com", inNotice: true },
  ).then((paid) => paid.successPath));

// The order is there before any journey starts, as it was for all but the first two when they ran
// one after the other: no purchase notice comes in the middle of a journey that measures the page.
beforeAll(async () => {
  await aRealOrder();
});

for (const viewport of [PHONE, LAPTOP]) {
  journey(
    `at ${viewport.width}x${viewport.height}, with a real order the purchase notice shows bottom-left at its first turn (3 s, so within 10 s) without scrolling, covering no button, link or price`,
    async () => {
      await aRealOrder();
      const { context, page } = await open(viewport, { clock: true });
      // The page's clock stands still while the page loads (a loaded machine takes seconds), then
      // moves only as the test says: the notice's 3 s are the page's, not the machine's. pauseAt cannot
      // go back and the installed clock runs until paused, so it pauses a minute ahead (no page is
      // open yet, so no timer of the site's fires on the way), not a second a loaded machine may pass.
      await page.clock.pauseAt(Date.now() + 60_000);
      // When the notice first appears, on the page's clock (the time since the page started loading).
      await context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (document.querySelector(".social-proof__card") === null) return;
          document.documentElement.dataset.noticeAt = String(Math.round(performance.now()));
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await visit(page, "/");
      // Its code loaded (on a busy machine that takes real seconds, while the page's clock stands).
      await page.locator("[data-island=social-proof][data-island-state=hydrated]").waitFor({ state: "attached" });
      await page.clock.runFor(3_200);
      await page.locator(".social-proof__card").waitFor({ state: "visible" });
      const shownAt = Number(await page.evaluate(() => document.documentElement.dataset.noticeAt));
      console.log(`purchase notice first shown at ${shownAt} ms (${viewport.width}x${viewport.height})`);
      expect(shownAt).toBeGreaterThanOrEqual(3_000);
      expect(shownAt).toBeLessThan(10_000);
      // Its entrance (0.22 s) played out before it is measured: the page's clock for its timers, and
      // the browser's own for the animation itself (a CSS animation does not follow the test clock; nor
      // does settle() here, whose animation frames the installed clock holds back).
      await page.clock.runFor(300);
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
      const notice = await placement(page, ".social-proof__card");
      expect(notice.shown).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // Bottom-left, readable: inside the screen, on the left half, in its lower part.
      expect(notice.box.left).toBeLessThanOrEqual(16);
      expect(notice.box.top + notice.box.height).toBeLessThanOrEqual(viewport.height);
      expect(notice.box.top).toBeGreaterThan(viewport.height / 2);
      expect(await page.locator(".social-proof__text").textContent()).toContain("Lyon");
      expect(await usedCovered(page, ".social-proof__card")).toEqual([]);
      // It leaves after its five seconds.
      await page.clock.runFor(5_100);
      await page.locator(".social-proof__card").waitFor({ state: "detached" });
      await context.close();
    },
    120_000,
  );
}

journey(
  "at 360x800 the payment page's help button is on screen from the start and once scrolled to the pay button, covers neither the consent nor the pay button, and opens the support menu",
  async () => {
    const { context, page } = await open(PHONE);
    await visit(page, "/paiement");
    await settle(page);
    const help = page.locator("[data-support-button]");
    const inView = async () =>
      help.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
      });
    expect(await inView()).toBe(true);
    expect(await help.textContent()).toBe("Aide");
    await page.locator("[data-testid=pay-button]").scrollIntoViewIfNeeded();
    await settle(page);
    expect(await inView()).toBe(true);
    // In the header's flow: nothing of the page is under it.
    const box = await help.boundingBox();
    for (const selector of ["[data-testid=pay-button]", "[data-testid=consent-box]", ".consent__label"]) {
      const other = await page.locator(selector).boundingBox();
      if (box === null || other === null) throw new Error(`no box for ${selector}`);
      const overlaps =
        box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height;
      expect({ selector, overlaps }).toEqual({ selector, overlaps: false });
    }
    await help.click();
    await page.getByRole("menu").waitFor({ state: "visible" });
    expect(await page.getByRole("menuitem").count()).toBe(2);
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    expect(await help.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  },
);

journey(
  "at 360x800 the payment page's pay button waits for the consent (aria-disabled, the reason beside it), and the box's border stands out at 3:1 or more",
  async () => {
    const { context, page } = await open(PHONE);
    await visit(page, "/paiement");
    const pay = page.locator("[data-testid=pay-button]");
    await page.locator("[data-island=pay-button][data-island-state=hydrated]").waitFor({ state: "attached" });
    expect(await pay.getAttribute("aria-disabled")).toBe("true");
    expect(await page.locator("[data-testid=pay-reason]").textContent()).toBe("Cochez la case ci-dessus pour pouvoir payer.");
    // The border against the panel behind it (WCAG 1.4.11).
    const ratio = await page.locator("[data-testid=consent-box]").evaluate((box) => {
      const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
        const c = [r, g, b].map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
      };
      let behind: Element | null = box.parentElement;
      while (behind !== null && getComputedStyle(behind).backgroundColor.includes("0)")) behind = behind.parentElement;
      const a = luminance(rgb(getComputedStyle(box).borderTopColor));
      const b = luminance(rgb(getComputedStyle(behind ?? document.body).backgroundColor));
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    expect(ratio).toBeGreaterThanOrEqual(3);
    await page.locator("[data-testid=consent-box]").check();
    expect(await pay.getAttribute("aria-disabled")).toBeNull();
    expect(await page.locator("[data-testid=pay-reason]").count()).toBe(0);
    // Busy, its label stays on the button's one line (it wrapped: "Redirection vers le paiement /
    // sécurisé…"): the answer is held back so that the busy state lasts while it is measured.
    const idle = (await pay.boundingBox())?.height;
    await page.route("**/api/payment", () => undefined);
    await pay.click();
    await page.locator("[data-testid=pay-button][aria-busy=true]").waitFor();
    expect(await pay.textContent()).toBe("Redirection…");
    expect((await pay.boundingBox())?.height).toBe(idle);
    await context.close();
  },
);

journey(
  "at 360x800 the first screen shows an <img> of the app, the header shows the brand's name, and the hero's buttons take the column's width",
  async () => {
    const { context, page } = await open(PHONE);
    await visit(page, "/");
    const picture = page.locator("[data-testid=hero-visual]");
    await picture.evaluate((img: HTMLImageElement) => img.decode());
    const seen = await picture.evaluate((img: HTMLImageElement) => {
      const box = img.getBoundingClientRect();
      const visible = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
      return { tag: img.tagName, loaded: img.naturalWidth > 1, share: visible / box.height, alt: img.alt };
    });
    expect(seen.tag).toBe("IMG");
    expect(seen.loaded).toBe(true);
    expect(seen.alt.length).toBeGreaterThan(0);
    // Most of it on the first screen, not a sliver at its bottom edge.
    expect(seen.share).toBeGreaterThanOrEqual(0.75);

    const name = page.locator(".site-header .brand__name");
    expect(await name.isVisible()).toBe(true);
    expect(await name.textContent()).toBe("Lifetime Stream");
    const header = await page.locator(".site-header").boundingBox();
    expect(header?.height).toBeLessThanOrEqual(110);

    const column = await page.locator(".hero__inner").evaluate((el) => {
      const style = getComputedStyle(el);
      return el.getBoundingClientRect().width - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    });
    for (const button of await page.locator(".hero__buttons .button").all()) {
      const box = await button.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(Math.round(column));
    }
    await context.close();
  },
);

journey(
  "on a touch screen the exit popup opens at 30 s with the dialog focused, not its e-mail field (no keyboard jumps up); with a mouse the field is focused",
  async () => {
    for (const touch of [true, false]) {
      const { context, page } = await open(PHONE, { touch, popup: true, clock: true });
      await visit(page, "/");
      await page.clock.runFor(31_000);
      const dialog = page.locator("#exit-popup");
      await dialog.waitFor({ state: "visible" });
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        return { tag: el?.tagName ?? "", id: el?.id ?? "" };
      });
      if (touch) expect(focused).toEqual({ tag: "DIALOG", id: "exit-popup" });
      else expect(focused.tag).toBe("INPUT");
      await context.close();
    }
  },
  120_000,
);

journey("at 360x800 the demo video in the dialog spans the screen's full width", async () => {
  const { context, page } = await open(PHONE);
  await visit(page, "/");
  await page.locator("[data-demo-button]").first().click();
  const video = page.locator(".demo-dialog video");
  await video.waitFor({ state: "visible" });
  await settle(page);
  const box = await video.boundingBox();
  expect(Math.round(box?.x ?? -1)).toBe(0);
  expect(Math.round(box?.width ?? 0)).toBe(PHONE.width);
  await context.close();
});

for (const viewport of [PHONE, LAPTOP]) {
  journey(
    `at ${viewport.width}x${viewport.height}, switching language keeps the section: from /#features to /en#features, and from the pricing scrolled to to /it#pricing`,
    async () => {
      const { context, page } = await open(viewport);
      await visit(page, "/#features");
      await page.locator(".lang-switcher a[hreflang=en]").click();
      await page.waitForURL((url) => url.pathname === "/en");
      expect(new URL(page.url()).hash).toBe("#features");
      // The page glides to the section (scroll-behavior: smooth), which takes longer on a busy machine:
      // what counts is where it comes to rest. Where exactly moves with what loads above it.
      const onScreen = await page
        .waitForFunction(
          () => {
            const r = document.getElementById("features")?.getBoundingClientRect();
            return r !== undefined && r.top < window.innerHeight && r.bottom > 0;
          },
          undefined,
          { timeout: 15_000 },
        )
        .then(() => true)
        .catch(() => false);
      expect(onScreen).toBe(true);

      await page.locator("#pricing").evaluate((el) => el.scrollIntoView({ block: "start", behavior: "instant" }));
      // A tap where the visitor is: Playwright's own click first scrolls the sticky header's link
      // "into view", moving the page under it.
      await page.locator(".lang-switcher a[hreflang=it]").evaluate((link: HTMLAnchorElement) => link.click());
      await page.waitForURL((url) => url.pathname === "/it");
      expect(new URL(page.url()).hash).toBe("#pricing");
      await context.close();
    },
    60_000,
  );
}

journey(
  'at 320 and 360 px the success page\'s title keeps "Paiement réussi" on one line',
  async () => {
    const successPath = await aRealOrder();
    for (const width of [320, 360]) {
      const { context, page } = await open({ width, height: 800 });
      await visit(page, successPath);
      const lines = await page.locator("h1.page__title").evaluate((title) => {
        const text = title.firstChild;
        if (text === null) return { text: "", tops: 0 };
        const range = document.createRange();
        range.setStart(text, 0);
        range.setEnd(text, "Paiement réussi".length);
        // Lines, not boxes: a glyph from another font (é) may sit a pixel higher on the same line.
        const half = Number.parseFloat(getComputedStyle(title).fontSize) / 2;
        const tops: number[] = [];
        for (const rect of range.getClientRects()) if (!tops.some((top) => Math.abs(top - rect.top) < half)) tops.push(rect.top);
        return { text: range.toString(), tops: tops.length };
      });
      expect({ width, ...lines }).toEqual({ width, text: "Paiement réussi", tops: 1 });
      await context.close();
    }
  },
  60_000,
);
