// What remains of the owner content that was code. The landing page's reviews are buyers' reviews,
// checked by their purchase and moderated in the console (server/shop/reviews/, docs/reviews.md):
// no review is typed into the code any more, and its user count is the site's own.

/** CLAIMED_USERS's default (the specification's "more than 2,847"): seeded into the content only when set; no page shows it. */
export const PLACEHOLDER_CLAIMED_USERS = 2847;
