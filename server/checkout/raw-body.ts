import { HttpError } from "../http/body";

/**
 * The body exactly as sent, for signature checks (a webhook's signature covers these bytes), with
 * the same 413 answer as `readBody` when it goes past maxBytes, chunked or not.
 */
export async function readRawBody(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpError(413, `Request body too large (limit ${maxBytes} bytes)`);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new HttpError(413, `Request body too large (limit ${maxBytes} bytes)`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
