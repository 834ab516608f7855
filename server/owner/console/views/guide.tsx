import type { ReactNode } from "react";
import { type GuideDevice, type GuideText, LIMITS } from "../../../../shared/content";
import { LOCALE_TAGS, LOCALES, type Locale } from "../../../../shared/locales";
import type { ContentProblem } from "../../../site/content/check";
import type { Draft } from "../../../site/content/store";
import { SOURCE_MESSAGES } from "../../../site/locales";
import { canAddDevice, canAddStep, type GuideForm, missingLocales } from "../guide-edit";
import { fieldProblems } from "../guide-routes";
import { contentPage } from "./content";
import type { PageContext } from "./layout";

// The installation guide's editor: the list of devices, and one device's name, steps and tip in
// the four languages. Plain forms (no script needed), every field labelled, problems next to their
// field and summed up at the top, where the focus goes.

export type GuidePosted = {
  /** What the owner sent, shown again when it was not saved. */
  form: GuideForm | null;
  problems: ContentProblem[];
  error: "stale" | "problems" | null;
  notice: "saved" | "added" | "moved" | "removed" | null;
};

const languageName = (locale: Locale) => LOCALE_TAGS[locale].name;

function Outcome({ ctx, posted, extra }: { ctx: PageContext; posted: GuidePosted; extra: string[] }) {
  const { t } = ctx;
  if (posted.notice !== null)
    return (
      <p className="success" role="status">
        {t(`admin.guide.done.${posted.notice}`)} {t("admin.guide.publishFromContent")}{" "}
        <a href="/admin/content">{t("admin.guide.contentLink")}</a>
      </p>
    );
  if (posted.error === null) return null;
  return (
    <div className="error" role="alert" id="guide-problems" tabIndex={-1} data-focus-on-load="">
      <p>{posted.error === "stale" ? t("admin.guide.stale") : t("admin.guide.problems", { count: posted.problems.length })}</p>
      {extra.length > 0 && (
        <ul>
          {extra.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One text in the four languages: a field each, the built-in text named when the field is left empty. */
function LocaleFields(props: {
  ctx: PageContext;
  name: string;
  legend: string;
  item: GuideText | null;
  form: GuideForm | null;
  problems: Map<string, string>;
  max: number;
  multiline: boolean;
}) {
  const { ctx, name, item, form, problems } = props;
  const { t } = ctx;
  const missing = item === null ? [] : missingLocales(item);
  const builtIn = item?.builtIn ?? null;
  return (
    <fieldset className="card guide-text">
      <legend>{props.legend}</legend>
      {builtIn !== null && <p className="note">{t("admin.guide.defaultNote")}</p>}
      {missing.length > 0 && missing.length < LOCALES.length && (
        <p className="note">{t("admin.guide.missing", { languages: missing.map((l) => languageName(l)).join(", ") })}</p>
      )}
      {LOCALES.map((locale) => {
        const field = `${name}.${locale}`;
        const id = `f-${field.replace(/\./g, "-")}`;
        const value = form === null ? (item?.text[locale] ?? "") : (form[field] ?? "");
        const problem = problems.get(field) ?? problems.get(name);
        const hint = builtIn === null ? undefined : SOURCE_MESSAGES[locale][builtIn];
        const described = [hint === undefined ? null : `${id}-default`, problem === undefined ? null : `${id}-error`].filter(
          (x) => x !== null,
        );
        const common = {
          id,
          name: field,
          lang: LOCALE_TAGS[locale].bcp47,
          "aria-invalid": problem === undefined ? undefined : true,
          "aria-describedby": described.length === 0 ? undefined : described.join(" "),
        };
        return (
          <div key={locale} className="guide-field">
            <label htmlFor={id}>{languageName(locale)}</label>
            {props.multiline ? (
              <textarea {...common} rows={2} defaultValue={value} />
            ) : (
              <input type="text" {...common} defaultValue={value} />
            )}
            {hint !== undefined && (
              <p className="note" id={`${id}-default`}>
                {t("admin.guide.default")} <span lang={LOCALE_TAGS[locale].bcp47}>{hint}</span>
              </p>
            )}
            {problem !== undefined && (
              <p className="error" id={`${id}-error`}>
                {problem}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

const titleIn = (ctx: PageContext, device: GuideDevice): string => {
  const own = device.title.text[ctx.locale] ?? LOCALES.map((l) => device.title.text[l]).find((x) => x !== undefined);
  if (own !== undefined) return own;
  return device.title.builtIn === null ? device.id : SOURCE_MESSAGES[ctx.locale][device.title.builtIn];
};

function page(ctx: PageContext, title: string, body: ReactNode): string {
  // A page of the Content area: its navigation, with this page current.
  return contentPage(ctx, title, "guide", body);
}

export function guideListPage(ctx: PageContext, draft: Draft, posted: GuidePosted): string {
  const { t } = ctx;
  const devices = draft.document.guide.devices;
  const { fields, other } = fieldProblems(posted.problems, devices.length);
  const revision = <input type="hidden" name="revision" value={String(draft.revision)} />;
  return page(
    ctx,
    t("admin.guide.title"),
    <>
      <p>{t("admin.guide.intro")}</p>
      <Outcome ctx={ctx} posted={posted} extra={other} />
      <ol className="guide-devices">
        {devices.map((device, i) => {
          const name = titleIn(ctx, device);
          const missing = missingLocales(device.title);
          return (
            <li key={device.id} className="card">
              <h2>
                <a href={`/admin/content/guide/${device.id}`}>{name}</a>
              </h2>
              <p className="note">
                {t("admin.guide.summary", { steps: device.steps.length, anchor: `/guide#${device.id}` })}
                {missing.length > 0 && <> · {t("admin.guide.missing", { languages: missing.map((l) => languageName(l)).join(", ") })}</>}
              </p>
              <div className="actions">
                <a className="button" href={`/admin/content/guide/${device.id}`} aria-label={t("admin.guide.editNamed", { name })}>
                  {t("admin.guide.edit")}
                </a>
                {(["up", "down", "remove"] as const)
                  .filter((move) => !(move === "up" && i === 0) && !(move === "down" && i === devices.length - 1))
                  .map((move) => (
                    <form key={move} method="post" action={`/admin/content/guide/${device.id}/move`} className="inline">
                      {revision}
                      <input type="hidden" name="move" value={move} />
                      <button
                        type="submit"
                        className={move === "remove" ? "danger" : "secondary"}
                        aria-label={t(`admin.guide.${move}Named`, { name })}
                      >
                        {t(`admin.guide.${move}`)}
                      </button>
                    </form>
                  ))}
              </div>
            </li>
          );
        })}
      </ol>
      <section className="card" aria-labelledby="guide-add">
        <h2 id="guide-add">{t("admin.guide.add")}</h2>
        {canAddDevice(draft.document) ? (
          <form method="post" action="/admin/content/guide/add">
            {revision}
            <p className="note">{t("admin.guide.addNote")}</p>
            <LocaleFields
              ctx={ctx}
              name="title"
              legend={t("admin.guide.name")}
              item={null}
              form={posted.form}
              problems={fields}
              max={LIMITS.guideTitle}
              multiline={false}
            />
            <LocaleFields
              ctx={ctx}
              name="step"
              legend={t("admin.guide.firstStep")}
              item={null}
              form={posted.form}
              problems={new Map([...fields].flatMap(([k, m]) => (k.startsWith("steps.0") ? [[k.replace("steps.0", "step"), m]] : [])))}
              max={LIMITS.guideStep}
              multiline
            />
            <button type="submit">{t("admin.guide.addSubmit")}</button>
          </form>
        ) : (
          <p className="note">{t("admin.guide.full", { max: LIMITS.guideDevices })}</p>
        )}
      </section>
    </>,
  );
}

export function guideDevicePage(ctx: PageContext, draft: Draft, device: GuideDevice, posted: GuidePosted): string {
  const { t } = ctx;
  const index = draft.document.guide.devices.findIndex((d) => d.id === device.id);
  const { fields, other } = fieldProblems(posted.problems, index);
  // The new step's problems come back under its place at the end of the list.
  const newStep = new Map(
    [...fields].flatMap(([k, m]) =>
      k.startsWith(`steps.${device.steps.length}`) ? [[k.replace(`steps.${device.steps.length}`, "new"), m]] : [],
    ),
  );
  const name = titleIn(ctx, device);
  return page(
    ctx,
    `${t("admin.guide.title")}: ${name}`,
    <>
      <p>
        <a href="/admin/content/guide">{t("admin.guide.back")}</a>
      </p>
      <p className="note">{t("admin.guide.anchor", { anchor: `/guide#${device.id}` })}</p>
      <Outcome ctx={ctx} posted={posted} extra={other} />
      <form method="post" action={`/admin/content/guide/${device.id}`}>
        <input type="hidden" name="revision" value={String(draft.revision)} />
        {/* First in the form: the button Enter in a field presses, before the steps' own buttons. */}
        <p>
          <button type="submit" name="action" value="save">
            {t("admin.guide.save")}
          </button>
        </p>
        <LocaleFields
          ctx={ctx}
          name="title"
          legend={t("admin.guide.name")}
          item={device.title}
          form={posted.form}
          problems={fields}
          max={LIMITS.guideTitle}
          multiline={false}
        />
        {device.steps.map((step, i) => (
          <div key={`${device.id}-${i}-${step.builtIn ?? "own"}`}>
            <LocaleFields
              ctx={ctx}
              name={`steps.${i}`}
              legend={t("admin.guide.step", { n: i + 1 })}
              item={step}
              form={posted.form}
              problems={fields}
              max={LIMITS.guideStep}
              multiline
            />
            <div className="actions">
              {i > 0 && (
                <button type="submit" name="action" value={`up-${i}`} className="secondary">
                  {t("admin.guide.stepUp", { n: i + 1 })}
                </button>
              )}
              {device.steps.length > 1 && (
                <button type="submit" name="action" value={`remove-${i}`} className="danger">
                  {t("admin.guide.stepRemove", { n: i + 1 })}
                </button>
              )}
            </div>
          </div>
        ))}
        {canAddStep(device) && (
          <LocaleFields
            ctx={ctx}
            name="new"
            legend={t("admin.guide.newStep")}
            item={null}
            form={posted.form}
            problems={newStep}
            max={LIMITS.guideStep}
            multiline
          />
        )}
        <LocaleFields
          ctx={ctx}
          name="tip"
          legend={t("admin.guide.tip")}
          item={device.tip}
          form={posted.form}
          problems={fields}
          max={LIMITS.guideStep}
          multiline
        />
        <button type="submit" name="action" value="save">
          {t("admin.guide.save")}
        </button>
      </form>
    </>,
  );
}
