import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownerActivity } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { listVersions } from "../../server/site/content/store";
import { createTestSite, type TestSite } from "../support/app";
import { catalogueCsv, posterJpeg, posterPng } from "./fixtures";

// The command line's import and export, on the same data folder as a running site: the site
// sees the command's publish (its content follows the database).

let site: TestSite;
let work: string;

beforeAll(async () => {
  site = await createTestSite();
  work = mkdtempSync(join(tmpdir(), "catalogue-cli-"));
  mkdirSync(join(work, "posters"));
  writeFileSync(join(work, "posters", "one.png"), await posterPng(300, 450, "#113355"));
  writeFileSync(join(work, "posters", "two.jpg"), await posterJpeg(300, 450, "#553311"));
});
afterAll(() => site.close());

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(
    argv,
    site.config,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  // `stdout` as the terminal shows it: the executable writes each chunk as given (server/main.ts).
  return { code, out: out.join("\n"), stdout: out.join(""), err: err.join("\n") };
};

test("a bad file is refused naming its rows, and nothing is published", async () => {
  const before = listVersions(site.db).length;
  writeFileSync(join(work, "bad.csv"), "name,kind,year,category,poster\nOk,film,2000,Drame,one.png\nBad,film,year,Drame,nope.png\n");
  const result = await run("catalogue", "import", join(work, "bad.csv"), join(work, "posters"));
  expect(result.code).toBe(1);
  expect(result.err).toContain("nothing changed");
  expect(result.err).toContain("row 3, year:");
  expect(result.err).toContain('row 3, poster: "nope.png" is not in the posters\' folder');
  expect(listVersions(site.db).length).toBe(before);
});

test("import publishes; export writes the import's format; importing the export gives the same catalogue", async () => {
  writeFileSync(join(work, "titles.csv"), catalogueCsv(40, ["one.png", "two.jpg"]));
  const imported = await run("catalogue", "import", join(work, "titles.csv"), join(work, "posters"));
  expect(imported.err).toBe("");
  expect(imported.code).toBe(0);
  expect(imported.out).toContain("40 titles, 2 posters converted");
  // The owner sees the conversion's progress while it runs.
  expect(imported.stdout).toContain("2 of 2 posters converted\n");
  // Its line is ended: the shell's prompt comes on a line of its own.
  expect(imported.stdout).toEndWith("second.\n");
  site.content.refresh();
  const page = await (await site.request("/en/catalogue")).text();
  expect(page).toContain("40 titles in the catalogue");
  const latest = listVersions(site.db)[0];
  expect(latest?.publishedBy).toBe("command line");
  // The owner's activity log has it, from the command line, naming the version it published.
  const logged = site.db.select().from(ownerActivity).all().at(-1);
  expect(logged).toMatchObject({ action: "catalogue-imported", detail: `version ${latest?.version}`, sessionId: null });

  const out = join(work, "export");
  const exported = await run("catalogue", "export", out);
  expect(exported.code).toBe(0);
  expect(exported.stdout).toEndWith("2 posters.\n");
  const csv = readFileSync(join(out, "titles.csv"), "utf8");
  expect(csv.split("\n")[0]).toBe("name,kind,year,category,poster,featured");
  expect(csv).toContain('"Amélie, la suite",channel,1993,Science-fiction,two.jpg,yes');
  expect(readdirSync(join(out, "posters")).sort()).toEqual(["one.jpg", "two.jpg"]);

  const again = await run("catalogue", "import", join(out, "titles.csv"), join(out, "posters"));
  expect(again.code).toBe(0);
  site.content.refresh();
  const pageAgain = await (await site.request("/en/catalogue")).text();
  // The same titles, in the same order, with posters.
  const names = (html: string) => [...html.matchAll(/class="title-list__name">([^<]+)</g)].map((m) => m[1]);
  expect(names(pageAgain)).toEqual(names(page));
  expect(pageAgain.match(/title-list__poster/g)?.length).toBe(40);
});

test("usage errors say how the command is called", async () => {
  const result = await run("catalogue", "import");
  expect(result.code).toBe(2);
  expect(result.err).toContain("site catalogue import TITLES.CSV [POSTERS_DIR]");
});
