import { LIMITS } from "../../../../shared/content";
import { isLocale } from "../../../../shared/locales";
import type { OutboxRow } from "../../../shop/mail/outbox";
import type { Conversation, HandOver, LeadRow } from "../people";
import { type PageContext, PasskeyButton, renderPage } from "./layout";

/** A passkey check before a CSV export or an erasure, or the form itself when the check is fresh. */
function FreshGate({ ctx, fresh, children }: { ctx: PageContext; fresh: boolean; children: React.ReactNode }) {
  if (fresh) return <>{children}</>;
  return (
    <>
      <p className="note">{ctx.t("admin.fresh.neededData")}</p>
      <PasskeyButton t={ctx.t} kind="confirm" label={ctx.t("admin.fresh.button")} />
    </>
  );
}

export function leadsPage(ctx: PageContext, leads: LeadRow[], fresh: boolean, erased: string | null): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.leads.title"),
    "leads",
    <>
      {erased !== null && (
        <p className="success" role="status">
          {erased}
        </p>
      )}
      <section className="card" aria-labelledby="leads-data">
        <h2 id="leads-data">{t("admin.leads.data")}</h2>
        <FreshGate ctx={ctx} fresh={fresh}>
          <p>
            <a href="/admin/leads.csv" download="leads.csv">
              {t("admin.leads.export")}
            </a>
          </p>
          <form method="post" action="/admin/leads/erase">
            <label htmlFor="erase-email">{t("admin.leads.eraseLabel")}</label>
            <input
              type="text"
              inputMode="email"
              autoComplete="off"
              id="erase-email"
              name="email"
              required
              maxLength={254}
              aria-describedby="erase-hint"
            />
            <p id="erase-hint" className="note">
              {t("admin.leads.eraseHint")}
            </p>
            <button type="submit" className="danger">
              {t("admin.leads.eraseButton")}
            </button>
          </form>
        </FreshGate>
      </section>
      {leads.length === 0 ? (
        <p>{t("admin.leads.none")}</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.email")}</th>
                <th scope="col">{t("admin.leads.language")}</th>
                <th scope="col">{t("admin.leads.source")}</th>
                <th scope="col">{t("admin.orders.date")}</th>
                <th scope="col">{t("admin.leads.demo")}</th>
                <th scope="col">{t("admin.leads.unsubscribed")}</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((l) => (
                <tr key={l.id}>
                  <td>{l.email}</td>
                  <td>{l.locale}</td>
                  <td>{t(`admin.leads.source.${l.source}`)}</td>
                  <td>{ctx.fmt.when(l.createdAt)}</td>
                  <td>{l.demo === null ? "—" : t(`admin.mailStatus.${l.demo}`)}</td>
                  <td>{l.unsubscribedAt === null ? t("admin.leads.no") : ctx.fmt.when(l.unsubscribedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>,
  );
}

export function supportPage(ctx: PageContext, handOvers: HandOver[], conversations: Conversation[]): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.support.title"),
    "support",
    <>
      <section aria-labelledby="handovers">
        <h2 id="handovers">{t("admin.support.handOvers")}</h2>
        <p className="note">{t("admin.support.handOversHint")}</p>
        {handOvers.length === 0 ? (
          <p>{t("admin.support.noHandOver")}</p>
        ) : (
          <ul>
            {handOvers.map((h) => (
              <li key={`${h.conversationId}-${h.at.getTime()}`}>
                <q lang={h.locale}>{h.question}</q> — {ctx.fmt.when(h.at)}
                {isLocale(h.locale) && (
                  // Opens a new FAQ entry with the question in its language; nothing is saved before the owner answers.
                  <form method="post" action="/admin/content/faq/answer" className="inline answer-once">
                    <input type="hidden" name="question" value={h.question.slice(0, LIMITS.faqQuestion)} />
                    <input type="hidden" name="lang" value={h.locale} />
                    <button
                      type="submit"
                      className="secondary"
                      aria-label={t("admin.support.answerLabel", { question: h.question.slice(0, 80) })}
                    >
                      {t("admin.support.answer")}
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="conversations">
        <h2 id="conversations">{t("admin.support.conversations")}</h2>
        {conversations.length === 0 ? (
          <p>{t("admin.support.none")}</p>
        ) : (
          conversations.map((c) => (
            <details key={c.id} className="card">
              <summary>
                {ctx.fmt.when(c.startedAt)} — {c.messages.find((m) => m.role === "user")?.content.slice(0, 80) ?? ""}
              </summary>
              <ol lang={c.locale}>
                {c.messages.map((m) => (
                  <li key={`${m.at.getTime()}-${m.role}-${m.content.length}`}>
                    <strong>{m.role === "user" ? t("admin.support.visitor") : t("admin.support.assistant")}:</strong> {m.content}
                  </li>
                ))}
              </ol>
            </details>
          ))
        )}
      </section>
    </>,
  );
}

export function mailPage(ctx: PageContext, rows: OutboxRow[], retried: boolean): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.mail.title"),
    "mail",
    <>
      {retried && (
        <p className="success" role="status">
          {t("admin.mail.retried")}
        </p>
      )}
      {rows.length === 0 ? (
        <p>{t("admin.mail.none")}</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.status")}</th>
                <th scope="col">{t("admin.mail.kind")}</th>
                <th scope="col">{t("admin.mail.to")}</th>
                <th scope="col">{t("admin.mail.attempts")}</th>
                <th scope="col">{t("admin.mail.reason")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.security.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>{t(`admin.mailStatus.${m.status}`)}</td>
                  <td>{t(`admin.mailKind.${m.kind}`)}</td>
                  <td>{m.recipient}</td>
                  <td>
                    {m.attempts}
                    {m.status === "pending" && <> · {t("admin.mail.next", { date: ctx.fmt.when(m.nextAttemptAt) })}</>}
                  </td>
                  <td>{m.lastError ?? "—"}</td>
                  <td>
                    {m.status !== "pending" && (
                      <form method="post" action={`/admin/mail/${m.id}/retry`}>
                        <button type="submit" className="secondary" aria-label={t("admin.mail.retryLabel", { to: m.recipient })}>
                          {t("admin.mail.retry")}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>,
  );
}
