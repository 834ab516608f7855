import { expect, test } from "bun:test";
import { csvCell, isExportName } from "../../server/owner/export-csv";

test("only the three tables are export names, not inherited object keys", () => {
  expect(["leads", "orders", "chats"].every(isExportName)).toBe(true);
  for (const name of ["constructor", "toString", "__proto__", "users", undefined]) expect(isExportName(name)).toBe(false);
});

test("CSV cells are quoted when needed and formulas from visitors are neutralised", () => {
  expect(csvCell("plain")).toBe("plain");
  expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
  expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
  expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
  expect(csvCell(null)).toBe("");
  expect(csvCell(2999)).toBe("2999");
});
