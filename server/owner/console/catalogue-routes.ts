import { Elysia } from "elysia";
import * as v from "valibot";
import { media } from "../../../db/schema";
import { CATALOGUE_LIMITS, type DemoCaptions, MEDIA_SLOTS, type MediaSlots } from "../../../shared/catalogue";
import type { ContentDocument } from "../../../shared/content";
import { LOCALE_TAGS, LOCALES } from "../../../shared/locales";
import type { AppDeps } from "../../deps";
import { readUpload } from "../../platform/http/body";
import { queryWord } from "../../platform/http/route-input";
import { readCaptionLines } from "../../site/catalogue/captions";
import { describeProblems } from "../../site/catalogue/csv";
import {
  acceptVideo,
  type Converted,
  convertPicture,
  MEDIA_MAX,
  MediaRejected,
  PicturesUnavailable,
  postersByName,
  storeMedia,
} from "../../site/catalogue/media";
import { CatalogueRefused, importCatalogue, publishChange } from "../../site/catalogue/store";
import { readPublished } from "../../site/content/store";
import { activityDetail, recordActivity, versionEntry, writeLogged } from "./activity";
import { html, redirect } from "./http";
import type { ConsoleKit, Owner } from "./kit";
import { FormFields } from "./model";
import { ConsoleRefusal } from "./refusal";
import { CATALOGUE_DONE, type CatalogueDone, type CataloguePosted, catalogueAreaPage } from "./views/catalogue";
import type { PageContext } from "./views/layout";

// The Catalogue area of the console (docs/catalogue.md): the imported titles, a new import (a CSV
// and its posters, as files or a zip), the rights statement, the built-in claims' confirmation,
// and the owner's pictures, video and captions. Each change is published at once, as a content
// version in the history (the command line's import does the same), and every process shows it
// within a second. A refused upload answers with every reason and stores nothing.

/** A catalogue's CSV and posters; larger catalogues go through `site catalogue import`. */
const IMPORT_MAX_BYTES = 150 * 1024 * 1024;
/** A demo video and the form around it. */
const MEDIA_MAX_BYTES = MEDIA_MAX.videoBytes + 1024 * 1024;
/** A zip's posters, uncompressed: what it may claim to hold before anything is inflated. */
const ZIP_MAX_BYTES = 600 * 1024 * 1024;
const FORM_MAX_BYTES = 256 * 1024;

const SlotSchema = v.picklist(MEDIA_SLOTS);
/** Which slots take which kind of file. */
const KIND_OF_SLOT: Record<keyof MediaSlots, "preview" | "og" | "video" | "video-poster"> = {
  previewPhone: "preview",
  previewTablet: "preview",
  previewComputer: "preview",
  og: "og",
  video: "video",
  videoPoster: "video-poster",
};

const who = (owner: Owner) => `console (${owner.session.label})`;
const NOTHING: CataloguePosted = { notice: null, problems: [], form: null };

/** A zip's pictures by file name (folders inside are flattened: the CSV names files). */
async function unzipPosters(file: string, bytes: Uint8Array, into: Map<string, Uint8Array>): Promise<void> {
  // Loaded on the first zip: the library sets up its worker threads as it loads, which every
  // start of the site would otherwise pay for.
  const { unzipSync } = await import("fflate");
  let claimed = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (entry) => {
        const name = entry.name.split("/").pop() ?? "";
        if (entry.name.endsWith("/") || name === "" || name.startsWith(".") || entry.name.startsWith("__MACOSX/")) return false;
        if (entry.originalSize > MEDIA_MAX.imageBytes)
          throw new MediaRejected(
            `${file}: ${name}`,
            `is ${Math.round(entry.originalSize / 1024 / 1024)} MB once unpacked: a picture may weigh at most ${MEDIA_MAX.imageBytes / 1024 / 1024} MB`,
          );
        claimed += entry.originalSize;
        if (claimed > ZIP_MAX_BYTES)
          throw new MediaRejected(
            file,
            `unpacks to more than ${ZIP_MAX_BYTES / 1024 / 1024} MB: import this catalogue with \`site catalogue import\``,
          );
        return true;
      },
    });
  } catch (error) {
    if (error instanceof MediaRejected) throw error;
    throw new MediaRejected(file, "is not a zip archive that can be read: make it again, or upload the posters themselves");
  }
  for (const [path, content] of Object.entries(entries)) into.set(path.split("/").pop() ?? path, content);
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** The posted files of a field (a browser sends one empty part when none was chosen). */
const filesOf = (form: FormData, field: string): File[] =>
  form.getAll(field).flatMap((part) => (typeof part === "string" || part.size === 0 ? [] : [part]));

async function posterFiles(form: FormData): Promise<Map<string, Uint8Array>> {
  const posters = new Map<string, Uint8Array>();
  for (const file of filesOf(form, "posters")) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (isZip(bytes)) await unzipPosters(file.name, bytes, posters);
    else posters.set(file.name.split(/[\\/]/).pop() ?? file.name, bytes);
  }
  return posters;
}

export function catalogueRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;

  const page = (ctx: PageContext, posted: CataloguePosted) => {
    const published = readPublished(db);
    return catalogueAreaPage(
      ctx,
      {
        document: published.document,
        version: published.version,
        catalogue: deps.content.current().catalogue,
        uploadedPosters: postersByName(db).size,
        mediaNames: mediaNames(published.document.media),
      },
      posted,
    );
  };
  const mediaNames = (slots: MediaSlots) => {
    const names: Partial<Record<keyof MediaSlots, string>> = {};
    const rows = db.select({ id: media.id, name: media.name }).from(media).all();
    const byId = new Map(rows.map((r) => [r.id, r.name]));
    for (const slot of MEDIA_SLOTS) {
      const id = slots[slot];
      const name = id === null ? undefined : byId.get(id);
      if (name !== undefined) names[slot] = name;
    }
    return names;
  };
  const done = (request: Request, what: CatalogueDone) => redirect(`/admin/catalogue?done=${what}#${what}`, kit.https(request));
  const refused = async (request: Request, status: 409 | 422 | 503, posted: Omit<CataloguePosted, "notice">) => {
    const ctx = await kit.page(request);
    return html(page(ctx, { ...posted, notice: null }), kit.https(request), status);
  };
  /** Publishes a change on top of what is live, and shows it in this process at once. */
  const publish = async (
    owner: Owner,
    action: "catalogue-changed" | "media-uploaded",
    apply: (document: ContentDocument) => ContentDocument,
    converted: readonly Converted[] = [],
  ) => {
    const now = deps.now();
    await write((tx) => {
      storeMedia(tx, converted, now);
      const published = publishChange(tx, { apply, by: who(owner), now });
      recordActivity(tx, { action, detail: activityDetail.version(published.version), sessionId: owner.session.id }, now);
    });
    deps.content.refresh();
  };
  const upload = async (request: Request, maxBytes: number) => readUpload(request, maxBytes);
  /** A form of text fields: read by the console's parser within its own limit (captions run long). */
  const plainForm = { parse: kit.input({ maxBytes: FORM_MAX_BYTES }), body: FormFields };
  /** A refused picture or video: the reason, nothing stored. */
  const mediaRefusal = (request: Request, section: CatalogueDone, error: unknown) => {
    if (error instanceof MediaRejected) return refused(request, 422, { problems: [{ section, text: error.message }], form: null });
    if (error instanceof PicturesUnavailable) return refused(request, 503, { problems: [{ section, text: error.message }], form: null });
    throw error;
  };

  return new Elysia({ name: "owner-console-catalogue" })
    .get(
      "/admin/catalogue",
      ({ request, query: { done } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          return html(page(ctx, { ...NOTHING, notice: done }), kit.https(request));
        }),
      { query: v.object({ done: queryWord(CATALOGUE_DONE) }) },
    )
    .post(
      "/admin/catalogue/import",
      kit.signedIn(async (request, owner) => {
        const form = await upload(request, IMPORT_MAX_BYTES);
        const csvFile = filesOf(form, "csv")[0];
        const t = (await kit.page(request)).t;
        if (csvFile === undefined)
          return refused(request, 422, { problems: [{ section: "imported", text: t("admin.catalogue.import.noCsv") }], form: null });
        try {
          const posters = await posterFiles(form);
          const now = deps.now();
          const logged = writeLogged(write, owner.session.id, now, versionEntry("catalogue-imported"));
          await importCatalogue({ db, write: logged, csv: await csvFile.text(), posters, by: who(owner), now });
          deps.content.refresh();
          return done(request, "imported");
        } catch (error) {
          if (error instanceof CatalogueRefused)
            return refused(request, 422, {
              problems: describeProblems(error.problems, error.more)
                .split("\n")
                .map((text) => ({ section: "imported" as const, text: `${csvFile.name}: ${text}` })),
              form: null,
            });
          return mediaRefusal(request, "imported", error);
        }
      }),
      { parse: "none" },
    )
    .post(
      "/admin/catalogue/posters",
      kit.signedIn(async (request, owner) => {
        const form = await upload(request, IMPORT_MAX_BYTES);
        try {
          const posters = await posterFiles(form);
          if (posters.size === 0) throw new MediaRejected("(no file)", "choose one or more posters (pictures or a zip)");
          // Every file checked and converted before any is stored: one refused, none kept.
          const converted: Converted[] = [];
          for (const [name, bytes] of posters) converted.push(await convertPicture("poster", name, bytes));
          const now = deps.now();
          await write((tx) => {
            storeMedia(tx, converted, now);
            const detail = activityDetail.posters(converted.length);
            recordActivity(tx, { action: "media-uploaded", detail, sessionId: owner.session.id }, now);
          });
          return done(request, "posters");
        } catch (error) {
          return mediaRefusal(request, "posters", error);
        }
      }),
      { parse: "none" },
    )
    .post(
      "/admin/catalogue/media",
      kit.signedIn(async (request, owner) => {
        const form = await upload(request, MEDIA_MAX_BYTES);
        const slot = v.safeParse(SlotSchema, form.get("slot"));
        if (!slot.success) throw new ConsoleRefusal(400, "admin.error.badRequest");
        const section: CatalogueDone = slot.output === "video" || slot.output === "videoPoster" ? "video" : "pictures";
        if (form.get("remove") === "yes") {
          await publish(owner, "catalogue-changed", (d) => ({ ...d, media: { ...d.media, [slot.output]: null } }));
          return done(request, section);
        }
        const file = filesOf(form, "file")[0];
        try {
          if (file === undefined) throw new MediaRejected("(no file)", "choose the file to upload");
          const bytes = new Uint8Array(await file.arrayBuffer());
          const kind = KIND_OF_SLOT[slot.output];
          const converted = kind === "video" ? acceptVideo(file.name, bytes) : await convertPicture(kind, file.name, bytes);
          await publish(owner, "media-uploaded", (d) => ({ ...d, media: { ...d.media, [slot.output]: converted.id } }), [converted]);
          return done(request, section);
        } catch (error) {
          return mediaRefusal(request, section, error);
        }
      }),
      { parse: "none" },
    )
    .post(
      "/admin/catalogue/rights",
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const rights: Partial<Record<(typeof LOCALES)[number], string>> = {};
          const t = (await kit.page(request)).t;
          for (const locale of LOCALES) {
            const text = (form[`rights:${locale}`] ?? "").trim();
            if (text.length > CATALOGUE_LIMITS.rights)
              return refused(request, 422, {
                problems: [
                  { section: "rights", text: t("admin.catalogue.rights.tooLong", { language: locale, max: CATALOGUE_LIMITS.rights }) },
                ],
                form,
              });
            if (text !== "") rights[locale] = text;
          }
          await publish(owner, "catalogue-changed", (d) => ({ ...d, catalogue: { ...d.catalogue, rights } }));
          return done(request, "rights");
        }),
      plainForm,
    )
    .post(
      "/admin/catalogue/claims",
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const confirmed = form.confirmed === "yes";
          await publish(owner, "catalogue-changed", (d) => ({ ...d, catalogue: { ...d.catalogue, claimsConfirmed: confirmed } }));
          return done(request, "claims");
        }),
      plainForm,
    )
    .post(
      "/admin/catalogue/captions",
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          const captions: DemoCaptions = {};
          const problems: CataloguePosted["problems"] = [];
          const t = (await kit.page(request)).t;
          for (const locale of LOCALES) {
            const read = readCaptionLines(form[`captions:${locale}`] ?? "");
            if (!read.ok)
              for (const p of read.problems)
                problems.push({
                  section: "captions",
                  text: t("admin.catalogue.captions.problem", { language: LOCALE_TAGS[locale].name, line: p.line, problem: p.message }),
                });
            else if (read.cues.length > 0) captions[locale] = read.cues;
          }
          if (problems.length > 0) return refused(request, 422, { problems, form });
          await publish(owner, "catalogue-changed", (d) => ({ ...d, captions }));
          return done(request, "captions");
        }),
      plainForm,
    );
}
