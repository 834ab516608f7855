import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { queryWord } from "../../platform/http/route-input";
import type { ContentProblem } from "../../site/content/check";
import { readDraft, StaleContentError, saveDraft } from "../../site/content/store";
import { addDevice, DEVICE_MOVES, editDevice, type GuideEdited, type GuideForm, moveDevice, stepActionOf } from "./guide-edit";
import { html, redirect } from "./http";
import type { ConsoleKit, Owner } from "./kit";
import { DeviceParams, FormFields, Revision } from "./model";
import { ConsoleRefusal } from "./refusal";
import { type GuidePosted, guideDevicePage, guideListPage } from "./views/guide";

// The installation guide's editor (/admin/content/guide, docs/content.md): the devices in order
// (add, rename, move, remove) and each device's steps per language, saved into the content's draft
// with the revision the page was opened at, so that two owners editing at once never overwrite
// each other. Publishing the draft is the Content area's.

/** A device with twelve steps in four languages, accents escaped: well above the console's usual 16 KiB. */
const GUIDE_MAX_BODY_BYTES = 160 * 1024;
const Move = v.picklist(DEVICE_MOVES);
const DONE = ["saved", "added", "moved", "removed"] as const;
const Notice = v.object({ done: queryWord(DONE) });

const NOT_POSTED: GuidePosted = { form: null, problems: [], error: null, notice: null };

/** Who saved, as the draft keeps it: the console's session, by the browser it signed in from. */
const who = (owner: Owner) => `console (${owner.session.label})`;

export function guideRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;

  const input = { parse: kit.input({ maxBytes: GUIDE_MAX_BODY_BYTES }), body: FormFields };
  const revisionOf = (form: GuideForm): number => {
    const parsed = v.safeParse(Revision, form.revision ?? "");
    if (!parsed.success) throw new ConsoleRefusal(400, "admin.error.badRequest");
    return parsed.output;
  };

  /**
   * Saves an edit made on the draft the page was opened with; else the page again with what the
   * owner wrote: 409 when the draft changed since, 422 with each field named when something is wrong.
   */
  const save = async (
    request: Request,
    owner: Owner,
    form: GuideForm,
    edit: (document: ReturnType<typeof readDraft>["document"]) => GuideEdited | null,
    page: (posted: GuidePosted, status: number) => Promise<Response>,
    done: string,
  ): Promise<Response> => {
    const opened = revisionOf(form);
    const draft = readDraft(db);
    const stale = () => page({ form, problems: [], error: "stale", notice: null }, 409);
    if (draft.revision !== opened) return stale();
    const edited = edit(draft.document);
    if (edited === null) throw new ConsoleRefusal(404, "admin.guide.noDevice");
    if (!edited.ok) return page({ form, problems: edited.problems, error: "problems", notice: null }, 422);
    try {
      await saveDraft(write, { openedRevision: opened, document: edited.document, by: who(owner), now: deps.now() });
    } catch (error) {
      if (error instanceof StaleContentError) return stale();
      throw error;
    }
    return redirect(done, kit.https(request));
  };

  const listAnswer = async (request: Request, posted: GuidePosted, status = 200) => {
    const draft = readDraft(db);
    return html(guideListPage(await kit.page(request), draft, posted), kit.https(request), status);
  };
  const deviceAnswer = async (request: Request, id: string, posted: GuidePosted, status = 200) => {
    const draft = readDraft(db);
    const device = draft.document.guide.devices.find((d) => d.id === id);
    if (device === undefined) throw new ConsoleRefusal(404, "admin.guide.noDevice");
    return html(guideDevicePage(await kit.page(request), draft, device, posted), kit.https(request), status);
  };

  return new Elysia({ name: "owner-console-guide" })
    .get(
      "/admin/content/guide",
      ({ request, query: { done } }) => kit.asOwner(request, () => listAnswer(request, { ...NOT_POSTED, notice: done })),
      { query: Notice },
    )
    .post(
      "/admin/content/guide/add",
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          let added = "";
          return save(
            request,
            owner,
            form,
            (document) => {
              const result = addDevice(document, form);
              if (result.ok && result.id !== undefined) added = result.id;
              return result;
            },
            (posted, status) => listAnswer(request, posted, status),
            "/admin/content/guide?done=added",
          ).then((answer) =>
            // A new device opens on its own page, to write its other steps.
            answer.status === 303 && added !== "" ? redirect(`/admin/content/guide/${added}?done=added`, kit.https(request)) : answer,
          );
        }),
      input,
    )
    .post(
      "/admin/content/guide/:id/move",
      ({ request, params: { id }, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const move = v.safeParse(Move, form.move);
          if (!move.success) throw new ConsoleRefusal(400, "admin.error.badRequest");
          return save(
            request,
            owner,
            form,
            (document) => moveDevice(document, id, move.output),
            (posted, status) => listAnswer(request, posted, status),
            `/admin/content/guide?done=${move.output === "remove" ? "removed" : "moved"}`,
          );
        }),
      { ...input, params: DeviceParams },
    )
    .get(
      "/admin/content/guide/:id",
      ({ request, params: { id }, query: { done } }) =>
        kit.asOwner(request, () => deviceAnswer(request, id, { ...NOT_POSTED, notice: done })),
      { transform: kit.checked, params: DeviceParams, query: Notice },
    )
    .post(
      "/admin/content/guide/:id",
      ({ request, params: { id }, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const action = stepActionOf(form.action);
          if (action === null) throw new ConsoleRefusal(400, "admin.error.badRequest");
          return save(
            request,
            owner,
            form,
            (document) => editDevice(document, id, form, action),
            (posted, status) => deviceAnswer(request, id, posted, status),
            `/admin/content/guide/${id}?done=saved`,
          );
        }),
      { ...input, params: DeviceParams },
    );
}

/** Problems of one device's fields, by the form's field name (`steps.2.fr`), from the content's paths. */
export function fieldProblems(problems: ContentProblem[], deviceIndex: number | null): { fields: Map<string, string>; other: string[] } {
  const fields = new Map<string, string>();
  const other: string[] = [];
  for (const problem of problems) {
    const match = /^guide\.devices\[(\d+)\]\.(title|tip|steps\[(\d+)\])\.text(?:\.(fr|en|it|es))?$/.exec(problem.path);
    if (match === null || (deviceIndex !== null && Number(match[1]) !== deviceIndex)) {
      other.push(`${problem.path}: ${problem.message}`);
      continue;
    }
    const part = match[3] !== undefined ? `steps.${match[3]}` : match[2];
    fields.set(match[4] === undefined ? `${part}` : `${part}.${match[4]}`, problem.message);
  }
  return { fields, other };
}
