import * as v from "valibot";

// GET /api/social-proof: real paid orders of the last 30 days, never invented (docs/product.md,
// "Social proof only from real purchases"). Only a first-name initial, a city and an age leave the
// server: no e-mail, no full name, no ids.

export const SocialProofEntrySchema = v.object({
  /** "S." or null, which the toast shows as "someone". */
  initial: v.nullable(v.string()),
  /** A real place (server/shop/social-proof/places.ts) or null, which the toast leaves out. */
  city: v.nullable(v.string()),
  minutesAgo: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Development's sample (server/shop/social-proof/service.ts), marked "example" in the notice; never on a production site. */
  sample: v.optional(v.literal(true)),
});
export type SocialProofEntry = v.InferOutput<typeof SocialProofEntrySchema>;

export const SocialProofResponseSchema = v.object({ entries: v.array(SocialProofEntrySchema) });
export type SocialProofResponse = v.InferOutput<typeof SocialProofResponseSchema>;
