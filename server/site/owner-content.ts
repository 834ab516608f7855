import type { Testimonial } from "../../shared/site-facts";

// Owner content that is code rather than a setting: the reviews of the landing
// page (their texts are in locales/*.json). The defaults are the specification's values;
// production start-up warns while they are shown (server/platform/production-readiness.ts).

/**
 * The specification's invented reviews. Kept as the reference the production start-up compares
 * with (it warns while any of them is shown): replace TESTIMONIALS below, not this list.
 */
export const PLACEHOLDER_TESTIMONIALS: readonly Testimonial[] = [
  { name: "Sophie M.", city: "Lyon", rating: 5, initials: "SM" },
  { name: "Thomas B.", city: "Bordeaux", rating: 5, initials: "TB" },
  { name: "Julie R.", city: "Bruxelles", rating: 5, initials: "JR" },
  { name: "Marc D.", city: "Montréal", rating: 5, initials: "MD" },
];
/** The reviews the landing page shows: put real customers' here (their texts are testimonial1..4 in the locales). */
export const TESTIMONIALS: Testimonial[] = [...PLACEHOLDER_TESTIMONIALS];

/** One of the specification's placeholder reviews (production never shows them). */
export const isPlaceholderTestimonial = (t: Testimonial) => PLACEHOLDER_TESTIMONIALS.some((p) => p.name === t.name && p.city === t.city);
