import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ENGINE_SETTINGS } from "../server/platform/engine-settings";
import { EnvSchema } from "../server/platform/env";
import { ENV_SECTIONS, type EnvDoc, type EnvSection, envDocOf } from "../server/platform/env-doc";

// Writes the owner's configuration reference, docs/owner/configuration.md, from the environment's
// schema and the documentation each variable carries (server/platform/env-doc.ts), so the reference
// lists exactly the variables the server reads, with the defaults it applies.
// `npm run docs:config` writes it; test/server/config-docs.test.ts fails when it is out of date.

export const CONFIGURATION_DOC = "docs/owner/configuration.md";

const WIDTH = 100;

/** Words refilled into lines of at most WIDTH characters (a longer word stays whole). */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    // A line starting with one of these would turn into a list item or a heading.
    const startsBlock = /^([-+*>#]|\d+[.)])$/.test(word);
    if (line !== "" && line.length + 1 + word.length > WIDTH && !startsBlock) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

type Variable = { name: string; doc: EnvDoc; schemaDefault: unknown };

function variables(): Variable[] {
  return Object.entries(EnvSchema.entries).map(([name, schema]) => {
    const doc = envDocOf(schema);
    if (doc === undefined) throw new Error(`${name} has no documentation: wrap its schema in documented() (server/platform/env-doc.ts)`);
    const schemaDefault = v.getDefault(schema);
    if (schemaDefault !== undefined && doc.default !== undefined) {
      throw new Error(`${name} has a default in its schema (${String(schemaDefault)}) and another in its documentation: remove the latter`);
    }
    return { name, doc, schemaDefault };
  });
}

function entry({ name, doc, schemaDefault }: Variable): string {
  const parts = [`### \`${name}\``];
  if (doc.requiredInProduction === true) parts.push("**Required in production.**");
  else if (doc.requiredInProduction !== undefined) parts.push(wrap(`**Required in production:** ${doc.requiredInProduction}.`));
  parts.push(wrap(doc.description));
  const fallback = schemaDefault !== undefined ? `\`${String(schemaDefault)}\`` : doc.default;
  if (fallback !== undefined) parts.push(wrap(`Default: ${fallback}.`));
  return parts.join("\n\n");
}

/** The reference, as `npm run docs:config` writes it. */
export function configurationDoc(): string {
  const all = variables();
  const bySection = (section: EnvSection) => all.filter((variable) => variable.doc.section === section);
  const sections = ENV_SECTIONS.filter((section) => bySection(section).length > 0);
  const contents = sections.map(
    (section) =>
      `- [${section}](#${anchorOf(section)}): ${bySection(section)
        .map(({ name }) => `\`${name}\``)
        .join(", ")}`,
  );
  const megabytes = (value: string) => (/^\d{7,}$/.test(value) ? ` (${Number(value) / 2 ** 20} MB)` : "");
  const settings = Object.entries(ENGINE_SETTINGS).map(([name, value]) => `\`${name}=${value}\`${megabytes(value)}`);
  const engine = `${settings.slice(0, -1).join(", ")} and ${settings.at(-1)}`;
  return `${[
    "# Configuration",
    "<!-- Written by `npm run docs:config` from server/platform/env.ts: edit the descriptions there, not here. -->",
    wrap(
      "Everything is read from the environment once, at start-up, and checked; a bad value stops the server with a message that names the variable (`Invalid configuration: PORT must be a whole number…`). Secrets never reach the browser. An empty value counts as unset. With none set, the site runs on its embedded defaults (see [the owner's manual](README.md)).",
    ),
    wrap(
      "With `NODE_ENV=production` the server refuses to start until every variable marked **Required in production** is set, and names all those missing at once.",
    ),
    contents.map((line) => wrap(line).replace(/\n/g, "\n  ")).join("\n"),
    ...sections.flatMap((section) => [`## ${section}`, ...bySection(section).map(entry)]),
    "## Read by the runtime itself",
    wrap(
      `The server starts its JavaScript engine with ${engine}: its heap sized as on a small server and grown by a tenth at a time, and its last compiler tier off, so each process stays under 100 MB under load ([decision 010](../decisions/010-static-pages-and-processes.md)). Set one in the environment to keep your own value.`,
    ),
    wrap("`START_TRACE=1` prints, on standard error, how long each phase of a start took."),
  ].join("\n\n")}\n`;
}

if (import.meta.main) {
  writeFileSync(join(import.meta.dir, "..", CONFIGURATION_DOC), configurationDoc());
  console.log(`wrote ${CONFIGURATION_DOC}`);
}
