// Reading request bodies ourselves (as the routes' parser, route-input.ts) so that every endpoint
// answers the same way to what a client can send: 413 too large, 415 wrong type, 400 unreadable,
// 422 invalid.

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * The client went away before it had sent the whole body: its doing, not the server's, so endpoints
 * treat it as any refused request (nobody reads the answer) and it is logged below warning level.
 */
export class ClientAbortError extends HttpError {
  constructor() {
    super(400, "The client closed the connection before sending the whole body");
    this.name = "ClientAbortError";
  }
}

/**
 * What a route accepts: JSON, a form, or JSON sent as text/plain (a page's beacon: `sendBeacon` with
 * a string sends it so, and a browser sends it without asking the server first).
 */
export type BodyKind = "json" | "form" | "plain-json";
export type ParsedBody = { kind: BodyKind; value: unknown };

const KIND_OF_TYPE = new Map<string, BodyKind>([
  ["application/json", "json"],
  ["application/x-www-form-urlencoded", "form"],
  ["text/plain", "plain-json"],
]);
const TYPE_IN_WORDS: Record<BodyKind, string> = { json: "application/json", form: "a form", "plain-json": "JSON as text/plain" };

export async function readBody(request: Request, options: { maxBytes: number; accept?: BodyKind[] }): Promise<ParsedBody> {
  const accept = options.accept ?? ["json", "form"];
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const kind = KIND_OF_TYPE.get(type) ?? null;
  if (kind === null || !accept.includes(kind)) {
    throw new HttpError(415, `Unsupported content type: send ${accept.map((k) => TYPE_IN_WORDS[k]).join(" or ")}`);
  }
  const text = await readRawBody(request, options.maxBytes);
  if (kind === "form") return { kind, value: Object.fromEntries(new URLSearchParams(text)) };
  try {
    return { kind, value: JSON.parse(text) };
  } catch {
    throw new HttpError(400, "Malformed JSON body");
  }
}

/**
 * The body exactly as sent (a webhook's signature covers these bytes), at most maxBytes: 413 when the
 * declared length is larger, or as soon as the stream goes past it (chunked bodies too).
 */
export async function readRawBody(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readRawBytes(request, maxBytes));
}

/**
 * A file upload (multipart/form-data), at most maxBytes in all: 415 for another type, 413 past the
 * limit, 400 when the parts cannot be read.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (type.split(";")[0]?.trim().toLowerCase() !== "multipart/form-data") {
    if (request.body !== null) await discardRest(request.body.getReader());
    throw new HttpError(415, "Unsupported content type: send a form with files (multipart/form-data)");
  }
  const bytes = await readRawBytes(request, maxBytes);
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError(400, "The uploaded form could not be read");
  }
}

async function readRawBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new HttpError(413, `Request body too large (limit ${maxBytes} bytes)`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (request.body !== null) await discardRest(request.body.getReader());
    throw tooLarge();
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      if (request.signal.aborted || (error instanceof DOMException && error.name === "AbortError")) throw new ClientAbortError();
      throw error;
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await discardRest(reader);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/**
 * Reads what the client is still sending, and drops it, before the 413 is sent. Closing a connection
 * with unread data in it makes the kernel reset it, and a client still busy sending then gets the
 * reset instead of the answer. Bun's own limit (server/platform/http/serve-options.ts) bounds the reading.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // The client went away, or went past Bun's limit: nobody is left to answer.
  }
}

export function jsonError(error: HttpError): Response {
  return Response.json({ error: error.message }, { status: error.status, headers: error.headers });
}
