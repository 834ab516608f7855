import type { MessageKey } from "../../../../shared/i18n";
import { LOCALE_TAGS } from "../../../../shared/locales";
import { seriesOf, TEST_SERIES } from "../../../shop/paperwork/numbering";
import type { OrderDetail, OrderRow, TimelineEvent } from "../orders";
import { type PageContext, PasskeyButton, renderPage } from "./layout";

/** Orders newest first, with the search box (reference, e-mail, licence key), and the buyers' refund requests waiting. */
export function ordersPage(
  ctx: PageContext,
  query: string,
  rows: OrderRow[],
  nextBefore: number | null,
  requests: (OrderRow & { requestedAt: Date })[],
): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.orders.title"),
    "orders",
    <>
      {requests.length > 0 && (
        <section className="card" aria-labelledby="refund-requests">
          <h2 id="refund-requests">{t("admin.requests.heading")}</h2>
          <ul>
            {requests.map((r) => (
              <li key={r.id}>
                <a href={`/admin/orders/${r.id}`}>
                  {t("admin.requests.item", { reference: r.reference, email: r.email ?? "—", date: ctx.fmt.when(r.requestedAt) })}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form method="get" action="/admin/orders" role="search" className="card">
        <label htmlFor="order-search">{t("admin.orders.searchLabel")}</label>
        <input type="search" id="order-search" name="q" defaultValue={query} maxLength={200} aria-describedby="order-search-hint" />
        <p id="order-search-hint" className="note">
          {t("admin.orders.searchHint")}
        </p>
        <button type="submit">{t("admin.orders.search")}</button>
      </form>
      {rows.length === 0 ? (
        <p role="status">{query === "" ? t("admin.orders.none") : t("admin.orders.noMatch", { query })}</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.number")}</th>
                <th scope="col">{t("admin.orders.date")}</th>
                <th scope="col">{t("admin.orders.email")}</th>
                <th scope="col">{t("admin.orders.amount")}</th>
                <th scope="col">{t("admin.orders.status")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.id}>
                  <td>
                    <a href={`/admin/orders/${o.id}`}>{o.reference}</a>
                  </td>
                  <td>{ctx.fmt.when(o.paidAt ?? o.createdAt)}</td>
                  <td>{o.email ?? "—"}</td>
                  <td>{ctx.fmt.money(o.amount, o.currency)}</td>
                  <td>
                    {o.declined && o.status === "pending" ? t("admin.status.declined") : t(`admin.status.${o.status}`)}
                    {seriesOf(o.provider, o.checkoutId) === TEST_SERIES && <> · {t("admin.orders.testMode")}</>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextBefore !== null && (
        <p>
          <a href={`/admin/orders?${new URLSearchParams({ ...(query === "" ? {} : { q: query }), before: String(nextBefore) })}`}>
            {t("admin.orders.older")}
          </a>
        </p>
      )}
    </>,
  );
}

export type OrderPageState = {
  /** A passkey check younger than five minutes: the refund can be done. */
  fresh: boolean;
  /** What the last action did, shown once after its redirect. */
  done: string | null;
  activationLimit: number;
};

/** One order: its facts, the actions that apply to it, and its timeline. */
export function orderPage(ctx: PageContext, detail: OrderDetail, state: OrderPageState): string {
  const { t } = ctx;
  const { order, license, devices } = detail;
  const money = ctx.fmt.money(order.amount, order.currency);
  const active = devices.filter((d) => d.deactivatedAt === null);
  const canResend = order.status === "paid" && order.customerEmail !== null;
  const canSwitchLicense = license !== null && license.disabledReason !== "refunded";
  const canReset = license !== null && active.length > 0;
  const lastRefusal = detail.attempts.at(-1);
  return renderPage(
    ctx,
    t("admin.order.title", { reference: order.reference }),
    "orders",
    <>
      {state.done !== null && (
        <p className="success" role="status">
          {state.done}
        </p>
      )}
      <section className="card" aria-labelledby="order-facts">
        <h2 id="order-facts">{t("admin.order.facts")}</h2>
        <dl>
          <dt>{t("admin.order.reference")}</dt>
          <dd>{order.reference}</dd>
          <dt>{t("admin.orders.status")}</dt>
          <dd>
            {lastRefusal !== undefined && order.status === "pending" ? t("admin.status.declined") : t(`admin.status.${order.status}`)} (
            {order.provider === "stripe" ? "Stripe" : order.provider === "free" ? t("admin.orders.freeAccess") : t("admin.orders.testMode")}
            {order.provider === "free" && seriesOf(order.provider, order.checkoutId) === TEST_SERIES && <>, {t("admin.orders.testMode")}</>}
            )
            {lastRefusal !== undefined && order.paidAt === null && (
              <> — {t("admin.order.refusedBecause", { reason: lastRefusal.reason })}</>
            )}
          </dd>
          <dt>{t("admin.orders.email")}</dt>
          {/* Before any payment the provider may not have an address: the one typed at a refused attempt lets the owner offer help. */}
          <dd>{order.customerEmail ?? lastRefusal?.email ?? "—"}</dd>
          {order.discountCode !== null && (
            <>
              <dt>{t("admin.order.code")}</dt>
              <dd>
                {order.discountCode} (−{ctx.fmt.money(order.discountAmount, order.currency)})
              </dd>
            </>
          )}
          {order.company !== null && (
            <>
              <dt>{t("admin.order.company")}</dt>
              <dd>
                {order.company}, {order.companyAddress} ({order.companyCountry})
                {order.buyerVatNumber !== null ? ` — ${order.buyerVatNumber}` : ""}
              </dd>
            </>
          )}
          {order.taxEvidence !== null ? (
            <TaxEvidenceFacts json={order.taxEvidence} order={order} ctx={ctx} />
          ) : (
            detail.vat !== null && <ConsumerVatFacts vat={detail.vat} buyerCountry={order.billingCountry ?? order.cardCountry} ctx={ctx} />
          )}
          <dt>{t("admin.orders.amount")}</dt>
          <dd>{money}</dd>
          <dt>{t("admin.order.license")}</dt>
          <dd>
            {license === null ? (
              "—"
            ) : (
              <>
                <code>{license.key}</code> —{" "}
                {license.status === "active"
                  ? t("admin.license.active")
                  : license.disabledReason === "refunded"
                    ? t("admin.license.disabledRefund")
                    : t("admin.license.disabledOwner")}
              </>
            )}
          </dd>
          <dt>{t("admin.order.devices")}</dt>
          <dd>{t("admin.order.devicesCount", { count: active.length, limit: state.activationLimit })}</dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="order-actions">
        <h2 id="order-actions">{t("admin.order.actions")}</h2>
        <div className="actions">
          {order.paidAt !== null && (
            <a className="button secondary" href={`/admin/orders/${order.id}/invoice.pdf`} download>
              {t("admin.order.invoice")}
            </a>
          )}
          {order.status === "refunded" && order.paidAt !== null && (
            <a className="button secondary" href={`/admin/orders/${order.id}/credit-note.pdf`} download>
              {t("admin.order.creditNote")}
            </a>
          )}
          {canResend && (
            <form method="post" action={`/admin/orders/${order.id}/resend`}>
              <button type="submit" className="secondary">
                {t("admin.order.resend", { email: order.customerEmail ?? "" })}
              </button>
            </form>
          )}
          {canSwitchLicense && (
            <form method="post" action={`/admin/orders/${order.id}/license`}>
              <input type="hidden" name="enabled" value={license.status === "active" ? "no" : "yes"} />
              <button type="submit" className="secondary">
                {license.status === "active" ? t("admin.license.disable") : t("admin.license.enable")}
              </button>
            </form>
          )}
          {canReset && (
            <form method="post" action={`/admin/orders/${order.id}/devices/reset`}>
              <button type="submit" className="secondary">
                {t("admin.order.resetDevices", { count: active.length })}
              </button>
            </form>
          )}
        </div>
        {order.status === "paid" && order.refundRequestedAt !== null && (
          <div className="card">
            <h3>{t("admin.requests.heading")}</h3>
            <p>
              {t("admin.requests.explain", {
                amount: money,
                date: ctx.fmt.when(order.refundRequestedAt),
                email: order.customerEmail ?? "—",
              })}
            </p>
            <form method="post" action={`/admin/orders/${order.id}/approve-refund`}>
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit">{t("admin.requests.approve", { amount: money })}</button>
            </form>
          </div>
        )}
        {!canResend && !canSwitchLicense && !canReset && order.status !== "paid" && (
          <p className="note">
            {order.status === "refunded"
              ? t("admin.order.noActionsRefunded", { by: t(`admin.refundedBy.${detail.refundedBy ?? "stripe"}`) })
              : t("admin.order.noActionsUnpaid", { status: t(`admin.status.${order.status}`) })}
          </p>
        )}
        {order.status === "paid" && (
          <div className="card">
            <h3>{t("admin.refund.heading")}</h3>
            <p>{t("admin.refund.explain", { amount: money, email: order.customerEmail ?? "—" })}</p>
            {state.fresh ? (
              <form method="post" action={`/admin/orders/${order.id}/refund`}>
                <p>
                  <input type="checkbox" id="refund-confirm" name="confirm" value="yes" required />{" "}
                  <label htmlFor="refund-confirm" className="inline-label">
                    {t("admin.refund.confirm", { amount: money })}
                  </label>
                </p>
                <button type="submit" className="danger">
                  {t("admin.refund.button", { amount: money })}
                </button>
              </form>
            ) : (
              <>
                <p className="note">{t("admin.fresh.needed")}</p>
                <PasskeyButton t={t} kind="confirm" label={t("admin.fresh.button")} />
              </>
            )}
          </div>
        )}
      </section>

      {devices.length > 0 && (
        <section aria-labelledby="order-devices">
          <h2 id="order-devices">{t("admin.order.devices")}</h2>
          <ul>
            {devices.map((d) => (
              <li key={d.id}>
                {d.instanceName} — {t("admin.order.deviceSince", { date: ctx.fmt.when(d.createdAt) })}
                {d.deactivatedAt === null ? (
                  <form method="post" action={`/admin/orders/${order.id}/devices/${d.id}/free`} className="inline">
                    {" "}
                    <button type="submit" className="secondary" aria-label={t("admin.order.freeLabel", { name: d.instanceName })}>
                      {t("admin.order.free")}
                    </button>
                  </form>
                ) : (
                  <> · {t("admin.order.freedOn", { date: ctx.fmt.when(d.deactivatedAt) })}</>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t("admin.order.timeline")}</h2>
        <ol className="timeline">
          {detail.timeline.map((e) => (
            <li key={`${e.kind}-${e.at.getTime()}-${"name" in e ? e.name : ""}-${"mailKind" in e ? e.mailKind : ""}`}>
              <time dateTime={e.at.toISOString()}>{ctx.fmt.when(e.at)}</time> — <TimelineText ctx={ctx} event={e} />
            </li>
          ))}
        </ol>
      </section>
    </>,
  );
}

function TimelineText({ ctx, event }: { ctx: PageContext; event: TimelineEvent }) {
  const { t } = ctx;
  switch (event.kind) {
    case "mail":
      return (
        <>
          {t("admin.timeline.mail", {
            kind: t(`admin.mailKind.${event.mailKind}`),
            to: event.recipient,
            status: t(`admin.mailStatus.${event.status}`),
          })}
          {event.error !== null && <span className="error"> {event.error}</span>}
        </>
      );
    case "device":
      return <>{t("admin.timeline.device", { name: event.name })}</>;
    case "device-freed":
      return <>{t("admin.timeline.deviceFreed", { name: event.name })}</>;
    case "owner":
      return <>{t("admin.timeline.owner", { action: t(`admin.action.${event.action}`) })}</>;
    case "refund-requested":
      return <>{t("admin.timeline.refundRequested")}</>;
    case "attempt":
      return (
        <>
          {t(event.outcome === "declined" ? "admin.timeline.declined" : "admin.timeline.failed", { reason: event.reason })}
          {event.email !== null && <> ({event.email})</>}
        </>
      );
    case "refunded":
      return <>{t("admin.timeline.refundedBy", { by: t(`admin.refundedBy.${event.by}`) })}</>;
    default:
      return <>{t(`admin.timeline.${event.kind}`)}</>;
  }
}

/** The VAT rule a company order's checkout decided, and what it rests on (docs/invoices.md, "Business buyers"). */
function TaxEvidenceFacts({
  json,
  order,
  ctx,
}: {
  json: string;
  order: { billingCountry: string | null; cardCountry: string | null };
  ctx: Pick<PageContext, "t" | "locale">;
}) {
  const { t } = ctx;
  let evidence: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === "object" && parsed !== null) evidence = Object.fromEntries(Object.entries(parsed));
  } catch {
    // A row written by hand that does not parse shows as unknown facts, never a failed page.
  }
  const fact = (value: unknown) => (typeof value === "string" && value !== "" ? value : "—");
  const why = ruleWhy(evidence.rule, evidence.companyCountry, ctx);
  return (
    <>
      <dt>{t("admin.order.vatRule")}</dt>
      <dd>
        <code>{fact(evidence.rule)}</code>
      </dd>
      {why !== null && (
        <>
          <dt>{t("admin.order.evidenceWhy")}</dt>
          <dd>{why}</dd>
        </>
      )}
      <dt>{t("admin.order.evidence")}</dt>
      <dd>
        {t("admin.order.evidenceFacts", {
          declared: fact(evidence.companyCountry),
          vat: fact(evidence.vatNumber),
          checked: fact(evidence.vatNumberChecked),
          billing: fact(order.billingCountry),
          card: fact(order.cardCountry),
          ip: fact(evidence.ipCountry),
        })}
      </dd>
    </>
  );
}

/** A consumer's order: the VAT its invoice charged, the rule and why, as a company's order shows them. */
function ConsumerVatFacts({
  vat,
  buyerCountry,
  ctx,
}: {
  vat: NonNullable<OrderDetail["vat"]>;
  /** Where the buyer said they live (the VAT's country is the seller's under the rule "seller-country"). */
  buyerCountry: string | null;
  ctx: Pick<PageContext, "t" | "locale">;
}) {
  const { t, locale } = ctx;
  const country = vat.vatCountry === null ? null : regionName(vat.vatCountry, locale);
  const buyer = buyerCountry ?? vat.vatCountry;
  const rate = new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, { style: "percent", maximumFractionDigits: 2 }).format(
    vat.vatRate / 10_000,
  );
  const rule = vat.vatRule ?? (vat.vatScheme === "franchise" ? "franchise" : null);
  // A consumer in France pays French VAT under every rule but the franchise, whatever the scheme.
  const key = rule === null ? undefined : buyer === "FR" && rule !== "franchise" ? "admin.order.consumerWhy.france" : CONSUMER_WHY[rule];
  return (
    <>
      <dt>{t("admin.order.vatRule")}</dt>
      <dd>
        <code>{rule ?? "—"}</code> — {country === null ? rate : t("admin.order.vatRateIn", { rate, country })}
      </dd>
      {key !== undefined && (
        <>
          <dt>{t("admin.order.evidenceWhy")}</dt>
          <dd>{t(key, { country: buyer === null ? "—" : regionName(buyer, locale) })}</dd>
        </>
      )}
    </>
  );
}

const CONSUMER_WHY: Record<string, MessageKey> = {
  "seller-country": "admin.order.consumerWhy.seller-country",
  "eu-consumer": "admin.order.consumerWhy.eu-consumer",
  "outside-eu": "admin.order.consumerWhy.outside-eu",
  registered: "admin.order.consumerWhy.registered",
  franchise: "admin.order.consumerWhy.franchise",
};

const WHY: Record<string, MessageKey> = {
  "reverse-charge": "admin.order.why.reverse-charge",
  "seller-country": "admin.order.why.seller-country",
  "eu-consumer": "admin.order.why.eu-consumer",
  "outside-eu": "admin.order.why.outside-eu",
  registered: "admin.order.why.registered",
  franchise: "admin.order.why.franchise",
};

/**
 * Why the rule applied, in the owner's language (the order keeps an English `why` for the export):
 * a French company pays French VAT under either rule that names France; null for a rule unknown.
 */
function ruleWhy(rule: unknown, country: unknown, { t, locale }: Pick<PageContext, "t" | "locale">): string | null {
  if (typeof rule !== "string" || typeof country !== "string") return null;
  if (country === "FR" && rule !== "franchise") return t("admin.order.why.france");
  const key = WHY[rule];
  if (key === undefined) return null;
  return t(key, { country: regionName(country, locale) });
}

function regionName(code: string, locale: PageContext["locale"]): string {
  try {
    return new Intl.DisplayNames([LOCALE_TAGS[locale].bcp47], { type: "region" }).of(code) ?? code;
  } catch {
    // Not a region code (a row written by hand): shown as it is.
    return code;
  }
}
