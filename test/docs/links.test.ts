import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The README is short and points into docs/; the owner's manual and the feature docs point at each
// other's sections. A file moved or a heading renamed must not leave a reader on a dead link.

const root = resolve(import.meta.dir, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** The text without its fenced code blocks, where `#` starts a comment and brackets are not links. */
const withoutCode = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

/** The anchors GitHub gives a file's headings (lower case, punctuation dropped, spaces as hyphens, repeats numbered). */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ""] of withoutCode(readFileSync(path, "utf8")).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

test("every link of the README and docs/ leads to a file that exists, and to a heading it has", () => {
  const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];
  expect(files.length).toBeGreaterThan(10);
  const dead: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const [, target = ""] of withoutCode(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      checked++;
      const [path = "", anchor] = target.split("#");
      const destination = path === "" ? file : resolve(dirname(file), path);
      const where = `${relative(root, file)}: ${target}`;
      if (!existsSync(destination)) dead.push(`${where} (no such file)`);
      else if (anchor !== undefined && !anchors(destination).has(anchor)) dead.push(`${where} (no such heading)`);
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(dead).toEqual([]);
});

test("the README stays short: the two commands first, then where to read on", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const lines = readme.split("\n");
  expect(lines.length).toBeLessThan(80);
  expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(110);
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(firstBlock).toContain("npm install && npm start");
  expect(firstBlock).toContain("npm install && npm test");
  for (const target of ["docs/owner/README.md", "docs/developing.md", "docs/owner/configuration.md"]) {
    expect(readme).toContain(`](${target})`);
  }
});
