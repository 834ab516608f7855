import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestSite, sharedAssets, type TestSite } from "../support/app";

// Pages and static files answer a conditional GET the same way (RFC 9110 §13.1.2): `*`, a list of
// ETags, and a weak `W/` validator a proxy made from the strong one all count; each encoding of a
// body is its own representation with its own ETag.

let site: TestSite;
let css: string;
let js: string;
beforeAll(async () => {
  site = await createTestSite();
  ({ css, js } = (await sharedAssets()).urls);
});
afterAll(() => site.close());

const ENCODINGS = ["br", "gzip", null] as const;
const withEncoding = (encoding: string | null, extra: Record<string, string> = {}) =>
  encoding === null ? extra : { "accept-encoding": encoding, ...extra };

/** A page and the static files big enough to be sent compressed. */
const targets = () => [
  { what: "page", path: "/en/paiement" },
  { what: "stylesheet", path: css },
  { what: "script", path: js },
];

test("pages and static files each have a distinct ETag per encoding, and send the body of that encoding", async () => {
  for (const { what, path } of targets()) {
    const etags = new Set<string>();
    for (const encoding of ENCODINGS) {
      const response = await site.request(path, { headers: withEncoding(encoding) });
      expect({ what, encoding, status: response.status }).toEqual({ what, encoding, status: 200 });
      expect({ what, encoding, sent: response.headers.get("content-encoding") }).toEqual({ what, encoding, sent: encoding });
      etags.add(response.headers.get("etag") ?? "");
    }
    expect({ what, distinct: etags.size }).toEqual({ what, distinct: ENCODINGS.length });
  }
});

test("a weak W/ form of the ETag, a list naming it, and * all answer 304 for pages and static files", async () => {
  for (const { what, path } of targets()) {
    for (const encoding of ENCODINGS) {
      const etag = (await site.request(path, { headers: withEncoding(encoding) })).headers.get("etag") ?? "";
      for (const condition of [etag, `W/${etag}`, `"old-one", ${etag}`, `"a",W/${etag} , "b"`, "*"]) {
        const response = await site.request(path, { headers: withEncoding(encoding, { "if-none-match": condition }) });
        expect({ what, encoding, condition, status: response.status }).toEqual({ what, encoding, condition, status: 304 });
        expect(response.headers.get("etag")).toBe(etag);
        expect((await response.arrayBuffer()).byteLength).toBe(0);
      }
    }
  }
});

test("an ETag of another encoding or another version gets the whole body again", async () => {
  for (const { what, path } of targets()) {
    const br = (await site.request(path, { headers: withEncoding("br") })).headers.get("etag") ?? "";
    const gzip = await site.request(path, { headers: withEncoding("gzip", { "if-none-match": `${br}, W/${br}` }) });
    expect({ what, status: gzip.status, encoding: gzip.headers.get("content-encoding") }).toEqual({ what, status: 200, encoding: "gzip" });
    const stale = await site.request(path, { headers: withEncoding("br", { "if-none-match": '"not-this-one", W/"nor-this"' }) });
    expect({ what, status: stale.status }).toEqual({ what, status: 200 });
    expect((await stale.arrayBuffer()).byteLength).toBeGreaterThan(0);
  }
});

test("a byte range of the demo video carries the ETag of the file itself and answers 304 when it matches", async () => {
  const whole = await site.request("/demo-video.mp4");
  const etag = whole.headers.get("etag") ?? "";
  const part = await site.request("/demo-video.mp4", { headers: { range: "bytes=0-99", "accept-encoding": "br" } });
  expect(part.status).toBe(206);
  expect(part.headers.get("etag")).toBe(etag);
  const unchanged = await site.request("/demo-video.mp4", { headers: { range: "bytes=0-99", "if-none-match": `W/${etag}` } });
  expect(unchanged.status).toBe(304);
});
