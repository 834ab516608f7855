import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { orders } from "../../../db/schema";
import type { BusinessBuyer } from "../../../shared/business-buyer";
import type { CodeRefusal } from "../../../shared/discount-code";
import type { Locale } from "../../../shared/locales";
import { businessFigures, isReverseCharged, priceForBusiness } from "../../../shared/reverse-charge";
import { pathFor } from "../../../shared/routes";
import { hasCheckDigits } from "../../../shared/vat-number";
import type { AppDeps } from "../../deps";
import { type AppliedCode, checkCode } from "../codes/service";
import type { VatSettings } from "../paperwork/numbering";
import { businessEvidence } from "../paperwork/vat";
import { partnerOf } from "../partners/service";
import { freeClaimPath } from "./free-claims";
import { recordPendingOrder } from "./fulfilment";
import type { Consent } from "./provider";
import type { Checkout } from "./providers";

/** A discount code the buyer gave that does not apply now: nothing was started or reserved. */
export class CodeRefusedError extends Error {
  constructor(readonly reason: CodeRefusal) {
    super(`discount code refused: ${reason}`);
    this.name = "CodeRefusedError";
  }
}

/**
 * Starts a checkout of the published price (less a discount code's reduction) in the visitor's
 * language (spec 7.3) and records the order as pending, with the buyer's consent, so the success
 * page knows the id as soon as the visitor comes back.
 * Throws CodeRefusedError when the code does not apply (unknown, not started, expired, used up),
 * ProviderError when the provider fails, DatabaseBusyError when the database stays locked (the
 * visitor is then not sent to pay; the checkout left at the provider expires unused).
 */
export async function createCheckoutSession(
  deps: Pick<AppDeps, "content" | "write" | "now" | "db">,
  checkout: Pick<Checkout, "provider" | "freeClaims">,
  locale: Locale,
  consent: Consent,
  code = "",
  /** The buyer ticked the payment page's box: their initial and city may show in the recent-purchases notice. */
  inNotice = false,
  /** The partner link's name the buyer came with (`?ref=`): recorded on the order when the owner created that partner. */
  ref = "",
  /**
   * A company buyer (the payment page's "Buying for a company?"), with the VAT settings that decide
   * its rule: one reverse-charged pays the price excluding French VAT, after any code's reduction.
   */
  business: { buyer: BusinessBuyer; vat: VatSettings } | null = null,
): Promise<{ id: string; url: string }> {
  const { provider } = checkout;
  const buyer = business?.buyer ?? null;
  const evidence =
    business === null ? null : businessEvidence(business.vat.vatScheme, business.buyer, business.vat.vatRegistrations, hasCheckDigits);
  const reverseCharged = buyer !== null && isReverseCharged({ companyCountry: buyer.country, buyerVatNumber: buyer.vatNumber });
  // The order's figures: a reverse-charged business's are all excluding VAT (list price, reduction,
  // amount), computed as the payment page shows them (shared/reverse-charge.ts).
  const chargesVat = business !== null && business.vat.vatScheme !== "franchise";
  const forBuyer = (amount: number) => (reverseCharged ? priceForBusiness(chargesVat, amount) : amount);
  const companyColumns = {
    company: buyer?.company ?? null,
    companyAddress: buyer?.address ?? null,
    companyCountry: buyer?.country ?? null,
    buyerVatNumber: buyer?.vatNumber ?? null,
    taxEvidence: evidence === null ? null : JSON.stringify(evidence),
  };
  const partner = ref.trim() === "" ? undefined : partnerOf(deps.db, ref);
  // A partner's own code applies when the buyer typed none; when it no longer does (expired, used up,
  // disabled, never created), the buyer, who asked for no code, pays the price rather than being refused.
  const typed = code.trim() !== "";
  if (!typed && partner?.code != null) code = partner.code;
  // The published price at this moment: the order records what the buyer is asked to pay.
  const { priceMinor, currency } = deps.content.current().site;
  const request = {
    locale,
    currency,
    successPath: pathFor("success", locale),
    cancelPath: pathFor("canceled", locale),
    consent,
  };
  const withoutCode = async () => {
    const amount = forBuyer(priceMinor);
    const created = await provider.createCheckout({ ...request, amount });
    await recordPendingOrder(
      deps.write,
      {
        provider: provider.name,
        checkoutId: created.id,
        amount,
        ...companyColumns,
        currency,
        locale,
        termsAcceptedAt: consent.acceptedAt,
        termsVersion: consent.termsVersion,
        inNotice,
        partner: partner?.name ?? null,
      },
      deps.now(),
    );
    return created;
  };
  if (code.trim() === "") return withoutCode();

  // A code: its use is reserved first, by the pending order itself, in one transaction under the
  // writer's lock (the limit is checked and taken at once); the checkout is created for the reduced
  // amount after, and the order takes its id. A provider that fails gives the use back.
  // A code that takes the whole price gives free access: no provider (nothing to pay), the claim
  // opened in the same transaction, its page asks for the address and name only (free-claims.ts).
  const placeholder = `reserving_${randomBytes(12).toString("hex")}`;
  let freeClaim: string | null = null;
  const applied = await deps.write((tx): AppliedCode | null => {
    const checked = checkCode(tx, code, priceMinor, deps.now(), provider.name === "test");
    if (!checked.ok && !typed) return null;
    if (!checked.ok) throw new CodeRefusedError(checked.reason);
    const applied = reverseCharged ? { ...checked.applied, ...businessFigures(chargesVat, checked.applied) } : checked.applied;
    const free = applied.amount === 0;
    if (free) freeClaim = checkout.freeClaims.open(tx, { ...request, testMode: provider.name === "test" });
    tx.insert(orders)
      .values({
        provider: free ? "free" : provider.name,
        checkoutId: freeClaim ?? placeholder,
        status: "pending",
        amount: applied.amount,
        listAmount: applied.listAmount,
        discountCode: applied.code,
        discountAmount: applied.discountAmount,
        ...companyColumns,
        currency: currency.toUpperCase(),
        locale,
        termsAcceptedAt: consent.acceptedAt,
        termsVersion: consent.termsVersion,
        inNotice,
        partner: partner?.name ?? null,
        createdAt: deps.now(),
        updatedAt: deps.now(),
      })
      .run();
    return applied;
  });
  if (applied === null) return withoutCode();
  if (freeClaim !== null) return { id: freeClaim, url: freeClaimPath(freeClaim) };
  let created: { id: string; url: string };
  try {
    created = await provider.createCheckout({ ...request, amount: applied.amount, discount: applied });
  } catch (error) {
    await deps.write((tx) => tx.delete(orders).where(eq(orders.checkoutId, placeholder)).run());
    throw error;
  }
  await deps.write((tx) => tx.update(orders).set({ checkoutId: created.id }).where(eq(orders.checkoutId, placeholder)).run());
  return created;
}
