import { expect } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

// axe-core, the engine behind most accessibility checkers, with every rule it runs by default: the
// WCAG 2.x A/AA rules and its best practices (landmarks, headings, regions), and a violation of any
// impact counts, minor ones too. The page must be opened with `bypassCSP: true`: its CSP
// would block the injected checker; the page itself is unchanged.
const AXE = join(import.meta.dir, "..", "..", "node_modules", "axe-core", "axe.min.js");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
type AxeResult = { violations: AxeViolation[]; passes: unknown[] };

/**
 * Has every page of `context` carry the checker from its start, for a context whose pages are all
 * checked (a sweep's): handed to Chromium once for the context, rather than the 550 KB sent over
 * the wire and inserted into each page (measured: 0.1 to 1 s a page on a loaded 2-core machine, as
 * much as the visit itself). Its code only defines `axe`; nothing of it runs until `axe.run`.
 */
export async function checkerInEveryPage(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: AXE });
}

/**
 * The rules whose answer can change with the screen's width alone, for a page state already checked
 * with every rule at another width. The page's HTML is the same at every width (the same bytes for
 * every visitor); what the width changes is where things fall and which of them the styles show:
 * - `color-contrast`, `link-in-text-block`: text shown at one width only (the brand's name beside
 *   the logo on the payment pages' header, the comparison's pills, the support button standing at
 *   once from 1280 px rather than faded out below the first screen) and what lies under a text
 *   where it lands;
 * - `target-size`: the size and spacing of what is tapped, set by the layout;
 * - `scrollable-region-focusable`: a box scrolls (the comparison's table) or not by its width;
 * - `aria-hidden-focus`: what is hidden from assistive technology while focusable (the support
 *   button waits hidden below 1280 px, shown at once above).
 * The other rules read the markup (names, roles, ARIA, landmarks, headings, the language), the same
 * at both widths: about half of the checker's time a page for nothing new.
 */
export const WIDTH_RULES = [
  "color-contrast",
  "link-in-text-block",
  "target-size",
  "scrollable-region-focusable",
  "aria-hidden-focus",
] as const;

/**
 * Every violation on the page as it is now, one line each ("<label>: rule (help) at selectors"):
 * of every default rule, or of `rules` only (WIDTH_RULES where the page was checked whole at another
 * width).
 */
export async function axeViolations(page: Page, label: string, rules?: readonly string[]): Promise<string[]> {
  if (!(await page.evaluate(() => Reflect.has(window, "axe")))) await page.addScriptTag({ path: AXE });
  const result: AxeResult = await page.evaluate(
    async (only) => {
      const axe: { run: (context: Document, options: object) => Promise<AxeResult> } = Reflect.get(window, "axe");
      const runOnly = only === null ? {} : { runOnly: { type: "rule", values: only } };
      const { violations, passes } = await axe.run(document, { resultTypes: ["violations"], ...runOnly });
      return { violations, passes };
    },
    rules === undefined ? null : [...rules],
  );
  // The checker really ran: dozens of rules pass on any page, and of the width's rules at least the
  // contrast of its text.
  if (rules === undefined) expect(result.passes.length).toBeGreaterThan(10);
  else expect(result.passes.length).toBeGreaterThan(0);
  return result.violations.map(
    (v) =>
      `${label}: ${v.id} [${v.impact}] (${v.help}) at ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}
