import * as v from "valibot";
import type { BytesSchema } from "../platform/bytes-schema";

/**
 * A page that depends only on its view and language, as the build or another process made it. One
 * shape for the three places that carry it: the static pages (server/site/pages/static-pages.ts),
 * the executable's prebuilt file (server/site/prebuilt.ts) and the hand-over between processes
 * (server/platform/processes.ts). Each says how the bytes travel (in memory, as a span of a file).
 */
export const prebuiltPageSchema = <Body extends v.GenericSchema>(body: Body) =>
  v.object({
    /** Which page: its language, status and view (static-pages.ts: pageKey). */
    key: v.string(),
    /**
     * SHA-256 of the page data (JSON, its texts named by their own hash) it was rendered from: a page
     * made with other settings is not used.
     */
    dataHash: v.string(),
    status: v.number(),
    html: body,
    br: body,
    gzip: body,
  });

export type PrebuiltPage = v.InferOutput<ReturnType<typeof prebuiltPageSchema<typeof BytesSchema>>>;

/** The same page with its bytes turned into something else (a span of a file, and back). */
export function mapPageBodies<From, To>(
  page: { key: string; dataHash: string; status: number; html: From; br: From; gzip: From },
  to: (body: From) => To,
): { key: string; dataHash: string; status: number; html: To; br: To; gzip: To } {
  return { key: page.key, dataHash: page.dataHash, status: page.status, html: to(page.html), br: to(page.br), gzip: to(page.gzip) };
}
