import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Page } from "playwright-core";

// What the payment page's browser tests share: how many orders the site has stored (a refused form
// must add none), and the moment the pay button's island has hydrated (before it, a click is a plain
// form post).

/** The orders stored in the site's database, read beside the running server. */
export function orderCount(dataDir: string): number {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return db.query<{ n: number }, []>("SELECT count(*) AS n FROM orders").get()?.n ?? 0;
  } finally {
    db.close();
  }
}

/** Resolves once React has taken over the pay button. */
export async function payButtonHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid="pay-button"]');
    return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
}
