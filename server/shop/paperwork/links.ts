import { createHmac, timingSafeEqual } from "node:crypto";
import * as v from "valibot";
import { normalizeOrderReference } from "../../../shared/order-reference";

// The buyer's links to download an invoice or a credit note again: the order's reference and a
// capability, an HMAC of that reference under the site's own secret (the one generated into
// DATA_DIR, or IP_HASH_SECRET). Only this site can make one; a reference alone, guessed or
// counted, opens nothing. They do not expire: an invoice is wanted years later, for accounts.

export const DOCUMENT_FILES = { invoice: "invoice.pdf", "credit-note": "credit-note.pdf" } as const;
export type DocumentFile = keyof typeof DOCUMENT_FILES;

/** The route of a document download (shared/api.ts names it too). */
export const documentPath = (reference: string, kind: DocumentFile) => `/documents/${reference}/${DOCUMENT_FILES[kind]}`;

/** 128 bits, base64url: as hard to guess as a licence key. */
export function documentCapability(secret: string, reference: string): string {
  // A label of its own, so that this HMAC is never the same as another use of the secret.
  return createHmac("sha256", secret).update(`invoice-download\u0000${reference}`).digest("base64url").slice(0, 22);
}

/** Whether `capability` is the one of `reference`, compared in constant time. */
export function checkCapability(secret: string, reference: string, capability: string): boolean {
  const expected = Buffer.from(documentCapability(secret, reference));
  const given = Buffer.from(capability);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The absolute address of an order's invoice (or credit note), for an e-mail or the success page. */
export function invoiceLink(baseUrl: string, order: { reference: string }, secret: string, kind: DocumentFile = "invoice"): string {
  return `${baseUrl}${documentPath(order.reference, kind)}?k=${documentCapability(secret, order.reference)}`;
}

export const DocumentRequest = v.object({
  reference: v.pipe(
    v.string(),
    v.transform(normalizeOrderReference),
    v.check((r) => r !== null),
    v.transform((r) => r ?? ""),
  ),
  file: v.picklist(Object.values(DOCUMENT_FILES)),
  k: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/)),
});
