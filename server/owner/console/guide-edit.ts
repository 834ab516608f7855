import {
  type ContentDocument,
  type GuideDevice,
  type GuideText,
  LIMITS,
  type LocaleTexts,
  RESERVED_DEVICE_IDS,
} from "../../../shared/content";
import { LOCALES, type Locale } from "../../../shared/locales";
import { type ContentProblem, checkContent } from "../../site/content/check";

// What the guide editor's forms do to the draft (server/owner/console/guide-routes.ts): pure
// functions of the draft's document and the posted fields, checked whole by the content's own
// check, so that the console refuses exactly what an import would.

/** A posted form: field name to value. */
export type GuideForm = Record<string, string>;

export type GuideEdited = { ok: true; document: ContentDocument } | { ok: false; problems: ContentProblem[] };

/** The device moves the device list's buttons make. */
export const DEVICE_MOVES = ["up", "down", "remove"] as const;
export type DeviceMove = (typeof DEVICE_MOVES)[number];

const textsOf = (form: GuideForm, prefix: string): LocaleTexts => {
  const texts: LocaleTexts = {};
  for (const locale of LOCALES) {
    const value = form[`${prefix}.${locale}`]?.trim();
    if (value !== undefined && value !== "") texts[locale] = value;
  }
  return texts;
};

const hasText = (texts: LocaleTexts) => Object.keys(texts).length > 0;

const checked = (document: ContentDocument): GuideEdited => {
  const result = checkContent(document);
  return result.ok ? { ok: true, document: result.document } : { ok: false, problems: result.problems };
};

const withDevices = (document: ContentDocument, devices: GuideDevice[]): ContentDocument => ({
  ...document,
  guide: { devices },
});

/**
 * An id for a new device from its name: its letters without accents, lowercase, dashes between
 * words; another number when taken. The id is the device's anchor (`/guide#linux`), fixed for good.
 */
export function newDeviceId(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 30)
      .replace(/-+$/, "") || "device";
  const free = (id: string) => !taken.includes(id) && !RESERVED_DEVICE_IDS.includes(id);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}

/** "Add a device": its name in the languages given, and its first step; at the end of the list. */
export function addDevice(document: ContentDocument, form: GuideForm): GuideEdited & { id?: string } {
  const title = textsOf(form, "title");
  const step = textsOf(form, "step");
  const name = LOCALES.map((locale) => title[locale]).find((t) => t !== undefined) ?? "";
  const id = newDeviceId(
    name,
    document.guide.devices.map((d) => d.id),
  );
  const device: GuideDevice = { id, title: { builtIn: null, text: title }, steps: [{ builtIn: null, text: step }], tip: null };
  const result = checked(withDevices(document, [...document.guide.devices, device]));
  return result.ok ? { ...result, id } : result;
}

/** Up, down or out of the list. */
export function moveDevice(document: ContentDocument, id: string, move: DeviceMove): GuideEdited | null {
  const devices = [...document.guide.devices];
  const at = devices.findIndex((d) => d.id === id);
  const device = devices[at];
  if (device === undefined) return null;
  if (move === "remove") devices.splice(at, 1);
  else {
    const to = move === "up" ? at - 1 : at + 1;
    const other = devices[to];
    if (other === undefined) return { ok: true, document };
    devices[to] = device;
    devices[at] = other;
  }
  return checked(withDevices(document, devices));
}

/** What a device's form asks besides saving its texts: a step moved up or removed. */
export type StepAction = { kind: "save" } | { kind: "up"; step: number } | { kind: "remove"; step: number };

export function stepActionOf(value: string | undefined): StepAction | null {
  if (value === undefined || value === "save") return { kind: "save" };
  const match = /^(up|remove)-(\d{1,2})$/.exec(value);
  if (match === null) return null;
  return { kind: match[1] === "up" ? "up" : "remove", step: Number(match[2]) };
}

/**
 * A device's form: its name and each step's and the tip's texts in every language (a field left
 * empty is a missing text: a built-in one shows its default there), a new step at the end when one
 * is written, then the action of the button pressed. Steps are matched by their place, which is
 * safe because the draft is the one the page was opened with (its revision was checked).
 */
export function editDevice(document: ContentDocument, id: string, form: GuideForm, action: StepAction): GuideEdited | null {
  const at = document.guide.devices.findIndex((d) => d.id === id);
  const device = document.guide.devices[at];
  if (device === undefined) return null;
  const text = (item: GuideText, prefix: string): GuideText => ({ builtIn: item.builtIn, text: textsOf(form, prefix) });
  const steps = device.steps.map((step, i) => text(step, `steps.${i}`));
  const added = textsOf(form, "new");
  if (hasText(added)) steps.push({ builtIn: null, text: added });
  if (action.kind === "remove" && action.step < steps.length) steps.splice(action.step, 1);
  if (action.kind === "up" && action.step > 0 && action.step < steps.length) {
    const [moved] = steps.splice(action.step, 1);
    if (moved !== undefined) steps.splice(action.step - 1, 0, moved);
  }
  const tipTexts = textsOf(form, "tip");
  const tip: GuideText | null =
    device.tip !== null ? { builtIn: device.tip.builtIn, text: tipTexts } : hasText(tipTexts) ? { builtIn: null, text: tipTexts } : null;
  // An own tip emptied in every language is no tip; a built-in one keeps showing its default.
  const kept = tip !== null && tip.builtIn === null && !hasText(tip.text) ? null : tip;
  const edited: GuideDevice = { id: device.id, title: text(device.title, "title"), steps, tip: kept };
  const devices = [...document.guide.devices];
  devices[at] = edited;
  return checked(withDevices(document, devices));
}

/** The languages in which an own text (no built-in default) is missing: left out of those pages. */
export function missingLocales(item: GuideText): Locale[] {
  if (item.builtIn !== null) return [];
  return LOCALES.filter((locale) => item.text[locale] === undefined);
}

/** Whether the list may take another device, and a device another step. */
export const canAddDevice = (document: ContentDocument) => document.guide.devices.length < LIMITS.guideDevices;
export const canAddStep = (device: GuideDevice) => device.steps.length < LIMITS.guideSteps;
