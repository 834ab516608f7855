import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { queryWord } from "../../platform/http/route-input";
import { type CodeProblem, createCode, disableCode, listCodes, ordersOfCode } from "../../shop/codes/service";
import { recordActivity } from "./activity";
import { html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { countsTestOrders } from "./overview";
import { ConsoleRefusal } from "./refusal";
import { codesPage } from "./views/codes";

// The console's discount codes (docs/invoices.md, "Discount codes"): the same service as `site codes`,
// each change written with its activity entry. A code is never deleted (orders name it): disabled.

const DONE = ["created", "disabled"] as const;
const PROBLEMS: readonly CodeProblem[] = ["code", "value", "percent", "date", "order", "max", "exists"];
const optional = (max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(max),
      v.transform((s) => (s === "" ? undefined : s)),
    ),
  );
const CreateForm = v.object({
  code: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  kind: v.picklist(["percent", "amount"]),
  value: v.pipe(v.string(), v.trim(), v.maxLength(12)),
  starts: optional(10),
  ends: optional(10),
  max: optional(9),
  note: optional(200),
});
const CodeParam = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,32}$/));
/** What the page says after a change: only a word it knows (the address is no place for free text). */
const Notice = v.object({ done: queryWord(DONE), problem: queryWord(PROBLEMS) });

/** A percentage is whole; an amount is in the currency's units, up to two decimals (5 or 4.50). */
function reductionOf(kind: "percent" | "amount", text: string): number | null {
  if (kind === "percent") return /^\d{1,3}$/.test(text) ? Number(text) : null;
  return /^\d{1,6}([.,]\d{1,2})?$/.test(text) ? Math.round(Number(text.replace(",", ".")) * 100) : null;
}

export function codeRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;
  const back = (request: Request, query: string) => redirect(`/admin/codes?${query}`, kit.https(request));
  return new Elysia({ name: "owner-console-codes" })
    .get(
      "/admin/codes",
      ({ request, query: { done, problem } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const codes = listCodes(db, deps.now(), countsTestOrders(deps.config), deps.checkout.provider.name === "test").map((c) => ({
            ...c,
            recent: ordersOfCode(db, c.code),
          }));
          return html(
            codesPage(ctx, {
              codes,
              currency: deps.content.current().site.currency.toUpperCase(),
              done,
              problem,
              testUses: !countsTestOrders(deps.config) && deps.checkout.provider.name === "test",
            }),
            kit.https(request),
          );
        }),
      { query: Notice },
    )
    .post(
      "/admin/codes",
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const value = reductionOf(form.kind, form.value);
          const maxUses = form.max === undefined ? undefined : /^\d{1,9}$/.test(form.max) ? Number(form.max) : 0;
          if (value === null) return back(request, `problem=${form.kind === "percent" ? "percent" : "value"}`);
          const now = deps.now();
          const result = await write((tx) => {
            const created = createCode(
              tx,
              { code: form.code, kind: form.kind, value, starts: form.starts, ends: form.ends, maxUses, note: form.note },
              now,
            );
            if (created.ok)
              recordActivity(tx, { action: "code-created", detail: `code ${created.code.code}`, sessionId: owner.session.id }, now);
            return created;
          });
          return result.ok ? back(request, "done=created") : back(request, `problem=${result.problem}`);
        }),
      { parse: kit.input(), body: CreateForm },
    )
    .post(
      "/admin/codes/:code/disable",
      ({ request, params: { code } }) =>
        kit.asOwner(request, async (owner) => {
          const now = deps.now();
          const outcome = await write((tx) => {
            const disabled = disableCode(tx, code, now);
            if (disabled === "disabled")
              recordActivity(tx, { action: "code-disabled", detail: `code ${code.toUpperCase()}`, sessionId: owner.session.id }, now);
            return disabled;
          });
          if (outcome === "not-found") throw new ConsoleRefusal(404, "admin.discounts.notFound");
          return back(request, "done=disabled");
        }),
      { parse: kit.input(), body: v.object({}), params: v.object({ code: CodeParam }) },
    );
}
