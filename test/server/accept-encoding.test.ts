import { expect, test } from "bun:test";
import { pickEncoding } from "../../server/platform/http/accept-encoding";

test("brotli is preferred, then gzip, honouring q-values", () => {
  expect(pickEncoding("gzip, deflate, br")).toBe("br");
  expect(pickEncoding("gzip")).toBe("gzip");
  expect(pickEncoding("br;q=0, gzip")).toBe("gzip");
  expect(pickEncoding("br;q=0, gzip;q=0")).toBeNull();
  expect(pickEncoding("*")).toBe("br");
  expect(pickEncoding("*;q=0, gzip;q=0.5")).toBe("gzip");
  expect(pickEncoding("identity")).toBeNull();
  expect(pickEncoding("")).toBeNull();
  expect(pickEncoding(null)).toBeNull();
});
