import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { createPartner, PARTNER_PROBLEMS, partnerReport, periodProblem } from "../../shop/partners/service";
import { defaultPeriod, partnersCsv } from "../partners-command";
import { html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { partnersPage } from "./views/partners";

// The console's partners (docs/invoices.md, "Partner links"): the same service as `site partners`.

const CreateForm = v.object({
  name: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  commission: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(3))),
  code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64))),
});

export function partnerRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;
  const periodOf = (request: Request) => {
    const params = new URL(request.url).searchParams;
    const fallback = defaultPeriod(deps.now());
    const period = { from: params.get("from") ?? fallback.from, to: params.get("to") ?? fallback.to };
    const problem = periodProblem(period);
    return problem === null ? { period, problem } : { period: fallback, problem };
  };
  return new Elysia({ name: "owner-console-partners" })
    .get(
      "/admin/partners",
      kit.signedIn(async (request) => {
        const ctx = await kit.page(request);
        const { period, problem } = periodOf(request);
        const params = new URL(request.url).searchParams;
        // Only a problem the console knows is shown: the address is no place for free text to display.
        const refused = PARTNER_PROBLEMS.find((p) => p === params.get("problem")) ?? null;
        return html(
          partnersPage(ctx, {
            rows: partnerReport(db, period),
            period,
            currency: deps.content.current().site.currency.toUpperCase(),
            done: params.get("done") === "created",
            problem: problem ?? refused,
          }),
          kit.https(request),
        );
      }),
    )
    .get(
      "/admin/partners.csv",
      kit.signedIn(async (request) => {
        const { period } = periodOf(request);
        return new Response(partnersCsv(partnerReport(db, period), period), {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="partners-${period.from}-${period.to}.csv"`,
            "cache-control": "no-store",
          },
        });
      }),
    )
    .post(
      "/admin/partners",
      kit.signedIn(async (request) => {
        const form = await kit.body(request, CreateForm, ["form"]);
        const commission =
          form.commission === undefined || form.commission === ""
            ? undefined
            : /^\d{1,3}$/.test(form.commission)
              ? Number(form.commission)
              : -1;
        const result = await write((tx) =>
          createPartner(tx, { name: form.name, commission, code: form.code === "" ? undefined : form.code }, deps.now()),
        );
        return redirect(result.ok ? "/admin/partners?done=created" : `/admin/partners?problem=${result.problem}`, kit.https(request));
      }),
      { parse: "none" },
    );
}
