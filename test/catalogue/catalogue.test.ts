import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CatalogueRefused, importCatalogue, latestSet } from "../../server/site/catalogue/store";
import { readVersion } from "../../server/site/content/store";
import { createTestSite, type TestSite } from "../support/app";
import { catalogueCsv, posterJpeg, posterPng } from "./fixtures";

let site: TestSite;
let posters: Map<string, Uint8Array>;

beforeAll(async () => {
  site = await createTestSite();
  posters = new Map([
    ["a.png", await posterPng(300, 450, "#224466")],
    ["b.jpg", await posterJpeg(400, 600, "#664422")],
    ["c.png", await posterPng(200, 300, "#446622")],
  ]);
});
afterAll(() => site.close());

const importNow = (csv: string, files = posters) =>
  importCatalogue({ db: site.db, write: site.write, csv, posters: files, by: "test", now: new Date() });

describe("catalogue import", () => {
  test("a bad row refuses the whole file, names each bad row and field, and changes nothing", async () => {
    const before = site.content.current().version;
    const csv = [
      "name,kind,year,category,poster",
      "Good one,film,2001,Drame,a.png",
      ",film,2001,Drame,a.png",
      "Odd kind,spaceship,2001,Drame,",
      "Bad year,film,20x1,Drame,",
      "No poster,film,2001,Drame,missing.png",
    ].join("\n");
    const error = await importNow(csv).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogueRefused);
    if (!(error instanceof CatalogueRefused)) return;
    expect(error.problems.map((p) => [p.row, p.field])).toEqual([
      [3, "name"],
      [4, "kind"],
      [5, "year"],
      [6, "poster"],
    ]);
    expect(latestSet(site.db)).toBeNull();
    site.content.refresh();
    expect(site.content.current().version).toBe(before);
  });

  test("a wrong header is refused with the expected header named", async () => {
    const error = await importNow("title,type\nX,film\n").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogueRefused);
    if (error instanceof CatalogueRefused) expect(error.problems[0]?.message).toContain("name,kind,year,category,poster");
  });

  test("a poster that is not a picture refuses the file, naming its row", async () => {
    const files = new Map(posters);
    files.set("fake.png", new TextEncoder().encode("MZ this is an executable, renamed"));
    const error = await importNow("name,kind,year,category,poster\nOne,film,2000,Drame,a.png\nTwo,film,2000,Drame,fake.png\n", files).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogueRefused);
    if (error instanceof CatalogueRefused)
      expect(error.problems).toEqual([{ row: 3, field: "poster", message: expect.stringContaining("is not a picture") }]);
    expect(latestSet(site.db)).toBeNull();
  });

  test("an import publishes a version; the landing page shows the wall, the catalogue page lists and searches", async () => {
    const result = await importNow(catalogueCsv(130, ["a.png", "b.jpg", "c.png"]));
    expect(result.titles).toBe(130);
    expect(result.postersConverted).toBe(3);
    const version = readVersion(site.db, result.version);
    expect(version?.changes).toContain("catalogue.set");
    expect(site.content.refresh()).toBe(true);

    for (const [path, heading] of [
      ["/", "Ce que vous regarderez"],
      ["/en", "What you will watch"],
      ["/it", "Cosa guarderai"],
      ["/es", "Lo que verás"],
    ] as const) {
      const html = await (await site.request(path)).text();
      expect(html).toContain(heading);
      // 24 featured by default (no featured column), each with AVIF and WebP sources at two widths.
      expect(html.match(/class="poster-card"/g)?.length).toBe(24);
      expect(html).toMatch(
        /<source type="image\/avif" srcSet="\/media\/[0-9a-f]{16}-160\.avif 160w, \/media\/[0-9a-f]{16}-320\.avif 320w"/,
      );
    }

    const page = await (await site.request("/en/catalogue")).text();
    expect(page).toContain("130 titles in the catalogue");
    expect(page).toContain("Page 1 of 2");
    const found = await (await site.request("/en/catalogue?q=amelie")).text();
    expect(found).toContain("1 title matches");
    expect(found).toContain("Amélie, la suite");
    const byCategory = await (await site.request(`/catalogue?category=${encodeURIComponent("Comédie")}`)).text();
    expect(byCategory).toContain("26 titres correspondent");
    const nothing = await (await site.request("/catalogue?q=zzzz")).text();
    expect(nothing).toContain("Aucun titre ne correspond");
    const page2 = await (await site.request("/en/catalogue?page=2")).text();
    expect(page2).toContain("Titre 0130");
    expect(page2).toContain("Page 2 of 2");
  });

  test("media are served with their type, a year's cache and 304s", async () => {
    const html = await (await site.request("/")).text();
    const avif = html.match(/\/media\/[0-9a-f]{16}-320\.avif/)?.[0];
    const jpg = html.match(/\/media\/[0-9a-f]{16}-320\.jpg/)?.[0];
    expect(avif).toBeDefined();
    expect(jpg).toBeDefined();
    const response = await site.request(avif ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/avif");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(4, 12))).toBe("ftypavif");
    const again = await site.request(avif ?? "", { headers: { "if-none-match": response.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    expect((await site.request(jpg ?? "")).headers.get("content-type")).toBe("image/jpeg");
    expect((await site.request("/media/0123456789abcdef-320.avif")).status).toBe(404);
    expect((await site.request("/media/..%2Fsite.db")).status).toBe(404);
  });

  test("a featured column picks the wall; a new import replaces the catalogue", async () => {
    await importNow(catalogueCsv(10, ["a.png"], true));
    site.content.refresh();
    const html = await (await site.request("/en")).text();
    expect(html.match(/class="poster-card"/g)?.length).toBe(5);
    expect(html).toContain("10 titles in the catalogue");
  });
});
