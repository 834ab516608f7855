import { afterEach, expect, test } from "bun:test";
import * as v from "valibot";
import { runCommand } from "../../server/owner/cli";
import { loadPlaceNames } from "../../server/shop/social-proof/places";
import { SocialProofResponseSchema } from "../../shared/schemas/social-proof";
import { createTestSite, type TestSite } from "../support/app";
import { seedOrder } from "./seed-orders";

// Buyers type their city, and the purchase toast shows it to every visitor: only a real place (on
// the list shipped with the site) or one the owner approved is shown; otherwise the initial alone.

const NOW = new Date("2025-06-01T12:00:00Z");
const minutesBefore = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

let site: TestSite | undefined;
afterEach(() => site?.close());

const entries = async (s: TestSite) =>
  v
    .parse(SocialProofResponseSchema, await (await s.request("/api/social-proof")).json())
    .entries.map(({ initial, city }) => ({ initial, city }));

// Standard output as the terminal shows it: the executable writes each chunk as it is given
// (server/main.ts), so a line without its own "\n" would run into the next one or the prompt.
const owner = async (s: TestSite, ...argv: string[]) => {
  const out: string[] = [];
  const code = await runCommand(
    argv,
    s.config,
    (chunk) => out.push(chunk),
    () => {},
  );
  return { code, out: out.join("") };
};

test("the shipped list knows the towns and cities of France, Italy, Spain and the rest of Europe, in their own spellings", () => {
  const places = loadPlaceNames();
  const real = [
    "Lyon",
    "Saint-Étienne",
    "SAINT ETIENNE",
    "Milano",
    "Milan",
    "Roma",
    "Napoli",
    "Sevilla",
    "A Coruña",
    "L'Hospitalet de Llobregat",
  ];
  const moreReal = ["München", "Köln", "Bruxelles", "Lisboa", "Kraków", "Göteborg", "Wien", "Genève", "Zürich", "Vila Nova de Gaia"];
  for (const city of [...real, ...moreReal]) expect({ city, known: places.has(city) }).toEqual({ city, known: true });
  for (const words of ["Scam Site Avoid", "Buy Now", "Free Money", "asdfgh", "Lyon Paris Marseille"])
    expect({ words, known: places.has(words) }).toEqual({ words, known: false });
});

test("a city that is not a real place is left out of the toast: the buyer's initial alone", async () => {
  site = await createTestSite({ now: () => NOW });
  seedOrder(site.db, { firstName: "Sam", city: "Scam Site Avoid", paidAt: minutesBefore(2) });
  seedOrder(site.db, { firstName: "Giulia", city: "Milano", paidAt: minutesBefore(5) });
  seedOrder(site.db, { firstName: "Ana", city: "sevilla", paidAt: minutesBefore(9) });
  expect(await entries(site)).toEqual([
    { initial: "S.", city: null },
    { initial: "G.", city: "Milano" },
    { initial: "A.", city: "sevilla" },
  ]);
  expect(JSON.stringify(await entries(site))).not.toContain("Scam");
});

test("the owner lists the cities left out, approves a village, and the toast shows it from then on", async () => {
  site = await createTestSite({ now: () => new Date() });
  seedOrder(site.db, { firstName: "Lou", city: "Trifouilly-les-Oies", paidAt: new Date(Date.now() - 60_000) });
  seedOrder(site.db, { firstName: "Max", city: "Lyon", paidAt: new Date(Date.now() - 120_000) });
  seedOrder(site.db, { firstName: "Zoé", city: "Pouilly-sur-Rien", paidAt: new Date(Date.now() - 180_000) });
  expect(await entries(site)).toEqual([
    { initial: "L.", city: null },
    { initial: "M.", city: "Lyon" },
    { initial: "Z.", city: null },
  ]);

  const pending = await owner(site, "places", "pending");
  expect(pending.code).toBe(0);
  // One order a line, each line ended, as the owner reads them on a terminal.
  expect(pending.out).toMatch(/^\d+\tTrifouilly-les-Oies\n\d+\tPouilly-sur-Rien\n$/);

  expect(await owner(site, "places", "approve", "Trifouilly les Oies")).toEqual({ code: 0, out: "Approved: Trifouilly les Oies\n" });
  expect(await entries(site)).toEqual([
    { initial: "L.", city: "Trifouilly-les-Oies" },
    { initial: "M.", city: "Lyon" },
    { initial: "Z.", city: null },
  ]);
  expect((await owner(site, "places", "pending")).out).not.toContain("Trifouilly");

  expect((await owner(site, "places", "revoke", "Trifouilly-les-Oies")).out).toBe("No longer approved: Trifouilly-les-Oies\n");
  expect((await entries(site))[0]).toEqual({ initial: "L.", city: null });
  expect((await owner(site, "places", "approve")).code).toBe(2);
});
