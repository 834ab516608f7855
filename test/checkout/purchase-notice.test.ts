import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// The first name's initial and the city a buyer gives are shown to other visitors in
// the recent-purchases notice. Where they are typed (the test card page) or collected (Stripe's page,
// from the billing address, announced on /paiement), the buyer is told, and how to object; where the
// notice never shows those orders, nothing is said.

let site: TestSite;
afterEach(() => site?.close());

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const inputOf = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";

async function cardPage(locale: string) {
  const start = await site.request("/api/payment", { method: "POST", headers: FORM, body: `locale=${locale}&acceptTerms=yes` });
  const path = start.headers.get("location") ?? "";
  return { path, html: await (await site.request(path)).text() };
}

test("the test card page says, next to the name and city fields and read with both, that they appear in the purchase notice, and how to object", async () => {
  site = await createTestSite();
  const { path, html } = await cardPage("it");
  expect(html).toContain(
    '<p class="test-checkout__note test-checkout__note--field" id="tc-purchase-notice" data-testid="purchase-notice">L&#x27;iniziale del tuo nome e la tua città compaiono per 30 giorni nel riquadro degli acquisti recenti solo se spunti l&#x27;apposita casella nella pagina di pagamento.</p>',
  );
  for (const name of ["name", "city"]) expect(inputOf(html, name)).toContain('aria-describedby="tc-purchase-notice"');
  expect(inputOf(html, "email")).not.toContain("aria-describedby");

  // A city left out: its message comes first, the note still describes the field.
  const refused = await site.request(path, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({
      email: "a@example.com",
      name: "Ada",
      city: " ",
      card: "4242 4242 4242 4242",
      expiry: "12/34",
      cvc: "123",
    }).toString(),
  });
  expect(refused.status).toBe(422);
  expect(inputOf(await refused.text(), "city")).toContain('aria-describedby="city-error tc-purchase-notice"');
});

test("a production server that allows the test checkout as a demo shows none of its orders in the notice, so its card page says nothing of it", async () => {
  site = await createTestSite({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" } });
  const { html } = await cardPage("en");
  expect(html).not.toContain("purchase-notice");
  expect(inputOf(html, "city")).not.toContain("aria-describedby");
});

test("with Stripe, the payment page says the billing address's city and the initial appear in the notice; with the test checkout it leaves that to the card page", async () => {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_notice", STRIPE_WEBHOOK_SECRET: "whsec_notice", PUBLIC_BASE_URL: "https://shop.example" },
  });
  const stripe = await (await site.request("/es/paiement")).text();
  expect(stripe).toContain(
    "Nuestro proveedor de pagos te pedirá tu dirección de facturación. La inicial de tu nombre y tu ciudad solo aparecen durante 30 días en el aviso de compras recientes si marcas la casilla correspondiente en la página de pago.",
  );
  site.close();

  site = await createTestSite();
  expect(await (await site.request("/es/paiement")).text()).not.toContain("purchase-notice");
});
