import { Elysia } from "elysia";
import * as v from "valibot";
import {
  CONTENT_SECTIONS,
  type ContentDocument,
  type ContentSectionId,
  changedPaths,
  type FaqEntry,
  LIMITS,
} from "../../../shared/content";
import type { MessageKey } from "../../../shared/i18n";
import { LOCALES } from "../../../shared/locales";
import type { PageId } from "../../../shared/routes";
import type { AppDeps } from "../../deps";
import { queryWord } from "../../platform/http/route-input";
import { securityHeaders } from "../../platform/http/security";
import { checkContent } from "../../site/content/check";
import { fixedContent } from "../../site/content/live";
import {
  type Draft,
  discardDraft,
  listVersions,
  NothingToPublishError,
  publishDraft,
  readDraft,
  readPriceHistory,
  readPublished,
  readVersion,
  rebaseDraft,
  restoreVersion,
  StaleContentError,
  saveDraft,
  UnknownVersionError,
} from "../../site/content/store";
import { staticViewFor } from "../../site/pages/controller";
import { createDocumentRenderer } from "../../site/render";
import { versionEntry, writeLogged } from "./activity";
import { describeChanges } from "./content-changes";
import {
  applyComparison,
  applyFaqEntry,
  applyOffer,
  applyTexts,
  CONTENT_MAX_BODY_BYTES,
  type Edited,
  type FaqMove,
  type Form,
  moveFaqEntry,
  newFaqId,
  previewContent,
  referenceIfPublished,
} from "./content-edit";
import { type FormPart, mergeDocuments, partOf, withBase } from "./content-merge";
import { html, redirect } from "./http";
import type { ConsoleKit, Owner } from "./kit";
import { FaqParams, FormFields, Revision } from "./model";
import { ConsoleRefusal } from "./refusal";
import {
  comparisonPage,
  contentHomePage,
  type DraftState,
  faqEntryPage,
  faqListPage,
  historyPage,
  offerPage,
  type Posted,
  textsIndexPage,
  textsSectionPage,
} from "./views/content";
import type { PageContext } from "./views/layout";

// The Content area of the console (docs/content.md): every form saves the draft, sent with the
// draft's revision its page was opened at, so that two owners editing at once never overwrite each
// other (the second is shown their text again, with the news); "Publish" makes the draft the next
// version, which every process serves within a second; "Preview" renders any public page with the
// draft, for the signed-in owner alone.

const DONE = ["saved", "merged", "published", "discarded", "restored", "rebased"] as const;
type Done = (typeof DONE)[number];
/** What a page says after a change: only a word it knows (the address is no place for free text). */
const Notice = v.object({ done: queryWord(DONE) });
const MOVES = ["up", "down", "toggle", "remove"] as const satisfies readonly FaqMove[];
/** A section of the texts by its id, else the page does not exist. */
const SectionParams = v.object({ section: v.picklist(CONTENT_SECTIONS.map((s) => s.id)) });
const MoveParams = v.object({ ...FaqParams.entries, move: v.picklist(MOVES) });
/** A draft action (publish, discard, rebase, a FAQ entry moved): the draft's revision its page showed. */
const DraftActionForm = v.object({ revision: Revision });
const RestoreForm = v.object({ version: Revision });
/** "Answer as an FAQ entry": the visitor's question and its language, from the support page. */
const AnswerForm = v.object({
  question: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.transform((question) => question.slice(0, LIMITS.faqQuestion)),
  ),
  lang: v.picklist(LOCALES),
});

/** The pages a preview may show: every page of the site whose view needs no request of its own. */
const PREVIEW_PAGES = [
  "landing",
  "payment",
  "canceled",
  "reviews",
  "catalogue",
  "guide",
  "demo",
  "access",
  "legal-notice",
  "terms",
  "privacy",
] as const satisfies readonly PageId[];
/** The page and language a preview shows; any other is a page that does not exist. */
const PreviewQuery = v.object({ page: queryWord(PREVIEW_PAGES), lang: queryWord(LOCALES) });

/** Who published, as the history shows it: the console's session, by the browser it signed in from. */
const who = (owner: Owner) => `console (${owner.session.label})`;

const OFFER: FormPart = { kind: "offer" };
const COMPARISON: FormPart = { kind: "comparison" };

const NO_POST: Posted = { form: null, problems: [], notice: null, error: null };

export function contentRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;

  /** A content form: the console's parser within the content's own limit (a whole section in four languages). */
  const input = kit.input({ maxBytes: CONTENT_MAX_BODY_BYTES });
  const form = { parse: input, body: FormFields };
  const draftActionInput = { parse: input, body: DraftActionForm };
  const revisionOf = (posted: Form): number => {
    const parsed = v.safeParse(Revision, posted.revision ?? "");
    if (!parsed.success) throw new ConsoleRefusal(400, "admin.error.badRequest");
    return parsed.output;
  };
  const state = (draft: Draft, part?: FormPart): DraftState => {
    const base = readVersion(db, draft.baseVersion);
    return {
      revision: draft.revision,
      unpublished: base === null ? 1 : changedPaths(base.document, draft.document).length,
      ...(part === undefined ? {} : { base: JSON.stringify(partOf(draft.document, part)) }),
    };
  };
  const noticeOf = (ctx: PageContext, done: Done | null): Posted => ({
    ...NO_POST,
    notice: done === null ? null : ctx.t(`admin.content.done.${done}`),
  });

  /**
   * Saves what a form made of the draft, or answers with the page again: 422 with each field named
   * when something is wrong. A form opened before another save is merged with it field by field
   * (its base, the part as it was opened, comes with it): 409, nothing saved, when a field was
   * changed differently on both sides, with both values named. `edit` applies the form to a
   * draft's document; `part`: what the form edits (null for a new FAQ entry, which changes nothing
   * of anyone else's).
   */
  const saveForm = async (
    request: Request,
    owner: Owner,
    posted: Form,
    edit: (document: ContentDocument, posted: Form, ctx: PageContext) => Edited,
    page: (ctx: PageContext, draft: Draft, document: ContentDocument, posted: Posted) => string,
    back: string,
    part: FormPart | null,
  ): Promise<Response> => {
    const opened = revisionOf(posted);
    const ctx = await kit.page(request);
    const baseOf = (current: Draft): ContentDocument | null => {
      if (current.revision === opened || part === null) return current.document;
      const raw = posted.base;
      if (raw === undefined) return null;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        throw new ConsoleRefusal(400, "admin.error.badRequest");
      }
      const base = withBase(current.document, part, json);
      if (base === null) throw new ConsoleRefusal(400, "admin.error.badRequest");
      return base;
    };
    // A save that lost the race with another one merges again with that one (a few times at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      const draft = readDraft(db);
      const base = baseOf(draft);
      if (base === null)
        // A form without its base (not one of these pages'): the owner's text is kept, over the current draft.
        return html(
          page(ctx, draft, draft.document, { form: posted, problems: [], notice: null, error: ctx.t("admin.content.error.staleSave") }),
          kit.https(request),
          409,
        );
      const edited = edit(base, posted, ctx);
      if (edited.problems.length > 0)
        return html(
          page(ctx, draft, draft.document, { form: posted, problems: edited.problems, notice: null, error: null }),
          kit.https(request),
          422,
        );
      const merged =
        base === draft.document ? { document: edited.document, conflicts: [] } : mergeDocuments(base, edited.document, draft.document);
      if (merged.conflicts.length > 0) {
        // Shown again with this form's values where both changed, the rest as the draft is now.
        const shown = mergeDocuments(base, edited.document, draft.document, true).document;
        const problems = merged.conflicts.map((c) => ({
          path: c.path,
          message: ctx.t("admin.content.error.conflict", {
            mine: valueInWords(ctx, c.field, c.mine, draft.document.offer.currency),
            theirs: valueInWords(ctx, c.field, c.theirs, draft.document.offer.currency),
          }),
        }));
        return html(
          page(ctx, draft, shown, { form: null, problems, notice: null, error: ctx.t("admin.content.error.conflicts") }),
          kit.https(request),
          409,
        );
      }
      try {
        await saveDraft(write, { openedRevision: draft.revision, document: merged.document, by: who(owner), now: deps.now() });
      } catch (error) {
        if (error instanceof StaleContentError) continue;
        throw error;
      }
      return redirect(`${back}?done=${draft.revision === opened ? "saved" : "merged"}`, kit.https(request));
    }
    const current = readDraft(db);
    return html(
      page(ctx, current, current.document, { form: posted, problems: [], notice: null, error: ctx.t("admin.content.error.staleSave") }),
      kit.https(request),
      409,
    );
  };

  const faqEntry = (id: string, document: ContentDocument): { entry: FaqEntry; index: number } => {
    const index = document.faq.findIndex((e) => e.id === id);
    const entry = document.faq[index];
    if (entry === undefined) throw new ConsoleRefusal(404, "admin.content.error.noEntry");
    return { entry, index };
  };
  const blankEntry = (): FaqEntry => ({ id: newFaqId(), shown: true, builtIn: null, question: {}, answer: {} });

  const offer = (ctx: PageContext, draft: Draft, document: ContentDocument, posted: Posted) =>
    offerPage(
      ctx,
      { draft: state(draft, OFFER), document, reference: referenceIfPublished(db, document, deps.now()), history: readPriceHistory(db) },
      posted,
    );
  const texts = (section: ContentSectionId) => (ctx: PageContext, draft: Draft, document: ContentDocument, posted: Posted) =>
    textsSectionPage(ctx, { draft: state(draft, { kind: "texts", section }), document, section }, posted);
  const comparison = (ctx: PageContext, draft: Draft, document: ContentDocument, posted: Posted) =>
    comparisonPage(ctx, { draft: state(draft, COMPARISON), document }, posted);

  /** Publish, discard, rebase: a draft action sent with the revision its page showed. */
  const draftAction =
    (run: (opened: number, owner: Owner) => Promise<Done>) =>
    ({ request, body: { revision: opened } }: { request: Request; body: { revision: number } }) =>
      kit.asOwner(request, async (owner) => {
        try {
          const done = await run(opened, owner);
          return redirect(`/admin/content?done=${done}`, kit.https(request));
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal === null) throw error;
          const ctx = await kit.page(request);
          return html(home(ctx, { ...NO_POST, error: ctx.t(refusal.key) }), kit.https(request), refusal.status);
        }
      });

  const home = (ctx: PageContext, posted: Posted) => {
    const draft = readDraft(db);
    const published = readPublished(db);
    const base = readVersion(db, draft.baseVersion);
    return contentHomePage(
      ctx,
      {
        draft: state(draft),
        changes: base === null ? [] : describeChanges(base.document, draft.document, ctx.t, ctx.fmt, ctx.locale),
        publishedVersion: published.version,
        baseVersion: draft.baseVersion,
        pages: PREVIEW_PAGES.map((page) => ({ page, label: ctx.t(`admin.content.pageName.${page}`) })),
      },
      posted,
    );
  };

  return new Elysia({ name: "owner-console-content" })
    .get(
      "/admin/content",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          return html(home(ctx, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .post(
      "/admin/content/publish",
      draftAction(async (opened, owner) => {
        const draft = readDraft(db);
        if (draft.revision !== opened) throw new StaleContentError(draft.revision, opened);
        // Saved drafts were checked; this checks again what a hand-edited database may hold.
        if (!checkContent(draft.document).ok) throw new ConsoleRefusal(422, "admin.content.error.invalidDraft");
        const now = deps.now();
        await publishDraft(writeLogged(write, owner.session.id, now, versionEntry("content-published")), {
          openedRevision: opened,
          by: who(owner),
          now,
        });
        // This process at once; the others within CONTENT_POLL_MS.
        deps.content.refresh();
        return "published";
      }),
      draftActionInput,
    )
    .post(
      "/admin/content/discard",
      draftAction(async (opened, owner) => {
        const draft = readDraft(db);
        if (draft.revision !== opened) throw new StaleContentError(draft.revision, opened);
        await discardDraft(write, who(owner), deps.now());
        return "discarded";
      }),
      draftActionInput,
    )
    .post(
      "/admin/content/rebase",
      draftAction(async (opened, owner) => {
        await rebaseDraft(write, { openedRevision: opened, by: who(owner), now: deps.now() });
        return "rebased";
      }),
      draftActionInput,
    )
    .get(
      "/admin/content/preview",
      ({ request, query: { page, lang: locale } }) =>
        kit.asOwner(request, async () => {
          if (page === null || locale === null) throw new ConsoleRefusal(404, "admin.error.notFound");
          const view = staticViewFor({ page, locale }, new URLSearchParams(), deps.config);
          if (view === null) throw new ConsoleRefusal(404, "admin.error.notFound");
          const draft = readDraft(db);
          const documents = createDocumentRenderer({
            config: deps.config,
            assets: deps.assets,
            now: deps.now,
            content: fixedContent(previewContent(db, deps.config.site, draft.document, deps.now())),
          });
          const body = await documents.html(documents.pageData(view, locale));
          return new Response(body, {
            headers: {
              ...securityHeaders(kit.https(request)),
              "content-type": "text/html; charset=utf-8",
              // The owner's unpublished draft: never kept by a browser's or a shared cache, never indexed.
              "cache-control": "no-store, private",
              "x-robots-tag": "noindex, nofollow",
              "referrer-policy": "strict-origin",
            },
          });
        }),
      { query: PreviewQuery },
    )
    .get(
      "/admin/content/offer",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          return html(offer(ctx, draft, draft.document, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .post(
      "/admin/content/offer",
      ({ request, body }) =>
        kit.asOwner(request, (owner) =>
          saveForm(request, owner, body, (d, f, ctx) => applyOffer(d, f, ctx.t), offer, "/admin/content/offer", OFFER),
        ),
      form,
    )
    .get(
      "/admin/content/texts",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          return html(textsIndexPage(ctx, state(draft), draft.document, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .get(
      "/admin/content/texts/:section",
      ({ request, params: { section }, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          return html(texts(section)(ctx, draft, draft.document, noticeOf(ctx, done)), kit.https(request));
        }),
      { transform: kit.checked, params: SectionParams, query: Notice },
    )
    .post(
      "/admin/content/texts/:section",
      ({ request, params: { section }, body }) =>
        kit.asOwner(request, (owner) =>
          saveForm(request, owner, body, (d, f) => applyTexts(d, section, f), texts(section), `/admin/content/texts/${section}`, {
            kind: "texts",
            section,
          }),
        ),
      { ...form, params: SectionParams },
    )
    .get(
      "/admin/content/faq",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          return html(faqListPage(ctx, state(draft), draft.document, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .get(
      "/admin/content/faq/new",
      kit.signedIn(async (request) => {
        const ctx = await kit.page(request);
        const draft = readDraft(db);
        const page = faqEntryPage(
          ctx,
          { draft: state(draft), entry: blankEntry(), index: draft.document.faq.length, isNew: true },
          NO_POST,
        );
        return html(page, kit.https(request));
      }),
    )
    .post(
      // "Answer as an FAQ entry", from the support page: a new entry's form, the visitor's question
      // already in its language's field; nothing is saved until the owner writes the answer.
      "/admin/content/faq/answer",
      ({ request, body: { question, lang: locale } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          const entry: FaqEntry = { ...blankEntry(), question: { [locale]: question } };
          const page = faqEntryPage(
            ctx,
            { draft: state(draft), entry, index: draft.document.faq.length, isNew: true },
            { ...NO_POST, notice: ctx.t("admin.content.faq.answerHint") },
          );
          return html(page, kit.https(request));
        }),
      { parse: input, body: AnswerForm },
    )
    .post(
      "/admin/content/faq/new",
      ({ request, body }) =>
        kit.asOwner(request, (owner) => {
          const entry = blankEntry();
          return saveForm(
            request,
            owner,
            body,
            (d, f, ctx) => applyFaqEntry(d, entry, d.faq.length, f, ctx.t),
            (ctx, draft, _document, posted) =>
              faqEntryPage(ctx, { draft: state(draft), entry, index: draft.document.faq.length, isNew: true }, posted),
            "/admin/content/faq",
            null,
          );
        }),
      form,
    )
    .get(
      "/admin/content/faq/:id",
      ({ request, params: { id }, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          const { entry, index } = faqEntry(id, draft.document);
          return html(
            faqEntryPage(ctx, { draft: state(draft, { kind: "faq", id: entry.id }), entry, index, isNew: false }, noticeOf(ctx, done)),
            kit.https(request),
          );
        }),
      { transform: kit.checked, params: FaqParams, query: Notice },
    )
    .post(
      "/admin/content/faq/:id",
      ({ request, params: { id }, body }) =>
        kit.asOwner(request, (owner) => {
          const draft = readDraft(db);
          const { entry } = faqEntry(id, draft.document);
          return saveForm(
            request,
            owner,
            body,
            (d, f, ctx) => {
              const index = d.faq.findIndex((e) => e.id === entry.id);
              return applyFaqEntry(d, d.faq[index] ?? entry, index === -1 ? d.faq.length : index, f, ctx.t);
            },
            (ctx, current, document, posted) => {
              const index = document.faq.findIndex((e) => e.id === entry.id);
              return faqEntryPage(
                ctx,
                {
                  draft: state(current, { kind: "faq", id: entry.id }),
                  entry: document.faq[index] ?? entry,
                  index: index === -1 ? document.faq.length : index,
                  isNew: false,
                },
                posted,
              );
            },
            `/admin/content/faq/${entry.id}`,
            { kind: "faq", id: entry.id },
          );
        }),
      { ...form, params: FaqParams },
    )
    .post(
      "/admin/content/faq/:id/:move",
      ({ request, params: { id, move }, body: { revision: opened } }) =>
        kit.asOwner(request, async (owner) => {
          const draft = readDraft(db);
          const ctx = await kit.page(request);
          if (draft.revision !== opened)
            return html(
              faqListPage(ctx, state(draft), draft.document, { ...NO_POST, error: ctx.t("admin.content.error.staleMove") }),
              kit.https(request),
              409,
            );
          const { entry } = faqEntry(id, draft.document);
          const moved = moveFaqEntry(draft.document, entry.id, move);
          if (moved === null) throw new ConsoleRefusal(404, "admin.content.error.noEntry");
          try {
            await saveDraft(write, { openedRevision: opened, document: moved, by: who(owner), now: deps.now() });
          } catch (error) {
            if (!(error instanceof StaleContentError)) throw error;
            const current = readDraft(db);
            return html(
              faqListPage(ctx, state(current), current.document, { ...NO_POST, error: ctx.t("admin.content.error.staleMove") }),
              kit.https(request),
              409,
            );
          }
          return redirect("/admin/content/faq?done=saved", kit.https(request));
        }),
      { ...draftActionInput, params: MoveParams },
    )
    .get(
      "/admin/content/comparison",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const draft = readDraft(db);
          return html(comparison(ctx, draft, draft.document, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .post(
      "/admin/content/comparison",
      ({ request, body }) =>
        kit.asOwner(request, (owner) =>
          saveForm(request, owner, body, (d, f, ctx) => applyComparison(d, f, ctx.t), comparison, "/admin/content/comparison", COMPARISON),
        ),
      form,
    )
    .get(
      "/admin/content/history",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          const versions = listVersions(db);
          // Each version in words against the one before it (a restore: against what it replaced).
          const described = new Map<number, string[]>();
          for (const version of versions) {
            const now = version.version === 0 ? null : readVersion(db, version.version);
            const before = version.version === 0 ? null : readVersion(db, version.version - 1);
            if (now !== null && before !== null)
              described.set(version.version, describeChanges(before.document, now.document, ctx.t, ctx.fmt, ctx.locale));
          }
          return html(historyPage(ctx, versions, described, noticeOf(ctx, done)), kit.https(request));
        }),
      { query: Notice },
    )
    .post(
      "/admin/content/restore",
      ({ request, body: { version } }) =>
        kit.asOwner(request, async (owner) => {
          try {
            const now = deps.now();
            const logged = writeLogged(write, owner.session.id, now, versionEntry("content-restored"));
            await restoreVersion(logged, { version, by: who(owner), now });
          } catch (error) {
            if (error instanceof UnknownVersionError) throw new ConsoleRefusal(404, "admin.content.error.noVersion");
            throw error;
          }
          deps.content.refresh();
          return redirect("/admin/content/history?done=restored", kit.https(request));
        }),
      { parse: input, body: RestoreForm },
    );
}

/** A refused draft action, as the owner reads it; null for an error that is not one. */
function refusalOf(error: unknown): { status: 409 | 422; key: MessageKey } | null {
  if (error instanceof StaleContentError) return { status: 409, key: "admin.content.error.stalePublish" };
  if (error instanceof NothingToPublishError) return { status: 409, key: "admin.content.error.nothing" };
  if (error instanceof ConsoleRefusal && error.status === 422) return { status: 422, key: error.key };
  return null;
}

/** A field's value as the owner reads it in a conflict: an amount as money, a text quoted, a list counted. */
function valueInWords(ctx: PageContext, field: string, value: unknown, currency: string): string {
  if (value === undefined || value === null || value === "") return ctx.t("admin.content.merge.empty");
  if (typeof value === "boolean") return ctx.t(value ? "admin.content.merge.yes" : "admin.content.merge.no");
  if (typeof value === "number") return field.endsWith("Minor") ? ctx.fmt.money(value, currency) : ctx.fmt.number(value);
  if (Array.isArray(value)) return ctx.t("admin.content.merge.list", { count: value.length });
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `“${text.length > 120 ? `${text.slice(0, 119)}…` : text}”`;
}
