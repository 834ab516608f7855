import { CATALOGUE_LIMITS, MEDIA_SLOTS, type MediaSlots } from "../../../../shared/catalogue";
import type { ContentDocument } from "../../../../shared/content";
import { LOCALE_TAGS, LOCALES } from "../../../../shared/locales";
import { captionLines } from "../../../site/catalogue/captions";
import type { LoadedCatalogue } from "../../../site/catalogue/store";
import { type PageContext, renderPage } from "./layout";

// The console's Catalogue area: one page, a section per thing the owner gives the site (the
// titles, the posters, the rights statement, the claims, the pictures, the video and its
// captions). Plain forms (files go as multipart); each one publishes at once and comes back here.

export const CATALOGUE_DONE = ["imported", "posters", "rights", "claims", "pictures", "video", "captions"] as const;
export type CatalogueDone = (typeof CATALOGUE_DONE)[number];

/** The answer to the last form: what was published, or every reason it was refused (nothing changed). */
export type CataloguePosted = {
  notice: CatalogueDone | null;
  problems: { section: CatalogueDone; text: string }[];
  /** The text fields as posted (kept when refused). */
  form: Record<string, string> | null;
};

export type CatalogueAreaData = {
  document: ContentDocument;
  version: number;
  catalogue: LoadedCatalogue;
  uploadedPosters: number;
  mediaNames: Partial<Record<keyof MediaSlots, string>>;
};

/** The first titles, as a check of what was imported (the whole list is the public catalogue page). */
const SHOWN_TITLES = 50;

export function catalogueAreaPage(ctx: PageContext, data: CatalogueAreaData, posted: CataloguePosted): string {
  const { t, fmt } = ctx;
  const { catalogue, document } = data;
  const total = catalogue.titles.length;
  const kept = (name: string, value: string) => posted.form?.[name] ?? value;
  const pictureSlots = MEDIA_SLOTS.filter((s) => s !== "video" && s !== "videoPoster");
  return renderPage(
    ctx,
    t("admin.catalogue.title"),
    "catalogue",
    <>
      <h1>{t("admin.catalogue.title")}</h1>
      {posted.notice !== null && (
        <p className="success" role="status">
          {t(`admin.catalogue.done.${posted.notice}`, { version: data.version })}
        </p>
      )}
      {posted.problems.length > 0 && (
        <div className="card problems" role="alert" aria-labelledby="problems-title">
          <h2 id="problems-title">{t("admin.catalogue.refused")}</h2>
          <ul>
            {posted.problems.map((p) => (
              <li key={p.text}>{p.text}</li>
            ))}
          </ul>
        </div>
      )}

      <section className="card" aria-labelledby="titles-heading">
        <h2 id="titles-heading">{t("admin.catalogue.titles.heading")}</h2>
        {total === 0 ? (
          <p>{t("admin.catalogue.titles.none")}</p>
        ) : (
          <>
            <p>
              {t("admin.catalogue.titles.total", { count: total, wall: catalogue.wall.length })}{" "}
              <a href="/catalogue">{t("admin.catalogue.titles.public")}</a>
            </p>
            <table>
              <caption>{t("admin.catalogue.titles.byCategory")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("admin.catalogue.titles.category")}</th>
                  <th scope="col">{t("admin.catalogue.titles.count")}</th>
                </tr>
              </thead>
              <tbody>
                {catalogue.categories.map((c) => (
                  <tr key={c.name}>
                    <th scope="row">{c.name}</th>
                    <td>{fmt.number(c.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <details>
              <summary>{t("admin.catalogue.titles.first", { count: Math.min(SHOWN_TITLES, total) })}</summary>
              <ol>
                {catalogue.titles.slice(0, SHOWN_TITLES).map((title, i) => (
                  <li key={`${i}-${title.name}`}>
                    {title.name}
                    {title.year === null ? "" : ` (${title.year})`}, {title.category}
                    {title.featured ? ` — ${t("admin.catalogue.titles.featured")}` : ""}
                    {title.poster === null ? ` — ${t("admin.catalogue.titles.noPoster")}` : ""}
                  </li>
                ))}
              </ol>
            </details>
          </>
        )}
      </section>

      <section className="card" id="imported" aria-labelledby="import-heading">
        <h2 id="import-heading">{t("admin.catalogue.import.heading")}</h2>
        <p>{t("admin.catalogue.import.intro", { featured: CATALOGUE_LIMITS.featuredByDefault })}</p>
        <form method="post" action="/admin/catalogue/import" encType="multipart/form-data">
          <div className="field">
            <label htmlFor="import-csv">{t("admin.catalogue.import.csv")}</label>
            <input type="file" id="import-csv" name="csv" accept=".csv,text/csv" required />
          </div>
          <div className="field">
            <label htmlFor="import-posters">{t("admin.catalogue.import.posters")}</label>
            <input
              type="file"
              id="import-posters"
              name="posters"
              multiple
              accept="image/jpeg,image/png,image/webp,image/avif,.zip,application/zip"
              aria-describedby="import-posters-hint"
            />
            <p id="import-posters-hint" className="note hint">
              {t("admin.catalogue.import.postersHint", { uploaded: data.uploadedPosters })}
            </p>
          </div>
          <button type="submit">{t("admin.catalogue.import.submit")}</button>
        </form>
      </section>

      <section className="card" id="posters" aria-labelledby="posters-heading">
        <h2 id="posters-heading">{t("admin.catalogue.posters.heading")}</h2>
        <p>{t("admin.catalogue.posters.intro")}</p>
        <form method="post" action="/admin/catalogue/posters" encType="multipart/form-data">
          <div className="field">
            <label htmlFor="posters-files">{t("admin.catalogue.posters.files")}</label>
            <input
              type="file"
              id="posters-files"
              name="posters"
              multiple
              required
              accept="image/jpeg,image/png,image/webp,image/avif,.zip,application/zip"
            />
          </div>
          <button type="submit">{t("admin.catalogue.posters.submit")}</button>
        </form>
      </section>

      <section className="card" id="rights" aria-labelledby="rights-heading">
        <h2 id="rights-heading">{t("admin.catalogue.rights.heading")}</h2>
        <p>{t("admin.catalogue.rights.intro")}</p>
        <form method="post" action="/admin/catalogue/rights">
          {LOCALES.map((locale) => (
            <div className="field" key={locale}>
              <label htmlFor={`rights-${locale}`}>{t("admin.catalogue.rights.language", { language: LOCALE_TAGS[locale].name })}</label>
              <textarea
                id={`rights-${locale}`}
                name={`rights:${locale}`}
                lang={LOCALE_TAGS[locale].bcp47}
                rows={4}
                maxLength={CATALOGUE_LIMITS.rights}
                defaultValue={kept(`rights:${locale}`, document.catalogue.rights[locale] ?? "")}
              />
            </div>
          ))}
          <button type="submit">{t("admin.catalogue.publish")}</button>
        </form>
      </section>

      <section className="card" id="claims" aria-labelledby="claims-heading">
        <h2 id="claims-heading">{t("admin.catalogue.claims.heading")}</h2>
        <p>{t("admin.catalogue.claims.intro")}</p>
        <ul>
          <li>{t("admin.catalogue.claims.everything")}</li>
          {document.comparison.rows.map((row) => (
            <li key={row.service}>{t("admin.catalogue.claims.row", { service: row.service })}</li>
          ))}
        </ul>
        <p>
          <a href="/admin/content/texts">{t("admin.catalogue.claims.editTexts")}</a> ·{" "}
          <a href="/admin/content/comparison">{t("admin.catalogue.claims.editComparison")}</a>
        </p>
        <p className={document.catalogue.claimsConfirmed ? "success" : "error"}>
          {document.catalogue.claimsConfirmed ? t("admin.catalogue.claims.confirmed") : t("admin.catalogue.claims.notConfirmed")}
        </p>
        <form method="post" action="/admin/catalogue/claims">
          <input type="hidden" name="confirmed" value={document.catalogue.claimsConfirmed ? "no" : "yes"} />
          <button type="submit" className={document.catalogue.claimsConfirmed ? "secondary" : undefined}>
            {document.catalogue.claimsConfirmed ? t("admin.catalogue.claims.withdraw") : t("admin.catalogue.claims.confirm")}
          </button>
        </form>
      </section>

      <section className="card" id="pictures" aria-labelledby="pictures-heading">
        <h2 id="pictures-heading">{t("admin.catalogue.pictures.heading")}</h2>
        <p>{t("admin.catalogue.pictures.intro")}</p>
        {pictureSlots.map((slot) => (
          <SlotForm key={slot} ctx={ctx} slot={slot} current={data.mediaNames[slot]} accept="image/jpeg,image/png,image/webp,image/avif" />
        ))}
      </section>

      <section className="card" id="video" aria-labelledby="video-heading">
        <h2 id="video-heading">{t("admin.catalogue.video.heading")}</h2>
        <p>{t("admin.catalogue.video.intro")}</p>
        <SlotForm ctx={ctx} slot="video" current={data.mediaNames.video} accept="video/mp4,video/webm" />
        <SlotForm ctx={ctx} slot="videoPoster" current={data.mediaNames.videoPoster} accept="image/jpeg,image/png,image/webp,image/avif" />
      </section>

      <section className="card" id="captions" aria-labelledby="captions-heading">
        <h2 id="captions-heading">{t("admin.catalogue.captions.heading")}</h2>
        <p id="captions-hint">{t("admin.catalogue.captions.intro")}</p>
        <form method="post" action="/admin/catalogue/captions">
          {LOCALES.map((locale) => (
            <div className="field" key={locale}>
              <label htmlFor={`captions-${locale}`}>{t("admin.catalogue.captions.language", { language: LOCALE_TAGS[locale].name })}</label>
              <textarea
                id={`captions-${locale}`}
                name={`captions:${locale}`}
                lang={LOCALE_TAGS[locale].bcp47}
                rows={6}
                aria-describedby="captions-hint"
                defaultValue={kept(`captions:${locale}`, captionLines(document.captions[locale] ?? []))}
              />
            </div>
          ))}
          <button type="submit">{t("admin.catalogue.publish")}</button>
        </form>
      </section>
    </>,
  );
}

/** One picture or video slot: what is there now, the upload, and the way back to the built-in file. */
function SlotForm({
  ctx,
  slot,
  current,
  accept,
}: {
  ctx: PageContext;
  slot: keyof MediaSlots;
  current: string | undefined;
  accept: string;
}) {
  const { t } = ctx;
  const id = `slot-${slot}`;
  return (
    <form method="post" action="/admin/catalogue/media" encType="multipart/form-data" className="slot">
      <input type="hidden" name="slot" value={slot} />
      <div className="field">
        <label htmlFor={id}>{t(`admin.catalogue.slot.${slot}`)}</label>
        <input type="file" id={id} name="file" accept={accept} aria-describedby={`${id}-now`} />
        <p id={`${id}-now`} className="note hint">
          {current === undefined ? t("admin.catalogue.slot.builtIn") : t("admin.catalogue.slot.uploaded", { name: current })}
        </p>
      </div>
      <button type="submit">{t("admin.catalogue.slot.upload")}</button>
      {current !== undefined && (
        <button type="submit" name="remove" value="yes" className="secondary" formNoValidate>
          {t("admin.catalogue.slot.remove")}
        </button>
      )}
    </form>
  );
}
