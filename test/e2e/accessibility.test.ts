import { expect, test } from "bun:test";
import { axeViolations } from "./axe";
import { useSite } from "./harness";

// No accessibility violation of any impact, under every rule axe-core runs by default, on any screen
// (contrast, labels, names, landmarks, lang...). test/e2e/browser-sweep.test.ts checks every page in
// every language too; these are the screens it does not reach (forms answered, query flags).
const site = useSite();

async function violations(path: string, width: number): Promise<string[]> {
  const context = await site.newContext({ bypassCSP: true, viewport: { width, height: 900 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const found = await axeViolations(page, `${path} @${width}px`);
  await context.close();
  return found;
}

test("no accessibility violation on the access-recovery page and form, the success page's form, and the unsubscribe page", async () => {
  const found: string[] = [];
  for (const [path, width] of [["/access", 360], ["/es/access?status=sent", 1280], ["/en/payment-success?session_id=cs_test_unknown", 360], ["/unsubscribe?token=0", 390]] as const) {
    found.push(...(await violations(path, width)));
  }
  expect(found).toEqual([]);
});

// The legal pages themselves are in the browser sweep (every page of the route table).
test("no accessibility violation on the payment page showing the consent box's error, phone and desktop", async () => {
  expect([...(await violations("/paiement?error=consent", 320)), ...(await violations("/en/paiement?error=consent", 1280))]).toEqual([]);
});
