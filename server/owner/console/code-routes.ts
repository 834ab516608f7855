import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { type CodeProblem, createCode, disableCode, listCodes, ordersOfCode } from "../../shop/codes/service";
import { recordActivity } from "./activity";
import { html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
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
      kit.signedIn(async (request) => {
        const ctx = await kit.page(request);
        const params = new URL(request.url).searchParams;
        const done = DONE.find((d) => d === params.get("done")) ?? null;
        const problem = PROBLEMS.find((p) => p === params.get("problem")) ?? null;
        const codes = listCodes(db).map((c) => ({ ...c, recent: ordersOfCode(db, c.code) }));
        return html(
          codesPage(ctx, { codes, currency: deps.content.current().site.currency.toUpperCase(), done, problem }),
          kit.https(request),
        );
      }),
    )
    .post(
      "/admin/codes",
      kit.signedIn(async (request, owner) => {
        const form = await kit.body(request, CreateForm, ["form"]);
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
      { parse: "none" },
    )
    .post(
      "/admin/codes/:code/disable",
      kit.signedIn(async (request, owner) => {
        const part = decodeURIComponent(new URL(request.url).pathname.split("/")[3] ?? "");
        const code = v.safeParse(CodeParam, part);
        await kit.body(request, v.object({}), ["form"]);
        if (!code.success) throw new ConsoleRefusal(404, "admin.discounts.notFound");
        const now = deps.now();
        const outcome = await write((tx) => {
          const disabled = disableCode(tx, code.output, now);
          if (disabled === "disabled")
            recordActivity(tx, { action: "code-disabled", detail: `code ${code.output.toUpperCase()}`, sessionId: owner.session.id }, now);
          return disabled;
        });
        if (outcome === "not-found") throw new ConsoleRefusal(404, "admin.discounts.notFound");
        return back(request, "done=disabled");
      }),
      { parse: "none" },
    );
}
