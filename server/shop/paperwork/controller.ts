import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import type { AppDeps } from "../../deps";
import { requestContext } from "../../platform/http/context";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { checkCapability, DOCUMENT_FILES, DocumentRequest } from "./links";

/** Downloads per client address: a buyer needs a few; guessing capabilities gets nowhere at this pace. */
export const DOCUMENT_RATE_LIMIT = { limit: 30, windowMs: 10 * 60 * 1000 } as const;

const NO_STORE = { "cache-control": "private, no-store", "referrer-policy": "strict-origin" };

/**
 * GET /documents/:reference/invoice.pdf?k=… (and credit-note.pdf): the PDF when the capability is
 * the reference's; otherwise 404, the same for a wrong capability, an unknown reference or an order
 * without that document, so that nothing tells which references exist.
 */
export function documentsController(deps: AppDeps) {
  const { documents, linkSecret } = deps.paperwork;
  const limiter = createRateLimiter(deps.rateLimits, { name: "documents", ...DOCUMENT_RATE_LIMIT });
  const notFound = () => Response.json({ error: "Not found" }, { status: 404, headers: NO_STORE });

  return new Elysia({ name: "paperwork-documents" })
    .use(requestContext(deps.config))
    .get(ENDPOINTS.documentDownload.path, async ({ params, query, ip }) => {
      const allowed = limiter.take(ip);
      if (!allowed.ok) {
        return Response.json(
          { error: `Too many requests, try again in ${allowed.retryAfterSeconds} s` },
          { status: 429, headers: { ...NO_STORE, "retry-after": String(allowed.retryAfterSeconds) } },
        );
      }
      const input = v.safeParse(DocumentRequest, { reference: params.reference, file: params.file, k: query.k });
      if (!input.success || !checkCapability(linkSecret, input.output.reference, input.output.k)) return notFound();
      const kind = input.output.file === DOCUMENT_FILES["credit-note"] ? "credit-note" : "invoice";
      const file = await documents.invoiceByReference(input.output.reference, kind);
      if (file === null) return notFound();
      return new Response(new Uint8Array(file.content), {
        headers: {
          ...NO_STORE,
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${file.filename}"`,
        },
      });
    });
}
