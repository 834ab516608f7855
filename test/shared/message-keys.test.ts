import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

// Message keys are typed (shared/i18n.ts MessageKey): a misspelt key fails the typecheck, also one
// built from a template string, and so does a key an island component did not declare. Proven by
// compiling a file of deliberate typos with the project's compiler settings.

const ROOT = join(import.meta.dir, "..", "..");
const FIXTURE = join(ROOT, "test", "fixtures", "message-key-typos.tsx");

test("a misspelt message key fails the typecheck with the expected error, and only the misspelt ones do", () => {
  const expected = readFileSync(FIXTURE, "utf8")
    .split("\n")
    .flatMap((line, i) => {
      const code = /\/\/ typo (TS\d+)/.exec(line)?.[1];
      return code === undefined ? [] : [`${i + 1} ${code}`];
    });
  expect(expected.length).toBe(5);

  // The compiler in this process, with the project's settings, asked for the fixture's errors only:
  // the files it imports are read for their types, not checked whole (`tsc --noEmit` does that), so
  // this costs a few seconds rather than checking every file the fixture reaches.
  const configFile = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
  expect(configFile.error).toBeUndefined();
  const { options, errors: configErrors } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  expect(configErrors).toEqual([]);
  // Without Bun's global types (tsconfig's `types`): nothing the fixture reaches needs them, and
  // the compiler then reads 113 files instead of 269 (a third less CPU for the same errors).
  const program = ts.createProgram({ rootNames: [FIXTURE], options: { ...options, types: [] } });
  const fixture = program.getSourceFile(FIXTURE);
  if (fixture === undefined) throw new Error("the fixture was not compiled");

  const describe = (d: ts.Diagnostic) =>
    `${d.file === undefined ? "" : `${d.file.fileName}: `}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  // Settings or global types that do not load would hide the typos behind other errors.
  expect([...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(describe)).toEqual([]);
  const diagnostics = [...program.getSyntacticDiagnostics(fixture), ...program.getSemanticDiagnostics(fixture)];
  const errors = diagnostics.map((d) => `${fixture.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} TS${d.code}`);
  expect(errors).toEqual(expected);
  // What the compiler says about the misspelt title: the real key, as `tsc` would print it.
  expect(diagnostics.map(describe).join("\n")).toContain(`Did you mean '"meta.title"'?`);
}, 120_000);
