import { expect, test } from "bun:test";
import { join } from "node:path";
import { useSite } from "./harness";

// axe-core, the engine behind most accessibility checkers: no WCAG 2.1 A/AA violation of any impact
// on any screen (contrast, labels, names, landmarks, lang...).
const site = useSite();
const AXE = join(import.meta.dir, "..", "..", "node_modules", "axe-core", "axe.min.js");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

async function violations(path: string, width: number): Promise<string[]> {
  // The page's CSP would block the injected checker; the page itself is unchanged.
  const context = await site.newContext({ bypassCSP: true, viewport: { width, height: 900 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await page.addScriptTag({ path: AXE });
  const result: { violations: AxeViolation[]; passes: unknown[] } = await page.evaluate(async () => {
    const axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[]; passes: unknown[] }> } = Reflect.get(window, "axe");
    const { violations, passes } = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return { violations, passes };
  });
  await context.close();
  // The checker really ran: dozens of rules pass on any page.
  expect(result.passes.length).toBeGreaterThan(10);
  return result.violations.map((v) => `${path} @${width}px: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

test("no accessibility violation on the landing page, phone and desktop", async () => {
  expect([...(await violations("/", 360)), ...(await violations("/en", 1280))]).toEqual([]);
});

test("no accessibility violation on the payment, success, cancelled and 404 pages", async () => {
  const found: string[] = [];
  for (const path of ["/paiement", "/en/payment-success", "/es/payment-canceled", "/it/nope"]) found.push(...(await violations(path, 390)));
  expect(found).toEqual([]);
});

test("no accessibility violation on the install guide, phone and desktop", async () => {
  expect([...(await violations("/guide", 360)), ...(await violations("/en/guide", 1280))]).toEqual([]);
});

test("no accessibility violation on the access-recovery page and form, the success page's form, and the unsubscribe page", async () => {
  const found: string[] = [];
  for (const [path, width] of [["/access", 360], ["/es/access?status=sent", 1280], ["/en/payment-success?session_id=cs_test_unknown", 360], ["/unsubscribe?token=0", 390]] as const) {
    found.push(...(await violations(path, width)));
  }
  expect(found).toEqual([]);
});

test("no accessibility violation on the legal notice, terms and privacy pages in four languages, phone and desktop, nor on the consent error", async () => {
  const found: string[] = [];
  for (const path of ["/mentions-legales", "/en/cgv", "/it/confidentialite", "/es/mentions-legales", "/cgv", "/en/confidentialite", "/it/cgv", "/es/confidentialite"]) {
    for (const width of [320, 1280]) found.push(...(await violations(path, width)));
  }
  found.push(...(await violations("/paiement?error=consent", 320)), ...(await violations("/en/paiement?error=consent", 1280)));
  expect(found).toEqual([]);
});
