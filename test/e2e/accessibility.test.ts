import { expect } from "bun:test";
import { axeViolations } from "./axe";
import { startServer, useSharedSite } from "./harness";
import { sideBySide } from "./limit";
import { firstScreenSettled, visit } from "./visit";

// No accessibility violation of any impact, under every rule axe-core runs by default, on any screen
// (contrast, labels, names, landmarks, lang...). test/e2e/browser-sweep.test.ts checks every page in
// every language at 320 and 1280 px, with the states a visitor meets by a link (the consent error,
// a paid and an unknown order, the access form answered); these are the screens it does not reach
// (forms answered in the page, a page without its script, the Stripe payment page, focus rings).
// Independent of one another, they run side by side, at most three at a time.
const site = useSharedSite();
const journey = sideBySide(3);

async function violations(path: string, width: number, baseURL = site.server.baseUrl): Promise<string[]> {
  const context = await site.newContext({ baseURL, bypassCSP: true, viewport: { width, height: 900 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  // Read as it stays: loaded, in its font, the islands of its first screen rendered.
  await visit(page, path);
  await firstScreenSettled(page);
  const found = await axeViolations(page, `${path} @${width}px`);
  await context.close();
  return found;
}

journey("no accessibility violation on the unsubscribe page", async () => {
  expect(await violations("/unsubscribe?token=0", 390)).toEqual([]);
});

// The payment page rendered for a code (`?code=`): here one that does not exist, the field in error
// beside its Apply button and the price unchanged.
journey("no accessibility violation on the payment page with a refused code, phone", async () => {
  expect(await violations("/paiement?code=NOPE", 320)).toEqual([]);
});

// The demo page is in the browser sweep too, with its script; this is the page as the demo links
// open it without one (the only way they lead there but for a new tab). axe-core is a script that
// needs timers, so the page keeps JavaScript for it and its own script file is refused instead.
journey("no accessibility violation on the demo page as it is without its script, phone and desktop", async () => {
  const found: string[] = [];
  for (const [path, width] of [
    ["/demo", 360],
    ["/es/demo", 1280],
  ] as const) {
    const context = await site.newContext({ bypassCSP: true, viewport: { width, height: 900 }, reducedMotion: "reduce" });
    await context.route("**/assets/*.js", (route) => route.abort());
    const page = await context.newPage();
    await page.goto(path);
    // Nothing of the site's ran: no island was even looked at by the loader.
    expect(await page.locator("[data-island-state]").count()).toBe(0);
    found.push(...(await axeViolations(page, `${path} without its script @${width}px`)));
    await context.close();
  }
  expect(found).toEqual([]);
});

journey(
  "no accessibility violation on the test card page with every field in error (the consent line, the purchase-notice note), phone and desktop",
  async () => {
    const found: string[] = [];
    for (const [path, width] of [
      ["/paiement", 320],
      ["/en/paiement", 1280],
    ] as const) {
      const context = await site.newContext({ bypassCSP: true, viewport: { width, height: 900 }, reducedMotion: "reduce" });
      const page = await context.newPage();
      await page.goto(path);
      await page.waitForFunction(() =>
        Object.keys(document.querySelector('[data-testid="pay-button"]') ?? {}).some((k) => k.startsWith("__reactProps")),
      );
      await page.getByTestId("consent-box").check();
      await page.getByTestId("pay-button").click();
      await page.waitForURL("**/checkout/test/**");
      await page.waitForFunction(() =>
        Object.keys(document.querySelector("form.test-checkout__form") ?? {}).some((k) => k.startsWith("__reactProps")),
      );
      await page.locator('form.test-checkout__form button[type="submit"]').click();
      await page.locator(".test-checkout__error").first().waitFor({ state: "visible" });
      expect(await page.getByTestId("purchase-notice").isVisible()).toBe(true);
      found.push(...(await axeViolations(page, `card page in error ${path} @${width}px`)));
      await context.close();
    }
    expect(found).toEqual([]);
  },
);

journey("no accessibility violation on the payment page with Stripe (its purchase-notice note), phone and desktop", async () => {
  const stripe = await startServer({ env: { STRIPE_SECRET_KEY: "sk_test_a11y", STRIPE_WEBHOOK_SECRET: "whsec_a11y" } });
  try {
    expect(await (await fetch(`${stripe.baseUrl}/it/paiement`)).text()).toContain('data-testid="purchase-notice"');
    const found = [...(await violations("/it/paiement", 320, stripe.baseUrl)), ...(await violations("/paiement", 1280, stripe.baseUrl))];
    expect(found).toEqual([]);
  } finally {
    await stripe.stop();
  }
});

// axe cannot see a focus ring: every stop of the keyboard is checked for it here. The ring is a
// box-shadow (client/styles.css :focus-visible), which a component's own shadow would replace.
journey(
  "every keyboard stop on the landing, payment and success pages shows the focus ring, phone and desktop",
  async () => {
    const missing: string[] = [];
    for (const width of [360, 1280]) {
      const context = await site.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce" });
      await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
      const page = await context.newPage();
      for (const path of ["/", "/en/payment", "/es/payment-success?session_id=cs_test_unknown"]) {
        await visit(page, path);
        await firstScreenSettled(page);
        const seen = new Set<string>();
        for (let stop = 0; stop < 200; stop += 1) {
          await page.keyboard.press("Tab");
          const focused = await page.evaluate(async () => {
            const e = document.activeElement;
            if (e === null || e === document.body) return null;
            // The ring as it ends up (a button's shadow is transitioned).
            await Promise.all(e.getAnimations().map((animation) => animation.finished));
            const style = getComputedStyle(e);
            const ring =
              style.boxShadow.includes("rgb(255, 209, 102)") ||
              (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2);
            const path = [];
            for (let n: Element | null = e; n !== null && n !== document.body; n = n.parentElement)
              path.push(`${n.tagName}${n.id ? `#${n.id}` : ""}:${[...(n.parentElement?.children ?? [])].indexOf(n)}`);
            return {
              key: path.join("<"),
              ring,
              what: `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${(e.getAttribute("aria-label") ?? e.textContent ?? "").trim().slice(0, 30)}"`,
            };
          });
          if (focused === null || seen.has(focused.key)) break;
          seen.add(focused.key);
          if (!focused.ring) missing.push(`${path} @${width}px: ${focused.what}`);
        }
        expect({ path, stops: seen.size > 10 }).toEqual({ path, stops: true });
      }
      await context.close();
    }
    expect(missing).toEqual([]);
  },
  120_000,
);
