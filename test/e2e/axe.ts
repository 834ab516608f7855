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

/** Every violation on the page as it is now, one line each ("<label>: rule (help) at selectors"). */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => Reflect.has(window, "axe")))) await page.addScriptTag({ path: AXE });
  const result: AxeResult = await page.evaluate(async () => {
    const axe: { run: (context: Document, options: object) => Promise<AxeResult> } = Reflect.get(window, "axe");
    const { violations, passes } = await axe.run(document, { resultTypes: ["violations"] });
    return { violations, passes };
  });
  // The checker really ran: dozens of rules pass on any page.
  expect(result.passes.length).toBeGreaterThan(10);
  return result.violations.map(
    (v) =>
      `${label}: ${v.id} [${v.impact}] (${v.help}) at ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}
