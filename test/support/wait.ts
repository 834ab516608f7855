import { inArray } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import type { TestSite } from "./app";

// Tests wait for a condition, never for a fixed time: a sleep long enough on a quiet machine fails
// on a loaded one, and "sleep, then count" passes when the thing counted comes a moment later.

/**
 * Resolves with the condition's value once it is truthy, checked every `everyMs`; throws, naming
 * `what`, if it is still not after `timeoutMs` (generous: a loaded machine is slow, not wrong).
 */
export async function until<T>(
  what: string,
  condition: () => T | Promise<T>,
  { timeoutMs = 15_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== null && value !== undefined && value !== false && value !== 0 && value !== "") return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await Bun.sleep(everyMs);
  }
}

/**
 * Runs the site's mail sender until its outbox is idle: no message waiting or being sent. What was
 * queued before has then reached the mail server (or failed), so counting the e-mails received is
 * exact: a duplicate would be among them, not on its way.
 */
export async function outboxDrained(site: TestSite): Promise<void> {
  const mailer = site.mailer;
  if (mailer === null) throw new Error("outboxDrained: the site has no mail sender");
  const busy = () =>
    site.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.status, ["pending", "sending"]))
      .all();
  await until("the outbox to be idle", async () => {
    await mailer.deliverDue();
    return busy().length === 0;
  });
}
