import { CATALOGUE_LIMITS, type CatalogueTitle, kindOf, TITLE_KINDS } from "../../../shared/catalogue";

// The catalogue's file: a header row `name,kind,year,category,poster` and an optional `featured`
// column (yes/no; without it the first 24 rows are featured), one title a row. Read whole before
// anything is stored: a bad row refuses the whole file, and the answer names every bad row (up to
// a screenful) with its field, so the owner fixes the file once.

export const CSV_COLUMNS = ["name", "kind", "year", "category", "poster"] as const;
const OPTIONAL_COLUMNS = ["featured"] as const;

/** A bad row: its line in the file (1 is the header) and what is wrong with which field. */
export type CsvProblem = { row: number; field: string; message: string };

/** A title as the file gives it: the poster still the file's name in the folder. */
export type CsvTitle = Omit<CatalogueTitle, "poster"> & { posterFile: string | null };

/** RFC 4180 fields: quoted fields may hold commas, quotes ("") and line breaks. Null: a quote left open. */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (quoted) return null;
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  // Blank lines (a trailing newline, an empty line between rows) are not titles.
  return rows.filter((r) => !(r.length === 1 && r[0]?.trim() === ""));
}

const YES = new Set(["yes", "y", "true", "1", "oui", "sì", "si", "sí", "x"]);
const NO = new Set(["no", "n", "false", "0", "non", ""]);

/** Quotes a field when it must be (export). */
const csvField = (value: string) => (/[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value);

export function writeCsv(titles: readonly (Omit<CatalogueTitle, "poster"> & { posterFile: string | null })[]): string {
  const lines = [[...CSV_COLUMNS, "featured"].join(",")];
  for (const t of titles)
    lines.push(
      [t.name, t.kind, t.year === null ? "" : String(t.year), t.category, t.posterFile ?? "", t.featured ? "yes" : "no"]
        .map(csvField)
        .join(","),
    );
  return `${lines.join("\n")}\n`;
}

const MAX_PROBLEMS = 50;

/**
 * The file's titles, or every problem found (at most 50, then "…and N more"). `posterExists` says
 * whether a named poster is in the folder (or already uploaded).
 */
export function readCatalogueCsv(
  text: string,
  posterExists: (file: string) => boolean,
  thisYear: number,
): { ok: true; titles: CsvTitle[] } | { ok: false; problems: CsvProblem[]; more: number } {
  const rows = parseCsv(text);
  if (rows === null)
    return { ok: false, problems: [{ row: 0, field: "(the file)", message: 'a quoted field is never closed (")' }], more: 0 };
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const missing = CSV_COLUMNS.filter((c) => !header.includes(c));
  const unknown = header.filter((h) => !CSV_COLUMNS.some((c) => c === h) && !OPTIONAL_COLUMNS.some((c) => c === h));
  if (rows.length === 0 || missing.length > 0 || unknown.length > 0)
    return {
      ok: false,
      problems: [
        {
          row: 1,
          field: "(header)",
          message: `must be name,kind,year,category,poster with an optional featured column${missing.length > 0 ? `; missing: ${missing.join(", ")}` : ""}${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`,
        },
      ],
      more: 0,
    };
  const at = (name: string) => header.indexOf(name);
  const hasFeatured = header.includes("featured");
  const body = rows.slice(1);
  const problems: CsvProblem[] = [];
  let more = 0;
  const problem = (p: CsvProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
    else more++;
  };
  if (body.length === 0) problem({ row: 2, field: "(the file)", message: "has no title: one row per title after the header" });
  if (body.length > CATALOGUE_LIMITS.titles)
    return {
      ok: false,
      problems: [
        { row: CATALOGUE_LIMITS.titles + 2, field: "(the file)", message: `has ${body.length} titles: at most ${CATALOGUE_LIMITS.titles}` },
      ],
      more: 0,
    };
  const titles: CsvTitle[] = [];
  body.forEach((cells, index) => {
    const row = index + 2;
    const cell = (name: string) => (cells[at(name)] ?? "").trim();
    const before = problems.length + more;
    if (cells.length !== header.length) {
      problem({
        row,
        field: "(the row)",
        message: `has ${cells.length} fields, the header ${header.length} (a comma inside a name needs "quotes")`,
      });
      return;
    }
    const name = cell("name");
    if (name === "") problem({ row, field: "name", message: "is empty" });
    else if (name.length > CATALOGUE_LIMITS.name)
      problem({ row, field: "name", message: `is longer than ${CATALOGUE_LIMITS.name} characters` });
    const kind = kindOf(cell("kind"));
    if (kind === null) problem({ row, field: "kind", message: `"${cell("kind").slice(0, 30)}" is not one of ${TITLE_KINDS.join(", ")}` });
    const yearText = cell("year");
    let year: number | null = null;
    if (yearText !== "") {
      year = /^\d{4}$/.test(yearText) ? Number(yearText) : Number.NaN;
      if (!Number.isInteger(year) || year < 1880 || year > thisYear + 2) {
        problem({
          row,
          field: "year",
          message: `"${yearText.slice(0, 12)}" is not a year between 1880 and ${thisYear + 2} (or leave it empty)`,
        });
        year = null;
      }
    }
    const category = cell("category");
    if (category === "") problem({ row, field: "category", message: "is empty" });
    else if (category.length > CATALOGUE_LIMITS.category)
      problem({ row, field: "category", message: `is longer than ${CATALOGUE_LIMITS.category} characters` });
    const posterFile = cell("poster");
    if (posterFile !== "" && (posterFile.includes("/") || posterFile.includes("\\") || posterFile.startsWith(".")))
      problem({ row, field: "poster", message: "must be a file's name in the posters' folder, without a path" });
    else if (posterFile !== "" && !posterExists(posterFile))
      problem({ row, field: "poster", message: `"${posterFile.slice(0, 60)}" is not in the posters' folder` });
    let featured = index < CATALOGUE_LIMITS.featuredByDefault;
    if (hasFeatured) {
      const word = cell("featured").toLowerCase();
      if (YES.has(word)) featured = true;
      else if (NO.has(word)) featured = false;
      else problem({ row, field: "featured", message: `"${word.slice(0, 12)}" must be yes or no` });
    }
    if (problems.length + more === before && kind !== null)
      titles.push({ name, kind, year, category, posterFile: posterFile === "" ? null : posterFile, featured });
  });
  return problems.length + more > 0 ? { ok: false, problems, more } : { ok: true, titles };
}

export function describeProblems(problems: readonly CsvProblem[], more: number): string {
  const lines = problems.map((p) => (p.row === 0 ? `${p.field} ${p.message}` : `row ${p.row}, ${p.field}: ${p.message}`));
  if (more > 0) lines.push(`…and ${more} more`);
  return lines.join("\n");
}
