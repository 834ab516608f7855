// EU VAT identification numbers: each member state's format, and its check digits where the state
// publishes how they are computed (the algorithms below are written from those public definitions).
// Shared by the payment page (which says at once what is wrong) and the server (which decides).
// A number that passes here is well formed, not necessarily registered: only VIES can say that,
// and the site does not call it (docs/invoices.md).

/** The prefix of a member state's VAT numbers: its ISO code, except Greece's "EL". */
export const vatPrefixOf = (country: string): string => (country === "GR" ? "EL" : country);

/** A number as people type it: spaces, dots and dashes dropped, upper case, the country prefix added when missing. */
export function normalizeVatNumber(typed: string, country: string): string {
  const compact = typed.replace(/[\s.\-/]/g, "").toUpperCase();
  const prefix = vatPrefixOf(country);
  return /^[A-Z]{2}/.test(compact) ? compact : `${prefix}${compact}`;
}

const digits = (s: string): number[] => [...s].map(Number);

/** Σ digit × weight. */
const weighted = (s: string, weights: readonly number[]): number => weights.reduce((sum, w, i) => sum + Number(s[i]) * w, 0);

/** The Luhn checksum (Italy's partita IVA, Sweden's organisation number). */
function luhn(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < s.length; i += 1) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10 (Germany, Croatia): the last digit checks the others. */
function mod11_10(s: string): boolean {
  let p = 10;
  for (const d of digits(s.slice(0, -1))) {
    let t = (d + p) % 10;
    if (t === 0) t = 10;
    p = (2 * t) % 11;
  }
  const check = 11 - p === 10 ? 0 : 11 - p;
  return check === Number(s.at(-1));
}

/** The remainder of a long decimal string modulo m, without losing precision. */
function modOf(s: string, m: number): number {
  let r = 0;
  for (const c of s) r = (r * 10 + Number(c)) % m;
  return r;
}

/** 11 − (Σ weighted mod 11), 10 and 11 read as 0 (Portugal, Slovenia keep 11 invalid: see there). */
const elevenComplement = (sum: number): number => {
  const r = 11 - (sum % 11);
  return r >= 10 ? 0 : r;
};

type Rule = { pattern: RegExp; check?: (body: string) => boolean };

// The body is the number without its two-letter prefix.
const RULES: Record<string, Rule> = {
  // Austria: "U" + 8 digits; Bundesministerium für Finanzen's algorithm (doubled even positions, +4).
  AT: {
    pattern: /^U\d{8}$/,
    check: (b) => {
      const n = digits(b.slice(1));
      let sum = 0;
      for (let i = 0; i < 7; i += 1) {
        const d = n[i] ?? 0;
        sum += i % 2 === 0 ? d : Math.floor((2 * d) / 10) + ((2 * d) % 10);
      }
      return (10 - ((sum + 4) % 10)) % 10 === n[7];
    },
  },
  // Belgium: 10 digits (the enterprise number), first 0 or 1; the last two are 97 − (the first eight mod 97).
  BE: { pattern: /^[01]\d{9}$/, check: (b) => 97 - modOf(b.slice(0, 8), 97) === Number(b.slice(8)) },
  BG: { pattern: /^\d{9,10}$/ },
  CY: { pattern: /^\d{8}[A-Z]$/ },
  CZ: { pattern: /^\d{8,10}$/ },
  // Germany: 9 digits, ISO 7064 MOD 11,10 (Bundeszentralamt für Steuern).
  DE: { pattern: /^[1-9]\d{8}$/, check: mod11_10 },
  // Denmark: 8 digits, weights 2 7 6 5 4 3 2 1, the sum divisible by 11.
  DK: { pattern: /^[1-9]\d{7}$/, check: (b) => weighted(b, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0 },
  // Estonia: 9 digits starting 10; weights 3 7 1, check = (10 − sum mod 10) mod 10.
  EE: { pattern: /^10\d{7}$/, check: (b) => (10 - (weighted(b, [3, 7, 1, 3, 7, 1, 3, 7]) % 10)) % 10 === Number(b[8]) },
  // Greece: 9 digits; Σ dᵢ·2^(9−i) for the first eight, mod 11, mod 10.
  EL: { pattern: /^\d{9}$/, check: (b) => (weighted(b, [256, 128, 64, 32, 16, 8, 4, 2]) % 11) % 10 === Number(b[8]) },
  ES: { pattern: /^(?:[A-HJNP-SUVW]\d{7}[0-9A-J]|\d{8}[A-Z]|[KLMXYZ]\d{7}[A-Z])$/, check: spanishCheck },
  // Finland: 8 digits, weights 7 9 10 5 8 4 2, check = 11 − sum mod 11 (a remainder of 1 is never issued).
  FI: {
    pattern: /^\d{8}$/,
    check: (b) => {
      const r = weighted(b, [7, 9, 10, 5, 8, 4, 2]) % 11;
      return r !== 1 && (r === 0 ? 0 : 11 - r) === Number(b[7]);
    },
  },
  // France: a two-character key and the 9-digit SIREN. A numeric key is (12 + 3 × (SIREN mod 97)) mod 97;
  // the alphanumeric keys of newer numbers have no published algorithm: format only.
  FR: {
    pattern: /^[0-9A-HJ-NP-Z]{2}\d{9}$/,
    check: (b) => !/^\d{2}/.test(b) || (12 + 3 * modOf(b.slice(2), 97)) % 97 === Number(b.slice(0, 2)),
  },
  // Croatia: 11 digits (OIB), ISO 7064 MOD 11,10.
  HR: { pattern: /^\d{11}$/, check: mod11_10 },
  // Hungary: 8 digits, weights 9 7 3 1 9 7 3, check = (10 − sum mod 10) mod 10.
  HU: { pattern: /^\d{8}$/, check: (b) => (10 - (weighted(b, [9, 7, 3, 1, 9, 7, 3]) % 10)) % 10 === Number(b[7]) },
  IE: { pattern: /^(?:\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/ },
  // Italy: 11 digits (partita IVA), the office code 001–100 or 120, 121, 888, 999, and the Luhn check.
  IT: {
    pattern: /^\d{11}$/,
    check: (b) => {
      const office = Number(b.slice(7, 10));
      return b.slice(0, 7) !== "0000000" && (office <= 100 || [120, 121, 888, 999].includes(office)) && office > 0 && luhn(b);
    },
  },
  LT: { pattern: /^(?:\d{9}|\d{12})$/ },
  // Luxembourg: 8 digits, the first six mod 89 are the last two.
  LU: { pattern: /^\d{8}$/, check: (b) => modOf(b.slice(0, 6), 89) === Number(b.slice(6)) },
  LV: { pattern: /^\d{11}$/ },
  MT: { pattern: /^[1-9]\d{7}$/ },
  // The Netherlands: 9 digits, "B", 2 digits. Older numbers (the RSIN) check with weights 9…2 mod 11;
  // sole traders' numbers since 2020 with ISO 7064 MOD 97-10 over the whole "NL…B.." string. Either.
  NL: {
    pattern: /^\d{9}B\d{2}$/,
    check: (b) => {
      const sum = weighted(b, [9, 8, 7, 6, 5, 4, 3, 2]);
      if (sum % 11 !== 10 && sum % 11 === Number(b[8])) return true;
      const asNumber = [...`NL${b}`].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join("");
      return modOf(asNumber, 97) === 1;
    },
  },
  // Poland: 10 digits (NIP), weights 6 5 7 2 3 4 5 6 7, sum mod 11 is the last digit (10 never issued).
  PL: {
    pattern: /^\d{10}$/,
    check: (b) => {
      const r = weighted(b, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
      return r !== 10 && r === Number(b[9]);
    },
  },
  // Portugal: 9 digits (NIF), weights 9…2, check = 11 − sum mod 11, 10 and 11 read as 0.
  PT: { pattern: /^[1-9]\d{8}$/, check: (b) => elevenComplement(weighted(b, [9, 8, 7, 6, 5, 4, 3, 2])) === Number(b[8]) },
  // Romania: 2 to 10 digits (CIF); weights 7 5 3 2 1 7 5 3 2 aligned right, check = (sum × 10 mod 11) mod 10.
  RO: {
    pattern: /^[1-9]\d{1,9}$/,
    check: (b) => {
      const body = b.slice(0, -1).padStart(9, "0");
      return ((weighted(body, [7, 5, 3, 2, 1, 7, 5, 3, 2]) * 10) % 11) % 10 === Number(b.at(-1));
    },
  },
  // Sweden: 12 digits, the organisation number (Luhn) followed by "01".
  SE: { pattern: /^\d{10}01$/, check: (b) => luhn(b.slice(0, 10)) },
  // Slovenia: 8 digits, weights 8…2, check = 11 − sum mod 11 (10 reads as 0; 11 is never issued).
  SI: {
    pattern: /^[1-9]\d{7}$/,
    check: (b) => {
      const r = 11 - (weighted(b, [8, 7, 6, 5, 4, 3, 2]) % 11);
      return r !== 11 && (r === 10 ? 0 : r) === Number(b[7]);
    },
  },
  // Slovakia: 10 digits, the third one of 2, 3, 4, 7, 8 or 9, the number divisible by 11.
  SK: { pattern: /^[1-9]\d[2-47-9]\d{7}$/, check: (b) => modOf(b, 11) === 0 },
};

/**
 * Spain's NIF: a company's (a letter, 7 digits and a check digit or letter from the CIF algorithm), a
 * resident's (8 digits and the letter of the number mod 23) or a foreigner's (X/Y/Z read as 0/1/2;
 * K/L/M with 7 digits).
 */
function spanishCheck(b: string): boolean {
  const letters = "TRWAGMYFPDXBNJZSQVHLCKE";
  if (/^\d{8}[A-Z]$/.test(b)) return letters[Number(b.slice(0, 8)) % 23] === b[8];
  if (/^[XYZ]/.test(b)) return letters[Number(`${"XYZ".indexOf(b[0] ?? "")}${b.slice(1, 8)}`) % 23] === b[8];
  if (/^[KLM]/.test(b)) return letters[Number(b.slice(1, 8)) % 23] === b[8];
  const n = digits(b.slice(1, 8));
  let sum = 0;
  n.forEach((d, i) => {
    if (i % 2 === 1) sum += d;
    else sum += Math.floor((2 * d) / 10) + ((2 * d) % 10);
  });
  const control = (10 - (sum % 10)) % 10;
  const last = b[8] ?? "";
  // Entities of these letters carry a letter, of these a digit; the others may carry either.
  if ("NPQRSW".includes(b[0] ?? "")) return last === "JABCDEFGHI"[control];
  if ("ABEH".includes(b[0] ?? "")) return last === String(control);
  return last === String(control) || last === "JABCDEFGHI"[control];
}

/** Why a VAT number is refused: not of its country's form, a check digit wrong, or another country's number. */
export type VatNumberProblem = "format" | "check" | "country";

/** Whether a member state's numbers carry check digits the site verifies (the others: format only). */
export const hasCheckDigits = (country: string): boolean => RULES[vatPrefixOf(country)]?.check !== undefined;

/**
 * Checks a VAT number (normalized, with its prefix) for a member state: its format, then its check
 * digits where the state defines them. `null` when it is well formed.
 */
export function vatNumberProblem(number: string, country: string): VatNumberProblem | null {
  const prefix = vatPrefixOf(country);
  const rule = RULES[prefix];
  if (rule === undefined) return "format";
  if (!number.startsWith(prefix)) return /^[A-Z]{2}/.test(number) && RULES[number.slice(0, 2)] !== undefined ? "country" : "format";
  const body = number.slice(2);
  if (!rule.pattern.test(body)) return "format";
  return rule.check === undefined || rule.check(body) ? null : "check";
}
