import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { queryWord } from "../../platform/http/route-input";
import { createPartner, PARTNER_PROBLEMS, partnerReport, periodProblem } from "../../shop/partners/service";
import { CSV_BOM } from "../export-csv";
import { defaultPeriod, partnersCsv } from "../partners-command";
import { html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { countsTestOrders } from "./overview";
import { partnersPage } from "./views/partners";

// The console's partners (docs/invoices.md, "Partner links"): the same service as `site partners`.

const CreateForm = v.object({
  name: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  commission: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(3))),
  code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64))),
});

/** The period asked in the address, each day checked by periodProblem (the last month without it). */
const PeriodQuery = v.object({ from: v.fallback(v.nullable(v.string()), null), to: v.fallback(v.nullable(v.string()), null) });
/** Only a problem the console knows is shown: the address is no place for free text to display. */
const PageQuery = v.object({ ...PeriodQuery.entries, done: queryWord(["created"]), problem: queryWord(PARTNER_PROBLEMS) });

/** How old the day's audience totals may be when the partners' visitors are read (the Audience page's bound). */
const PARTNERS_FRESH_MS = 5_000;

export function partnerRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;
  const periodOf = (asked: v.InferOutput<typeof PeriodQuery>) => {
    const fallback = defaultPeriod(deps.now());
    const period = { from: asked.from ?? fallback.from, to: asked.to ?? fallback.to };
    const problem = periodProblem(period);
    return problem === null ? { period, problem } : { period: fallback, problem };
  };
  return new Elysia({ name: "owner-console-partners" })
    .get(
      "/admin/partners",
      ({ request, query }) =>
        kit.asOwner(request, async () => {
          // The visitors come from the audience's daily totals: as fresh as the Audience page's.
          await deps.analytics.rollUpIfStale(PARTNERS_FRESH_MS);
          const ctx = await kit.page(request);
          const { period, problem } = periodOf(query);
          return html(
            partnersPage(ctx, {
              rows: partnerReport(db, period, countsTestOrders(deps.config)),
              period,
              currency: deps.content.current().site.currency.toUpperCase(),
              done: query.done === "created",
              problem: problem ?? query.problem,
            }),
            kit.https(request),
          );
        }),
      { query: PageQuery },
    )
    .get(
      "/admin/partners.csv",
      ({ request, query }) =>
        kit.asOwner(request, async () => {
          await deps.analytics.rollUpIfStale(PARTNERS_FRESH_MS);
          const { period } = periodOf(query);
          return new Response(`${CSV_BOM}${partnersCsv(partnerReport(db, period, countsTestOrders(deps.config)), period)}`, {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": `attachment; filename="partners-${period.from}-${period.to}.csv"`,
              "cache-control": "no-store",
            },
          });
        }),
      { query: PeriodQuery },
    )
    .post(
      "/admin/partners",
      ({ request, body: form }) =>
        kit.asOwner(request, async () => {
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
      { parse: kit.input(), body: CreateForm },
    );
}
