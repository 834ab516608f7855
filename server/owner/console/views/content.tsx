import type { ReactNode } from "react";
import {
  CONTENT_SECTIONS,
  type ContentDocument,
  type ContentSectionId,
  type FaqEntry,
  LIMITS,
  textFamily,
  textLimit,
} from "../../../../shared/content";
import { LOCALE_TAGS, LOCALES, type Locale } from "../../../../shared/locales";
import type { PageId } from "../../../../shared/routes";
import type { ContentProblem } from "../../../site/content/check";
import type { VersionSummary } from "../../../site/content/store";
import { SOURCE_MESSAGES } from "../../../site/locales";
import { amountField, type ContentPage, type Form, faqField, faqKey, fieldId, missingLocales, sectionOf, textField } from "../content-edit";
import { type PageContext, renderPage } from "./layout";

// The console's Content area: the draft's pages (offer, texts, FAQ, comparison), its preview and
// publish, and the history. Plain forms: each saves the draft and comes back with what it saved;
// a refused form comes back with the owner's text as typed and the fields named.

/**
 * What every editing page shows and sends back: the draft's revision it was opened at, and the
 * part of the draft its form edits as it was then (`base`, JSON), against which a save made after
 * another change is merged (server/owner/console/content-merge.ts).
 */
export type DraftState = { revision: number; unpublished: number; base?: string };

/** A page's answer to a form: the text as posted (kept when refused) and what was wrong. */
export type Posted = { form: Form | null; problems: ContentProblem[]; notice: string | null; error: string | null };

const NAV: { id: ContentPage | "home"; path: string }[] = [
  { id: "home", path: "/admin/content" },
  { id: "offer", path: "/admin/content/offer" },
  { id: "texts", path: "/admin/content/texts" },
  { id: "faq", path: "/admin/content/faq" },
  { id: "comparison", path: "/admin/content/comparison" },
  // Written by the install guide's editor.
  { id: "guide", path: "/admin/content/guide" },
  { id: "history", path: "/admin/content/history" },
];

/** A page of the Content area: the console's page with the area's own navigation (the guide's editor uses it too). */
export function contentPage(ctx: PageContext, title: string, current: ContentPage | "home", body: ReactNode): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    title,
    "content",
    <>
      <nav className="sub" aria-label={t("admin.content.nav.label")}>
        <ul>
          {NAV.map((item) => (
            <li key={item.id}>
              <a href={item.path} aria-current={item.id === current ? "page" : undefined}>
                {t(`admin.content.nav.${item.id}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {body}
    </>,
  );
}

/** The draft's state, on every editing page: what is not published yet, and where to publish it. */
function DraftBar({ ctx, draft }: { ctx: PageContext; draft: DraftState }) {
  const { t } = ctx;
  return (
    <p className="note draft-bar">
      {draft.unpublished === 0 ? t("admin.content.draft.clean") : t("admin.content.draft.changes", { count: draft.unpublished })}{" "}
      <a href="/admin/content">{t("admin.content.draft.toPublish")}</a>
    </p>
  );
}

/** The answer to the last form: saved, or refused with each field named and linked. */
function Outcome({ ctx, posted, label }: { ctx: PageContext; posted: Posted; label?: (path: string) => string }) {
  const { t } = ctx;
  return (
    <>
      {posted.notice !== null && (
        <p className="success" role="status">
          {posted.notice}
        </p>
      )}
      {posted.error !== null && (
        // Focused once the page loads (client/admin/entry.ts), so that a keyboard or screen reader
        // user starts from what went wrong; without the script it is first in the page's content.
        <div className="card problems" role="alert" tabIndex={-1} data-focus-on-load={posted.problems.length > 0 ? undefined : ""}>
          <p className="error">{posted.error}</p>
        </div>
      )}
      {posted.problems.length > 0 && (
        <div className="card problems" role="alert" aria-labelledby="problems-title" tabIndex={-1} data-focus-on-load="">
          <h2 id="problems-title">{t("admin.content.problems")}</h2>
          <ul>
            {posted.problems.map((p) => (
              <li key={`${p.path}-${p.message}`}>
                <a href={`#${fieldId(p.path)}`}>{label?.(p.path) ?? p.path}</a>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

const problemOf = (posted: Posted, path: string) => posted.problems.find((p) => p.path === path);

/** A labelled field; a refused one says why beside it. */
function Field(props: {
  ctx: PageContext;
  posted: Posted;
  path: string;
  name: string;
  label: string;
  value: string;
  hint?: string;
  long?: boolean;
  type?: "text" | "date";
  lang?: Locale;
  inputMode?: "decimal" | "numeric";
}) {
  const id = fieldId(props.path);
  const problem = problemOf(props.posted, props.path);
  const described = [props.hint === undefined ? null : `${id}-hint`, problem === undefined ? null : `${id}-error`]
    .filter(Boolean)
    .join(" ");
  const value = props.posted.form?.[props.name] ?? props.value;
  const common = {
    id,
    name: props.name,
    defaultValue: value,
    lang: props.lang === undefined ? undefined : LOCALE_TAGS[props.lang].bcp47,
    "aria-invalid": problem === undefined ? undefined : true,
    "aria-describedby": described === "" ? undefined : described,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.long ? (
        <textarea rows={3} {...common} />
      ) : (
        <input type={props.type ?? "text"} inputMode={props.inputMode} autoComplete="off" {...common} />
      )}
      {props.hint !== undefined && (
        <p id={`${id}-hint`} className="note hint">
          {props.hint}
        </p>
      )}
      {problem !== undefined && (
        <p id={`${id}-error`} className="error">
          {problem.message}
        </p>
      )}
    </div>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const shortened = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text);

const Revision = ({ draft }: { draft: DraftState }) => (
  <>
    <input type="hidden" name="revision" value={draft.revision} />
    {draft.base !== undefined && <input type="hidden" name="base" value={draft.base} />}
  </>
);

// —— The area's home: the draft, its preview, publish ————————————————————————————————

export type HomeData = {
  draft: DraftState;
  changes: string[];
  publishedVersion: number;
  /** The version the draft was opened from: behind the published one when someone published since. */
  baseVersion: number;
  pages: { page: PageId; label: string }[];
};

export function contentHomePage(ctx: PageContext, data: HomeData, posted: Posted): string {
  const { t } = ctx;
  const behind = data.baseVersion !== data.publishedVersion;
  return contentPage(
    ctx,
    t("admin.content.title"),
    "home",
    <>
      <Outcome ctx={ctx} posted={posted} />
      <p>{t("admin.content.intro")}</p>
      <section className="card" aria-labelledby="draft-title">
        <h2 id="draft-title">{t("admin.content.draft.title")}</h2>
        <p>{t("admin.content.draft.published", { version: data.publishedVersion })}</p>
        {behind && (
          <div className="warning">
            <p className="error">{t("admin.content.draft.behind", { base: data.baseVersion, version: data.publishedVersion })}</p>
            <form method="post" action="/admin/content/rebase" className="inline">
              <Revision draft={data.draft} />
              <button type="submit" className="secondary">
                {t("admin.content.draft.rebase")}
              </button>
            </form>
          </div>
        )}
        {data.changes.length === 0 ? (
          <p>{t("admin.content.draft.clean")}</p>
        ) : (
          <>
            <p>{t("admin.content.draft.changes", { count: data.draft.unpublished })}</p>
            <ul className="changes">
              {data.changes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className="actions">
              <form method="post" action="/admin/content/publish">
                <Revision draft={data.draft} />
                <button type="submit">{t("admin.content.publish")}</button>
              </form>
              <form method="post" action="/admin/content/discard">
                <Revision draft={data.draft} />
                <button type="submit" className="secondary">
                  {t("admin.content.discard")}
                </button>
              </form>
            </div>
          </>
        )}
        <p className="note">{t("admin.content.cdnNote")}</p>
      </section>
      <section className="card" aria-labelledby="preview-title">
        <h2 id="preview-title">{t("admin.content.preview.title")}</h2>
        <p className="note">{t("admin.content.preview.hint")}</p>
        <form method="get" action="/admin/content/preview" className="preview-form">
          <div className="field">
            <label htmlFor="preview-page">{t("admin.content.preview.page")}</label>
            <select id="preview-page" name="page" defaultValue="landing">
              {data.pages.map((p) => (
                <option key={p.page} value={p.page}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="preview-lang">{t("admin.content.preview.language")}</label>
            <select id="preview-lang" name="lang" defaultValue={ctx.locale}>
              {LOCALES.map((l) => (
                <option key={l} value={l}>
                  {LOCALE_TAGS[l].name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="secondary">
            {t("admin.content.preview.open")}
          </button>
        </form>
      </section>
    </>,
  );
}

// —— Offer ——————————————————————————————————————————————————————————————————————————————

export type OfferData = {
  draft: DraftState;
  document: ContentDocument;
  /** The reference the draft's price would show if published now (price history), or null. */
  reference: number | null;
  history: { priceMinor: number; currency: string; since: Date }[];
};

export function offerPage(ctx: PageContext, data: OfferData, posted: Posted): string {
  const { t } = ctx;
  const { offer } = data.document;
  const labels: Record<string, string> = {
    "offer.productName": t("admin.content.offer.productName"),
    "offer.priceMinor": t("admin.content.offer.price"),
    "offer.currency": t("admin.content.offer.currency"),
    "offer.endsOn": t("admin.content.offer.endsOn"),
  };
  const showReference = posted.form === null ? offer.showReference : posted.form.showReference === "yes";
  return contentPage(
    ctx,
    t("admin.content.offer.title"),
    "offer",
    <>
      <DraftBar ctx={ctx} draft={data.draft} />
      <Outcome ctx={ctx} posted={posted} label={(path) => labels[path] ?? path} />
      <form method="post" action="/admin/content/offer" className="card" noValidate>
        <Revision draft={data.draft} />
        <Field
          ctx={ctx}
          posted={posted}
          path="offer.productName"
          name="productName"
          label={labels["offer.productName"] ?? ""}
          value={offer.productName}
        />
        <Field
          ctx={ctx}
          posted={posted}
          path="offer.priceMinor"
          name="price"
          label={labels["offer.priceMinor"] ?? ""}
          value={amountField(offer.priceMinor)}
          inputMode="decimal"
          hint={t("admin.content.offer.priceHint", { currency: offer.currency })}
        />
        <Field
          ctx={ctx}
          posted={posted}
          path="offer.currency"
          name="currency"
          label={labels["offer.currency"] ?? ""}
          value={offer.currency}
          hint={t("admin.content.offer.currencyHint")}
        />
        <Field
          ctx={ctx}
          posted={posted}
          path="offer.endsOn"
          name="endsOn"
          type="date"
          label={labels["offer.endsOn"] ?? ""}
          value={offer.endsOn ?? ""}
          hint={t("admin.content.offer.endsOnHint")}
        />
        <fieldset className="field">
          <legend>{t("admin.content.offer.reference")}</legend>
          <p className="note" id="reference-now">
            {data.reference === null
              ? t("admin.content.offer.referenceNone")
              : t("admin.content.offer.referenceIs", { price: ctx.fmt.money(data.reference, offer.currency) })}
          </p>
          {/* Offered only when the price history gives a reference: nothing to tick otherwise. */}
          {data.reference === null ? null : (
            <>
              <input type="checkbox" id="f-offer-showReference" name="showReference" value="yes" defaultChecked={showReference} />{" "}
              <label htmlFor="f-offer-showReference" className="inline-label">
                {t("admin.content.offer.showReference")}
              </label>
            </>
          )}
          <p className="note">{t("admin.content.offer.referenceRule")}</p>
        </fieldset>
        <button type="submit">{t("admin.content.save")}</button>
      </form>
      <section aria-labelledby="price-history">
        <h2 id="price-history">{t("admin.content.offer.history")}</h2>
        {data.history.length === 0 ? (
          <p>{t("admin.content.offer.historyNone")}</p>
        ) : (
          <ul>
            {data.history.map((p) => (
              <li key={p.since.getTime()}>
                {t("admin.content.offer.charged", { price: ctx.fmt.money(p.priceMinor, p.currency), date: ctx.fmt.when(p.since) })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>,
  );
}

// —— Texts ——————————————————————————————————————————————————————————————————————————————

export function textsIndexPage(ctx: PageContext, draft: DraftState, document: ContentDocument, posted: Posted): string {
  const { t } = ctx;
  const pages = [...new Set(CONTENT_SECTIONS.map((s) => s.page))];
  return contentPage(
    ctx,
    t("admin.content.texts.title"),
    "texts",
    <>
      <DraftBar ctx={ctx} draft={draft} />
      <Outcome ctx={ctx} posted={posted} />
      <p>{t("admin.content.texts.intro")}</p>
      {pages.map((page) => (
        <section key={page} aria-labelledby={`page-${page}`}>
          <h2 id={`page-${page}`}>{t(`admin.content.page.${page}`)}</h2>
          <ul className="sections">
            {CONTENT_SECTIONS.filter((s) => s.page === page).map((s) => {
              const own = s.keys.filter((k) => document.texts[k] !== undefined);
              const missing = own.filter((k) => missingLocales(document.texts[k]).length > 0).length;
              return (
                <li key={s.id}>
                  <a href={`/admin/content/texts/${s.id}`}>{t(`admin.content.section.${s.id}`)}</a>{" "}
                  <span className="note">
                    {t("admin.content.texts.count", { own: own.length, all: s.keys.length })}
                    {missing > 0 && <> · {t("admin.content.texts.missingCount", { count: missing })}</>}
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </>,
  );
}

export function textsSectionPage(
  ctx: PageContext,
  data: { draft: DraftState; document: ContentDocument; section: ContentSectionId },
  posted: Posted,
): string {
  const { t } = ctx;
  const section = sectionOf(data.section);
  const keys = section?.keys ?? [];
  const label = (path: string) => {
    const m = /^texts\.(.+)\.(fr|en|it|es)$/.exec(path);
    return m === null ? path : `${m[1]} (${LOCALE_TAGS[m[2] === "fr" || m[2] === "en" || m[2] === "it" ? m[2] : "es"].name})`;
  };
  return contentPage(
    ctx,
    `${t("admin.content.texts.title")}: ${t(`admin.content.section.${data.section}`)}`,
    "texts",
    <>
      <DraftBar ctx={ctx} draft={data.draft} />
      <Outcome ctx={ctx} posted={posted} label={label} />
      <p>
        <a href="/admin/content/texts">{t("admin.content.texts.back")}</a>
      </p>
      <p className="note">
        {t("admin.content.texts.where", { page: t(`admin.content.page.${section?.page ?? "landing"}`) })} {t("admin.content.texts.markup")}
      </p>
      <form method="post" action={`/admin/content/texts/${data.section}`} noValidate>
        <Revision draft={data.draft} />
        {keys.map((key) => {
          const own = data.document.texts[key];
          const missing = missingLocales(own);
          return (
            <fieldset key={key} className="card text-key">
              <legend>
                {/* What the text is and what it says now, in the owner's language; its key, for the export, beside it. */}
                {capitalized(t(`admin.content.family.${textFamily(key)}`))}: “{shortened(SOURCE_MESSAGES[ctx.locale][key])}”{" "}
                <span className="note">
                  <code>{key}</code>
                </span>
              </legend>
              {own !== undefined && missing.length > 0 && (
                <p className="note">
                  {t("admin.content.texts.missing", { languages: missing.map((l) => LOCALE_TAGS[l].name).join(", ") })}
                </p>
              )}
              {LOCALES.map((locale) => {
                const fallback = SOURCE_MESSAGES[locale][key];
                return (
                  <Field
                    key={locale}
                    ctx={ctx}
                    posted={posted}
                    path={`texts.${key}.${locale}`}
                    name={textField(key, locale)}
                    label={t("admin.content.texts.field", { language: LOCALE_TAGS[locale].name })}
                    value={own?.[locale] ?? ""}
                    long={fallback.length > 70}
                    lang={locale}
                    hint={`${t("admin.content.texts.default", { text: fallback })} ${t("admin.content.texts.limit", { max: textLimit(key) })}`}
                  />
                );
              })}
              {own !== undefined && (
                <button type="submit" name="reset" value={key} className="secondary">
                  {t("admin.content.texts.reset", { key })}
                </button>
              )}
            </fieldset>
          );
        })}
        <button type="submit">{t("admin.content.save")}</button>
      </form>
    </>,
  );
}

// —— FAQ ————————————————————————————————————————————————————————————————————————————————

/** An entry's question in the owner's language (or the first it has), for the list. */
function questionOf(entry: FaqEntry, locale: Locale): { text: string; lang: Locale } {
  if (entry.question[locale] !== undefined) return { text: entry.question[locale] ?? "", lang: locale };
  if (entry.builtIn !== null) return { text: SOURCE_MESSAGES[locale][faqKey("question", entry.builtIn)], lang: locale };
  const other = LOCALES.find((l) => entry.question[l] !== undefined) ?? locale;
  return { text: entry.question[other] ?? "", lang: other };
}

export function faqListPage(ctx: PageContext, draft: DraftState, document: ContentDocument, posted: Posted): string {
  const { t } = ctx;
  const move = (entry: FaqEntry, action: string, text: string, name: string, disabled = false, danger = false) => (
    <form method="post" action={`/admin/content/faq/${entry.id}/${action}`} className="inline">
      <Revision draft={draft} />
      <button type="submit" className={danger ? "danger" : "secondary"} aria-label={name} disabled={disabled}>
        {text}
      </button>
    </form>
  );
  return contentPage(
    ctx,
    t("admin.content.faq.title"),
    "faq",
    <>
      <DraftBar ctx={ctx} draft={draft} />
      <Outcome ctx={ctx} posted={posted} />
      <p>{t("admin.content.faq.intro")}</p>
      <p>
        {document.faq.length < LIMITS.faqEntries ? (
          <a className="button" href="/admin/content/faq/new">
            {t("admin.content.faq.add")}
          </a>
        ) : (
          t("admin.content.error.faqFull", { max: LIMITS.faqEntries })
        )}
      </p>
      <ol className="faq-list">
        {document.faq.map((entry, index) => {
          const q = questionOf(entry, ctx.locale);
          const missing =
            entry.builtIn === null ? LOCALES.filter((l) => entry.question[l] === undefined || entry.answer[l] === undefined) : [];
          return (
            <li key={entry.id} className="card">
              <p>
                <strong lang={LOCALE_TAGS[q.lang].bcp47}>{q.text}</strong>
              </p>
              <p className="note">
                {entry.builtIn === null ? t("admin.content.faq.own") : t("admin.content.faq.builtIn")} ·{" "}
                {entry.shown ? t("admin.content.faq.shown") : t("admin.content.faq.hidden")}
                {missing.length > 0 && (
                  <> · {t("admin.content.faq.missing", { languages: missing.map((l) => LOCALE_TAGS[l].name).join(", ") })}</>
                )}
              </p>
              <div className="actions">
                <a
                  className="button secondary-link"
                  href={`/admin/content/faq/${entry.id}`}
                  aria-label={t("admin.content.faq.editLabel", { question: q.text })}
                >
                  {t("admin.content.faq.edit")}
                </a>
                {move(entry, "up", t("admin.content.faq.up"), t("admin.content.faq.upLabel", { question: q.text }), index === 0)}
                {move(
                  entry,
                  "down",
                  t("admin.content.faq.down"),
                  t("admin.content.faq.downLabel", { question: q.text }),
                  index === document.faq.length - 1,
                )}
                {move(
                  entry,
                  "toggle",
                  entry.shown ? t("admin.content.faq.hide") : t("admin.content.faq.show"),
                  t(entry.shown ? "admin.content.faq.hideLabel" : "admin.content.faq.showLabel", { question: q.text }),
                )}
                {move(
                  entry,
                  "remove",
                  t("admin.content.faq.remove"),
                  t("admin.content.faq.removeLabel", { question: q.text }),
                  false,
                  true,
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </>,
  );
}

export function faqEntryPage(
  ctx: PageContext,
  data: { draft: DraftState; entry: FaqEntry; index: number; isNew: boolean },
  posted: Posted,
): string {
  const { t } = ctx;
  const { entry, index } = data;
  const label = (path: string) => {
    const m = /^faq\[\d+\]\.(question|answer)\.(fr|en|it|es)$/.exec(path);
    if (m === null) return path;
    const language = LOCALE_TAGS[m[2] === "fr" || m[2] === "en" || m[2] === "it" ? m[2] : "es"].name;
    return t(m[1] === "question" ? "admin.content.faq.question" : "admin.content.faq.answer", { language });
  };
  const shown = posted.form === null ? entry.shown : posted.form.shown === "yes";
  return contentPage(
    ctx,
    data.isNew ? t("admin.content.faq.newTitle") : t("admin.content.faq.editTitle"),
    "faq",
    <>
      <DraftBar ctx={ctx} draft={data.draft} />
      <Outcome ctx={ctx} posted={posted} label={label} />
      <p>
        <a href="/admin/content/faq">{t("admin.content.faq.back")}</a>
      </p>
      <p className="note">{entry.builtIn === null ? t("admin.content.faq.ownHint") : t("admin.content.faq.builtInHint")}</p>
      <form method="post" action={data.isNew ? "/admin/content/faq/new" : `/admin/content/faq/${entry.id}`} noValidate>
        <Revision draft={data.draft} />
        <p>
          <input type="checkbox" id="faq-shown" name="shown" value="yes" defaultChecked={shown} />{" "}
          <label htmlFor="faq-shown" className="inline-label">
            {t("admin.content.faq.showIt")}
          </label>
        </p>
        {posted.problems.some((p) => p.path === `faq[${index}]` || p.path === "faq") && (
          <p className="error" id={fieldId(`faq[${index}]`)}>
            {posted.problems.find((p) => p.path === `faq[${index}]` || p.path === "faq")?.message}
          </p>
        )}
        {LOCALES.map((locale) => {
          const language = LOCALE_TAGS[locale].name;
          const hint = (part: "question" | "answer") =>
            entry.builtIn === null
              ? undefined
              : t("admin.content.texts.default", { text: SOURCE_MESSAGES[locale][faqKey(part, entry.builtIn)] });
          return (
            <fieldset key={locale} className="card">
              <legend>{language}</legend>
              <Field
                ctx={ctx}
                posted={posted}
                path={`faq[${index}].question.${locale}`}
                name={faqField("question", locale)}
                label={t("admin.content.faq.question", { language })}
                value={entry.question[locale] ?? ""}
                lang={locale}
                hint={`${hint("question") ?? ""} ${t("admin.content.texts.limit", { max: LIMITS.faqQuestion })}`.trim()}
              />
              <Field
                ctx={ctx}
                posted={posted}
                path={`faq[${index}].answer.${locale}`}
                name={faqField("answer", locale)}
                label={t("admin.content.faq.answer", { language })}
                value={entry.answer[locale] ?? ""}
                lang={locale}
                long
                hint={`${hint("answer") ?? ""} ${t("admin.content.texts.limit", { max: LIMITS.faqAnswer })}`.trim()}
              />
            </fieldset>
          );
        })}
        <button type="submit">{t("admin.content.save")}</button>
      </form>
    </>,
  );
}

// —— Comparison ————————————————————————————————————————————————————————————————————————————

export function comparisonPage(ctx: PageContext, data: { draft: DraftState; document: ContentDocument }, posted: Posted): string {
  const { t } = ctx;
  const { comparison, offer } = data.document;
  const rows = comparison.rows;
  const columns = [
    { name: "service", field: "service", label: t("admin.content.comparison.service") },
    { name: "monthly", field: "monthlyMinor", label: t("admin.content.comparison.monthly") },
    { name: "yearly", field: "yearlyMinor", label: t("admin.content.comparison.yearly") },
    { name: "five", field: "fiveYearsMinor", label: t("admin.content.comparison.five") },
  ] as const;
  const label = (path: string) => {
    const m = /^comparison\.rows\[(\d+)\]\.(\w+)$/.exec(path);
    if (m === null) return path === "comparison.checkedOn" ? t("admin.content.comparison.checkedOn") : path;
    const column = columns.find((c) => c.field === m[2]);
    return t("admin.content.comparison.rowField", { row: Number(m[1]) + 1, field: column?.label ?? m[2] ?? "" });
  };
  const shownValue = (row: (typeof rows)[number] | undefined, field: (typeof columns)[number]["field"]) => {
    if (row === undefined) return "";
    return field === "service" ? row.service : amountField(row[field]);
  };
  const slots = [
    ...rows.map((row, i) => ({ slot: String(i), row })),
    ...(rows.length < LIMITS.comparisonRows ? [{ slot: "new", row: undefined }] : []),
  ];
  return contentPage(
    ctx,
    t("admin.content.comparison.title"),
    "comparison",
    <>
      <DraftBar ctx={ctx} draft={data.draft} />
      <Outcome ctx={ctx} posted={posted} label={label} />
      <p>{t("admin.content.comparison.intro", { name: offer.productName })}</p>
      <form method="post" action="/admin/content/comparison" noValidate>
        <Revision draft={data.draft} />
        <input type="hidden" name="rows" value={rows.length} />
        {slots.map(({ slot, row }) => (
          <fieldset key={slot} className="card">
            <legend>
              {slot === "new" ? t("admin.content.comparison.newRow") : t("admin.content.comparison.row", { row: Number(slot) + 1 })}
            </legend>
            {columns.map((c) => (
              <Field
                key={c.name}
                ctx={ctx}
                posted={posted}
                path={slot === "new" ? `comparison.new.${c.field}` : `comparison.rows[${slot}].${c.field}`}
                name={`${c.name}:${slot}`}
                label={c.label}
                value={shownValue(row, c.field)}
                inputMode={c.name === "service" ? undefined : "decimal"}
              />
            ))}
            {slot !== "new" && (
              <p>
                <input type="checkbox" id={`remove-${slot}`} name={`remove:${slot}`} value="yes" />{" "}
                <label htmlFor={`remove-${slot}`} className="inline-label">
                  {t("admin.content.comparison.remove", { row: Number(slot) + 1 })}
                </label>
              </p>
            )}
          </fieldset>
        ))}
        <fieldset className="card">
          <legend>{t("admin.content.comparison.checked")}</legend>
          <Field
            ctx={ctx}
            posted={posted}
            path="comparison.checkedOn"
            name="checkedOn"
            type="date"
            label={t("admin.content.comparison.checkedOn")}
            value={comparison.checkedOn ?? ""}
          />
          <Field
            ctx={ctx}
            posted={posted}
            path="comparison"
            name="source"
            label={t("admin.content.comparison.source")}
            value={comparison.source ?? ""}
            hint={t("admin.content.comparison.sourceHint")}
          />
        </fieldset>
        <button type="submit">{t("admin.content.save")}</button>
      </form>
    </>,
  );
}

// —— History ——————————————————————————————————————————————————————————————————————————————

export function historyPage(ctx: PageContext, versions: VersionSummary[], described: Map<number, string[]>, posted: Posted): string {
  const { t } = ctx;
  const current = versions[0]?.version ?? 0;
  return contentPage(
    ctx,
    t("admin.content.history.title"),
    "history",
    <>
      <Outcome ctx={ctx} posted={posted} />
      <p>{t("admin.content.history.intro")}</p>
      <p className="note">{t("admin.content.cdnNote")}</p>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("admin.content.history.version")}</th>
              <th scope="col">{t("admin.content.history.when")}</th>
              <th scope="col">{t("admin.content.history.who")}</th>
              <th scope="col">{t("admin.content.history.changes")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("admin.security.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.version} id={`version-${v.version}`}>
                <td>
                  {v.version}
                  {v.version === current && <> ({t("admin.content.history.current")})</>}
                </td>
                <td>{v.publishedAt === null ? "—" : ctx.fmt.when(v.publishedAt)}</td>
                <td>{v.version === 0 ? t("admin.content.history.defaults") : v.publishedBy}</td>
                <td>
                  {v.restoredFrom !== null && <>{t("admin.content.history.restoredFrom", { version: v.restoredFrom })} </>}
                  {(described.get(v.version) ?? []).length > 0 && (
                    <ul className="changes">
                      {(described.get(v.version) ?? []).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {v.version !== current && (
                    <form method="post" action="/admin/content/restore">
                      <input type="hidden" name="version" value={v.version} />
                      <button
                        type="submit"
                        className="secondary"
                        aria-label={t("admin.content.history.restoreLabel", { version: v.version })}
                      >
                        {t("admin.content.history.restore")}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>,
  );
}
