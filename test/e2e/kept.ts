import type { Page } from "playwright-core";

/**
 * What a page keeps in the visitor's browser that it should not, as readable lines ([] when none):
 * any cookie, and in its storage anything but the "already shown" flags (a key that names an
 * identifier, or a value that could tell one browser from another).
 */
export async function keptProblems(page: Page, where: string): Promise<string[]> {
  const problems = (await page.context().cookies()).map((c) => `${where}: cookie ${c.name}`);
  const stored = await page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((k) => [k, s.getItem(k) ?? ""] as const)),
  );
  for (const [key, value] of stored) {
    if (/id|visitor|uid/i.test(key)) problems.push(`${where}: stored key ${key}`);
    // A flag, not a value that could tell one browser from another.
    if (!/^(1|true|dismissed|shown|\d{13})?$/.test(value)) problems.push(`${where}: stored ${key}=${value}`);
  }
  return problems;
}
