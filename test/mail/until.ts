import { expect } from "bun:test";
import { inArray } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import type { TestSite } from "../support/app";

/**
 * Waits for `condition` to hold, checking every 25 ms. `failAfterMs` only ends a test whose
 * condition never comes (it fails then, naming `what`); nothing is asserted about how long it took.
 */
export async function until(what: string, condition: () => boolean | Promise<boolean>, failAfterMs = 20_000): Promise<void> {
  const end = performance.now() + failAfterMs;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`still waiting for: ${what}`);
    await Bun.sleep(25);
  }
}

/**
 * Drains the outbox: the sender runs until nothing is being sent and nothing is due, so every
 * message that will ever go out without a retry has reached the mail server. After it, a count of
 * what the server received is final: no copy can still be on its way.
 */
export async function drainOutbox(site: TestSite): Promise<void> {
  if (site.mailer === null) throw new Error("drainOutbox: this site has no mail sender");
  await site.mailer.deliverDue();
  const open = site.db
    .select({ id: mailOutbox.id, status: mailOutbox.status })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["sending"]))
    .all();
  expect(open).toEqual([]);
}
