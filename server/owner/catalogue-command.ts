import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { Db } from "../../db/client";
import type { Write } from "../../db/writer";
import { describeProblems, writeCsv } from "../site/catalogue/csv";
import { readMediaFilesOf, readMediaInfo } from "../site/catalogue/media";
import { CatalogueRefused, importCatalogue, readTitles } from "../site/catalogue/store";
import { readPublished } from "../site/content/store";
import { counted } from "./counted";

// `site catalogue import titles.csv posters/` and `site catalogue export DIR`: the catalogue kept
// as files an owner can edit and keep in version control. An import is a publish like the
// console's (history, every server process within about a second); export then import gives the
// same catalogue back.

/** The pictures of a folder, by file name (not its subfolders: the CSV names files, not paths). */
function readPosterFolder(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    files.set(name, new Uint8Array(readFileSync(path)));
  }
  return files;
}

export async function catalogueImportCommand(
  db: Db,
  write: Write,
  args: string[],
  usage: string,
  out: (line: string) => void,
  err: (line: string) => void,
  now: () => Date,
): Promise<number> {
  const [csvPath, postersDir] = args;
  if (csvPath === undefined || args.length > 2) {
    err(`catalogue import needs the CSV file, and the posters' folder when rows name posters: ${usage}`);
    return 2;
  }
  if (!existsSync(csvPath)) {
    err(`${csvPath}: no such file`);
    return 2;
  }
  if (postersDir !== undefined && (!existsSync(postersDir) || !statSync(postersDir).isDirectory())) {
    err(`${postersDir}: not a folder (give the folder that holds the posters the CSV names)`);
    return 2;
  }
  const posters = postersDir === undefined ? new Map<string, Uint8Array>() : readPosterFolder(postersDir);
  const started = performance.now();
  try {
    const result = await importCatalogue({
      db,
      write,
      csv: readFileSync(csvPath, "utf8"),
      posters,
      by: "command line",
      now: now(),
      // A large import converts for minutes (about a quarter of a second a poster): say how far it is.
      onProgress: (done, total) => {
        if (done % 10 === 0 || done === total) out(`${done} of ${counted(total, "poster", "posters")} converted\n`);
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    out(
      `Published version ${result.version}: ${counted(result.titles, "title", "titles")}, ${counted(result.postersConverted, "poster", "posters")} converted (${seconds} s). Every server process shows it within about a second.\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CatalogueRefused)) throw error;
    err(`${csvPath} was refused; nothing changed:\n${describeProblems(error.problems, error.more)}`);
    return 1;
  }
}

export function catalogueExportCommand(
  db: Db,
  args: string[],
  usage: string,
  out: (line: string) => void,
  err: (line: string) => void,
): number {
  const [dir] = args;
  if (dir === undefined || args.length > 1) {
    err(`catalogue export needs the folder to write to: ${usage}`);
    return 2;
  }
  const set = readPublished(db).document.catalogue.set;
  const titles = set === null ? [] : readTitles(db, set);
  mkdirSync(join(dir, "posters"), { recursive: true });
  const ids = [...new Set(titles.flatMap((t) => (t.poster === null ? [] : [t.poster])))];
  const info = readMediaInfo(db, ids);
  // Each poster as its largest JPEG, under its uploaded name (made .jpg): importing the export
  // again gives the same catalogue.
  const fileOf = new Map<string, string>();
  const used = new Set<string>();
  for (const id of ids) {
    const medium = info.get(id);
    const jpeg = readMediaFilesOf(db, id)
      .filter((f) => f.contentType === "image/jpeg")
      .sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0];
    if (medium === undefined || jpeg === undefined) continue;
    const stem = basename(medium.name, extname(medium.name)).replace(/[^\w.-]/g, "_") || id;
    let name = `${stem}.jpg`;
    if (used.has(name)) name = `${stem}-${id}.jpg`;
    used.add(name);
    writeFileSync(join(dir, "posters", name), jpeg.bytes);
    fileOf.set(id, name);
  }
  writeFileSync(
    join(dir, "titles.csv"),
    writeCsv(titles.map((t) => ({ ...t, posterFile: t.poster === null ? null : (fileOf.get(t.poster) ?? null) }))),
  );
  out(
    `${join(dir, "titles.csv")}: ${counted(titles.length, "title", "titles")}; ${join(dir, "posters")}: ${counted(fileOf.size, "poster", "posters")}.\n`,
  );
  return 0;
}
