import { expect } from "bun:test";
import type { TestSite } from "./app";

// A purchase through the built-in test checkout as a visitor without JavaScript (two form posts),
// and a clock the tests move forward: shared by the fulfilment, mail and licence tests.

const FORM = { "content-type": "application/x-www-form-urlencoded" };

export async function payWithTestCard(
  site: Pick<TestSite, "request">,
  options: {
    locale: string;
    email: string;
    name?: string;
    city?: string;
    country?: string;
    inNotice?: boolean;
    /** More fields of the payment page's form (a company's details, a code). */
    payment?: Record<string, string>;
  },
) {
  // The payment page's consent box ticked (and, when asked, the recent-purchases notice's box); the card page does not ask again.
  const start = await site.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: `locale=${options.locale}&acceptTerms=yes${options.inNotice === true ? "&showInNotice=yes" : ""}${
      options.payment === undefined ? "" : `&${new URLSearchParams(options.payment).toString()}`
    }`,
  });
  const cardPage = start.headers.get("location");
  if (cardPage === null) throw new Error(`no checkout: ${start.status}`);
  const body = new URLSearchParams({
    email: options.email,
    name: options.name ?? "Camille Durand",
    city: options.city ?? "Lyon",
    ...(options.country === undefined ? {} : { country: options.country }),
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();
  const paid = await site.request(cardPage, { method: "POST", headers: FORM, body });
  expect(paid.status).toBe(303);
  return { successPath: paid.headers.get("location") ?? "", cardPage, body };
}

/** A clock that tests move forward, so retry delays and daily limits pass without waiting. */
export function testClock() {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => (offset += ms) };
}
