// A fake S3 on loopback for the backup tests, speaking the wire format Litestream (aws-sdk-go) and
// Bun's S3 client use: path-style PUT, GET, HEAD and DELETE of objects, ListObjects (v1 and v2,
// with prefix and delimiter) and the multi-object delete. Objects live in memory. (s3rver, the
// usual choice, does not list keys nested below a common prefix, which is how Litestream finds
// its generations: its restore found nothing.)

export type FakeS3 = {
  url: string;
  objects: Map<string, Uint8Array<ArrayBuffer>>;
  /** Requests it did not understand (a test can assert there were none). */
  unknown: string[];
  stop: () => void;
};

const xml = (body: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, { headers: { "content-type": "application/xml" } });
const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function startFakeS3(bucket: string): FakeS3 {
  const objects = new Map<string, Uint8Array<ArrayBuffer>>();
  const unknown: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const [, name = "", ...rest] = url.pathname.split("/");
      const key = decodeURIComponent(rest.join("/"));
      if (name !== bucket) return xml("<Error><Code>NoSuchBucket</Code></Error>");
      if (key === "") {
        if (request.method === "GET") return list(url.searchParams);
        if (request.method === "HEAD") return new Response(null, { status: 200 });
        if (request.method === "POST" && url.searchParams.has("delete")) {
          const body = await request.text();
          for (const match of body.matchAll(/<Key>([^<]*)<\/Key>/g)) objects.delete(match[1] ?? "");
          return xml("<DeleteResult></DeleteResult>");
        }
      } else {
        if (request.method === "PUT") {
          objects.set(key, new Uint8Array(await request.arrayBuffer()));
          return new Response(null, { status: 200, headers: { etag: '"0"' } });
        }
        const found = objects.get(key);
        if (request.method === "GET" || request.method === "HEAD") {
          if (found === undefined) return new Response(xml("<Error><Code>NoSuchKey</Code></Error>").body, { status: 404 });
          return new Response(request.method === "GET" ? found : null, {
            headers: { "content-length": String(found.byteLength), "content-type": "application/octet-stream", etag: '"0"' },
          });
        }
        if (request.method === "DELETE") {
          objects.delete(key);
          return new Response(null, { status: 204 });
        }
      }
      unknown.push(`${request.method} ${url.pathname}${url.search}`);
      return new Response(null, { status: 501 });
    },
  });

  function list(params: URLSearchParams): Response {
    const prefix = params.get("prefix") ?? "";
    const delimiter = params.get("delimiter") ?? "";
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    const prefixes = new Set<string>();
    const contents: string[] = [];
    for (const k of keys) {
      const cut = delimiter === "" ? -1 : k.slice(prefix.length).indexOf(delimiter);
      if (cut !== -1) prefixes.add(k.slice(0, prefix.length + cut + delimiter.length));
      else
        contents.push(
          `<Contents><Key>${escapeXml(k)}</Key><LastModified>${new Date().toISOString()}</LastModified><ETag>"0"</ETag><Size>${objects.get(k)?.byteLength ?? 0}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
        );
    }
    const common = [...prefixes].map((p) => `<CommonPrefixes><Prefix>${escapeXml(p)}</Prefix></CommonPrefixes>`).join("");
    const v2 = params.get("list-type") === "2" ? `<KeyCount>${contents.length + prefixes.size}</KeyCount>` : "";
    return xml(
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix>${v2}<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents.join("")}${common}</ListBucketResult>`,
    );
  }

  return { url: `http://127.0.0.1:${server.port}`, objects, unknown, stop: () => server.stop(true) };
}
