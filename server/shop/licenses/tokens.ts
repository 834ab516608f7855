import type { Locale } from "../../../shared/locales";
import { normalizeOrderReference } from "../../../shared/order-reference";
import { pathFor } from "../../../shared/routes";
import { LICENSE_TOKEN_AUDIENCE } from "../../../shared/schemas/licenses";
import type { Config } from "../../platform/config";
import { ORDER_LINK_DAYS, orderRefundPath, signOrderLink } from "../checkout/order-links";
import { reviewPath, reviewStopPath } from "../reviews/links";
import { openSigningKeys, type SigningKeys } from "./signing-keys";

// What the site signs with its licence keys: the tokens the app checks offline, and the buyer's
// links to the devices page. Different audiences, so one can never stand for the other.

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a link to the devices page works; the access-recovery form sends a fresh one. */
export const DEVICES_LINK_DAYS = 30;
const DEVICES_LINK_AUDIENCE = "devices";

/** A replaced key verifies as long as the longest-lived thing it signed. */
export const keepRetiredKeyMs = (licenseTokenDays: number) =>
  Math.max(licenseTokenDays, DEVICES_LINK_DAYS, ORDER_LINK_DAYS) * DAY_MS + DAY_MS;

export type IssuedToken = { token: string; expiresAt: Date };

/** A licence token for one installation of an enabled licence (the caller never asks for another). */
export async function issueLicenseToken(
  keys: SigningKeys,
  license: { instanceId: string; status: "active" | "inactive"; activationLimit: number },
  now: Date,
  days: number,
): Promise<IssuedToken> {
  // Whole seconds, as the token holds it.
  const expiresAt = new Date(Math.floor((now.getTime() + days * DAY_MS) / 1000) * 1000);
  const token = await keys.sign(
    { aud: LICENSE_TOKEN_AUDIENCE, sub: license.instanceId, status: license.status, activationLimit: license.activationLimit },
    expiresAt,
  );
  return { token, expiresAt };
}

/**
 * The devices page's address for the licence of an order, signed; absolute, for an e-mail. The token
 * names the order by its reference: its claims are readable by anyone holding the link, and a row
 * number there would tell the buyer how many sales came before theirs.
 */
export async function devicesLink(keys: SigningKeys, baseUrl: string, reference: string, locale: Locale, now: Date): Promise<string> {
  const token = await keys.sign({ aud: DEVICES_LINK_AUDIENCE, sub: reference }, new Date(now.getTime() + DEVICES_LINK_DAYS * DAY_MS));
  return `${baseUrl}${pathFor("devices", locale)}?t=${token}`;
}

/** The reference of the order a devices link was signed for; null for a link altered, expired or not ours. */
export async function readDevicesLink(keys: SigningKeys, token: string): Promise<string | null> {
  const claims = await keys.verify(token, DEVICES_LINK_AUDIENCE);
  return typeof claims?.sub === "string" ? normalizeOrderReference(claims.sub) : null;
}

/** The site's signing keys, as every process and the CLI open them. */
export const openLicenseKeys = (config: Pick<Config, "dataDir" | "publicBaseUrl" | "licenseTokenDays">, now: () => Date): SigningKeys =>
  openSigningKeys({ dataDir: config.dataDir, issuer: config.publicBaseUrl, keepRetiredMs: keepRetiredKeyMs(config.licenseTokenDays), now });

/** The links an e-mail carries that the site signs (the access e-mail's devices and refund links, the review links). */
export type MailLinks = {
  devices(reference: string, locale: Locale): Promise<string>;
  /** The order's 7-day guarantee refund page (server/shop/checkout/order-links.ts). */
  refund(reference: string, locale: Locale): Promise<string>;
  /** The order's review page and the review e-mails' stop link (server/shop/reviews/links.ts). */
  review(reference: string, locale: Locale): string;
  reviewStop(reference: string, locale: Locale): string;
};

/** `secret`: the site's own secret, which keys the review links as it keys the invoice links. */
export const mailLinks = (keys: SigningKeys, baseUrl: string, now: () => Date, secret: string): MailLinks => ({
  devices: (reference, locale) => devicesLink(keys, baseUrl, reference, locale, now()),
  refund: async (reference, locale) => `${baseUrl}${orderRefundPath(locale, reference, await signOrderLink(keys, reference, now()))}`,
  review: (reference, locale) => `${baseUrl}${reviewPath(secret, reference, locale)}`,
  reviewStop: (reference, locale) => `${baseUrl}${reviewStopPath(secret, reference, locale)}`,
});
