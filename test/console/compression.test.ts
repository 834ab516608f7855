import { expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createTestSite } from "../support/app";
import { ownerCookie } from "./owner";

const english = { "accept-language": "en-GB,en;q=0.8" };

test("console pages are sent brotli-compressed, else gzip, else as they are, with Vary: Accept-Encoding and never stored", async () => {
  const site = await createTestSite();
  try {
    const br = await site.request("/admin/sign-in", { headers: { ...english, "accept-encoding": "gzip, deflate, br" } });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("cache-control")).toBe("no-store");
    expect(br.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const brBytes = new Uint8Array(await br.arrayBuffer());
    const page = brotliDecompressSync(brBytes).toString("utf8");
    expect(page).toContain("Sign in with a passkey");
    expect(brBytes.byteLength).toBeLessThan(page.length / 2);

    const gzip = await site.request("/admin/sign-in", { headers: { ...english, "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString("utf8")).toBe(page);

    const plain = await site.request("/admin/sign-in", { headers: english });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(await plain.text()).toBe(page);
  } finally {
    await site.close();
  }
});

test("a signed-in owner's pages, refusals and JSON answers are compressed too", async () => {
  const site = await createTestSite();
  try {
    const accept = { ...english, "accept-encoding": "br" };
    const cookie = await ownerCookie(site);
    const overview = await site.request("/admin", { headers: { ...accept, cookie } });
    expect(overview.status).toBe(200);
    expect(overview.headers.get("content-encoding")).toBe("br");
    expect(overview.headers.get("cache-control")).toBe("no-store");
    expect(brotliDecompressSync(new Uint8Array(await overview.arrayBuffer())).toString("utf8")).toContain("Net revenue, last 30 days");

    const missing = await site.request("/admin/orders/999", { headers: { ...accept, cookie } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(new Uint8Array(await missing.arrayBuffer())).toString("utf8")).toContain("No such order");

    const options = await site.request("/admin/api/sign-in/options", { method: "POST", headers: accept });
    expect(options.headers.get("content-encoding")).toBe("br");
    const json = JSON.parse(brotliDecompressSync(new Uint8Array(await options.arrayBuffer())).toString("utf8"));
    expect(json.options.userVerification).toBe("required");
  } finally {
    await site.close();
  }
});

test("the console's script and stylesheet are sent compressed and cached as immutable", async () => {
  const site = await createTestSite();
  try {
    const page = await (await site.request("/admin/sign-in")).text();
    const files = [...page.matchAll(/(?:href|src)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(files.some((f) => f.endsWith(".js"))).toBe(true);
    expect(files.some((f) => f.endsWith(".css"))).toBe(true);
    for (const file of files) {
      const response = await site.request(file, { headers: { "accept-encoding": "br" } });
      expect({ file, status: response.status, encoding: response.headers.get("content-encoding") }).toEqual({
        file,
        status: 200,
        encoding: "br",
      });
      expect(response.headers.get("content-type")).toMatch(file.endsWith(".js") ? /^text\/javascript/ : /^text\/css/);
      expect(response.headers.get("cache-control")).toContain("immutable");
    }
  } finally {
    await site.close();
  }
});
