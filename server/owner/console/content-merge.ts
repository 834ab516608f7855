import * as v from "valibot";
import { CONTENT_SECTIONS, type ContentDocument, ContentDocumentSchema, type ContentSectionId } from "../../../shared/content";

// Two tabs (or two owners) editing the draft at once: a form saved after the draft changed is
// merged field by field with what changed meanwhile, against the draft as the form was opened
// (its "base", carried in the form). A field only this form changed is applied, a field only the
// other change touched is kept, and a field both changed differently is a conflict: nothing is
// saved and the owner sees both values. Nothing typed in either tab is ever silently undone.

/** The part of the draft one form edits (the offer, a section's texts, one FAQ entry, the comparison). */
export type FormPart =
  | { kind: "offer" }
  | { kind: "texts"; section: ContentSectionId }
  | { kind: "faq"; id: string }
  | { kind: "comparison" };

/** The part of a document a form edits, as the form carries it (JSON). */
export function partOf(document: ContentDocument, part: FormPart): unknown {
  switch (part.kind) {
    case "offer":
      return document.offer;
    case "comparison":
      return document.comparison;
    case "faq":
      return document.faq.find((e) => e.id === part.id) ?? null;
    case "texts": {
      const keys = CONTENT_SECTIONS.find((s) => s.id === part.section)?.keys ?? [];
      return Object.fromEntries(keys.flatMap((key) => (document.texts[key] === undefined ? [] : [[key, document.texts[key]]])));
    }
  }
}

/**
 * `document` with its part replaced by `base` (the part as the form was opened), checked whole;
 * null when `base` is not one (a form that does not come from our page).
 */
export function withBase(document: ContentDocument, part: FormPart, base: unknown): ContentDocument | null {
  const candidate = ((): unknown => {
    switch (part.kind) {
      case "offer":
        return { ...document, offer: base };
      case "comparison":
        return { ...document, comparison: base };
      case "faq": {
        const others = document.faq.filter((e) => e.id !== part.id);
        const index = document.faq.findIndex((e) => e.id === part.id);
        if (base === null) return { ...document, faq: others };
        const faq: unknown[] = [...others];
        faq.splice(index === -1 ? others.length : index, 0, base);
        return { ...document, faq };
      }
      case "texts": {
        if (!isRecord(base)) return null;
        const keys: readonly string[] = CONTENT_SECTIONS.find((s) => s.id === part.section)?.keys ?? [];
        if (Object.keys(base).some((key) => !keys.includes(key))) return null;
        const texts: Record<string, unknown> = { ...document.texts };
        for (const key of keys) delete texts[key];
        return { ...document, texts: { ...texts, ...base } };
      }
    }
  })();
  // The base is the owner's own page's, but it came back from a browser: checked like any input.
  const parsed = v.safeParse(ContentDocumentSchema, candidate);
  return parsed.success ? parsed.output : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A field of the content, as a path of steps (an FAQ entry is named by its id, not its place). */
type Leaf = { steps: string[]; value: string | undefined };

/** Every field of a document, by path: the FAQ's entries by id (and their order as one field), other lists whole. */
function leaves(document: ContentDocument): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const put = (steps: string[], value: unknown) => out.set(JSON.stringify(steps), { steps, value: JSON.stringify(value) });
  const walk = (steps: string[], value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value)) walk([...steps, key], inner);
    else put(steps, value);
  };
  for (const [key, value] of Object.entries(document)) {
    if (key === "faq") {
      put(
        ["faq", "#order"],
        document.faq.map((e) => e.id),
      );
      for (const entry of document.faq) walk(["faq", `#${entry.id}`], entry);
    } else walk([key], value);
  }
  return out;
}

const parse = (json: string | undefined): unknown => (json === undefined ? undefined : JSON.parse(json));

/** A field that differs between two documents: its steps, and its value before and after (undefined: absent). */
export type FieldChange = { steps: string[]; before: unknown; after: unknown };

/** Every field that differs from `before` to `after`, in the document's order. */
export function fieldChanges(before: ContentDocument, after: ContentDocument): FieldChange[] {
  const [b, a] = [leaves(before), leaves(after)];
  const changes: FieldChange[] = [];
  for (const key of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(key)?.value;
    const now = a.get(key)?.value;
    if (was === now) continue;
    changes.push({ steps: (a.get(key) ?? b.get(key))?.steps ?? [], before: parse(was), after: parse(now) });
  }
  return changes;
}

export type Conflict = {
  /** The field as the console's problems name it (`offer.priceMinor`, `texts.heroTitle.fr`, `faq[5].question.fr`). */
  path: string;
  /** The last step's name (`priceMinor`, `fr`), to format the values. */
  field: string;
  mine: unknown;
  theirs: unknown;
};

/** A merge whose result is not a valid document (never expected): the owner is asked to save again. */
const unmergeable: Conflict[] = [{ path: "", field: "", mine: null, theirs: null }];

export type Merged = { document: ContentDocument; conflicts: Conflict[] };

/** Sets (or, for undefined, removes) the field at `steps` in a plain copy of a document. */
function setAt(root: Record<string, unknown>, steps: string[], value: unknown) {
  if (steps[0] === "faq" && Array.isArray(root.faq)) {
    const faq: unknown[] = root.faq;
    const idOf = (entry: unknown) => (isRecord(entry) ? String(entry.id) : "");
    if (steps[1] === "#order") {
      const order: unknown[] = Array.isArray(value) ? value : [];
      faq.sort((a, b) => order.indexOf(idOf(a)) - order.indexOf(idOf(b)));
      return;
    }
    const id = (steps[1] ?? "").slice(1);
    let entry = faq.find((e) => idOf(e) === id);
    if (!isRecord(entry)) {
      entry = { id };
      faq.push(entry);
    }
    if (isRecord(entry)) setAt(entry, steps.slice(2), value);
    return;
  }
  let node = root;
  for (const step of steps.slice(0, -1)) {
    const next = node[step];
    const inner = isRecord(next) ? next : {};
    node[step] = inner;
    node = inner;
  }
  const last = steps.at(-1) ?? "";
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/**
 * Three-way merge of a form's document (`mine`: the form applied to `base`) into the current
 * draft (`theirs`). `preferMine`: the conflicting fields take this form's value (what the page
 * shows the owner again, with the conflicts named); otherwise they keep the current draft's.
 */
export function mergeDocuments(base: ContentDocument, mine: ContentDocument, theirs: ContentDocument, preferMine = false): Merged {
  const [b, m, t] = [leaves(base), leaves(mine), leaves(theirs)];
  const merged: Record<string, unknown> = structuredClone(theirs);
  const conflicts: Conflict[] = [];
  const later: [string[], unknown][] = [];
  for (const key of new Set([...b.keys(), ...m.keys()])) {
    const steps = (m.get(key) ?? b.get(key))?.steps ?? [];
    const [was, now, other] = [b.get(key)?.value, m.get(key)?.value, t.get(key)?.value];
    if (now === was || now === other) continue;
    if (other !== was) {
      conflicts.push({ path: displayPath(steps, theirs), field: steps.at(-1) ?? "", mine: parse(now), theirs: parse(other) });
      if (!preferMine) continue;
    }
    // The order of the FAQ after the entries it names exist.
    if (steps[1] === "#order") later.push([steps, parse(now)]);
    else setAt(merged, steps, parse(now));
  }
  for (const [steps, value] of later) setAt(merged, steps, value);
  // Each field came from a checked document; the whole is checked again as one.
  const parsed = v.safeParse(ContentDocumentSchema, merged);
  return { document: parsed.success ? parsed.output : theirs, conflicts: parsed.success ? conflicts : [...conflicts, ...unmergeable] };
}

/** A field's path as the console's forms name it: an FAQ entry by its place in the draft. */
function displayPath(steps: string[], document: ContentDocument): string {
  if (steps[0] !== "faq") return steps.join(".");
  if (steps[1] === "#order") return "faq";
  const index = document.faq.findIndex((e) => `#${e.id}` === steps[1]);
  return [`faq[${index === -1 ? document.faq.length : index}]`, ...steps.slice(2)].join(".");
}
