// Partner links (server/shop/partners/): `?ref=NAME` on any page names the partner who brought the
// visitor. Shared by the page's script (which keeps it in the site's links to the payment page and
// sends it with the payment) and the server (which attributes the order).

/** Lower case letters, digits, dashes and underscores, 2 to 32 of them. */
export const PARTNER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{1,31}$/;

/** The name as stored and compared; null when it cannot be one. */
export function normalizePartnerName(value: string): string | null {
  const name = value.trim().toLowerCase();
  return PARTNER_NAME_PATTERN.test(name) ? name : null;
}
