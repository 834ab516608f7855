import { expect, test } from "bun:test";
import { checkBusiness } from "../../shared/business-buyer";
import { hasCheckDigits, normalizeVatNumber, vatNumberProblem } from "../../shared/vat-number";

// Each member state's VAT number: published, registered numbers of real companies pass; the same
// numbers with one digit changed fail their check digits; a number of the wrong length fails its format.

const VALID: Record<string, string[]> = {
  FR: ["FR40303265045", "FR83404833048"],
  DE: ["DE136695976", "DE129273398", "DE811907980"],
  IT: ["IT00743110157", "IT00811720580", "IT00159560366"],
  ES: ["ESA28015865", "ESB58378431", "ESX5253868R"],
  BE: ["BE0417497106", "BE0403170701", "BE0477472701"],
  NL: ["NL004495445B01", "NL820646660B01"],
  AT: ["ATU13585627", "ATU33864707"],
  PL: ["PL8567346215", "PL5260250274", "PL5260001246"],
  PT: ["PT501964843", "PT500100144"],
  DK: ["DK13585628"],
  SE: ["SE556188840401"],
  FI: ["FI20774740"],
  LU: ["LU15027442"],
  HU: ["HU12892312"],
  SI: ["SI50223054"],
  SK: ["SK2022749619"],
  RO: ["RO18547290"],
  EE: ["EE100931558"],
  HR: ["HR33392005961"],
  GR: ["EL094259216"],
};

/** The number with a digit in its middle changed (a typing mistake the check digits catch). */
const altered = (n: string): string => {
  const at = 5 + n.slice(5).search(/\d/);
  return `${n.slice(0, at)}${(Number(n[at]) + 1) % 10}${n.slice(at + 1)}`;
};

for (const [country, numbers] of Object.entries(VALID)) {
  test(`${country}: real numbers pass, one digit changed fails the check digits`, () => {
    expect(hasCheckDigits(country)).toBe(true);
    for (const n of numbers) {
      expect({ n, problem: vatNumberProblem(n, country) }).toEqual({ n, problem: null });
      const wrong = altered(n);
      expect({ wrong, problem: vatNumberProblem(wrong, country) }).toEqual({ wrong, problem: "check" });
    }
  });
}

test("formats: wrong length, wrong letters, another country's number", () => {
  expect(vatNumberProblem("DE12345678", "DE")).toBe("format");
  expect(vatNumberProblem("ATU1358562", "AT")).toBe("format");
  expect(vatNumberProblem("NL004495445X01", "NL")).toBe("format");
  expect(vatNumberProblem("FR40303265045", "DE")).toBe("country");
  expect(vatNumberProblem("GR094259216", "GR")).toBe("format");
});

test("countries without a published algorithm are checked for their format only", () => {
  expect(hasCheckDigits("IE")).toBe(false);
  expect(vatNumberProblem("IE6388047V", "IE")).toBeNull();
  expect(vatNumberProblem("CZ12345678", "CZ")).toBeNull();
  expect(vatNumberProblem("CZ1234567", "CZ")).toBe("format");
});

test("a number is normalized as people type it: spaces, dots, dashes, lower case, no prefix", () => {
  expect(normalizeVatNumber("de 136.695-976", "DE")).toBe("DE136695976");
  expect(normalizeVatNumber("094259216", "GR")).toBe("EL094259216");
  expect(normalizeVatNumber("a28015865", "ES")).toBe("ESA28015865");
});

test("the company section: empty is a consumer; every field's problem at once; a number outside the EU is kept as typed", () => {
  expect(checkBusiness({})).toEqual({ ok: true, business: null });
  expect(checkBusiness({ company: "Weber GmbH", companyAddress: "", companyCountry: "ZZ" })).toEqual({
    ok: false,
    errors: { companyAddress: "business.error.address", companyCountry: "business.error.country" },
  });
  expect(checkBusiness({ company: "W", companyAddress: "Berlin", companyCountry: "DE", vatNumber: "DE136695977" })).toEqual({
    ok: false,
    errors: { vatNumber: "business.error.vatCheck" },
  });
  expect(checkBusiness({ company: "Acme", companyAddress: "Boston", companyCountry: "us", vatNumber: "12-3456789" })).toEqual({
    ok: true,
    business: { company: "Acme", address: "Boston", country: "US", vatNumber: "12-3456789" },
  });
});
