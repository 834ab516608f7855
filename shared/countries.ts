// Countries a buyer may choose on the test checkout's card page, as ISO 3166-1 alpha-2 codes; the
// page names them in its own language (Intl.DisplayNames), so no list of names is kept here.
import { LOCALE_TAGS, type Locale } from "./locales";

const CODES =
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
  "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
  "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
  "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
  "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
  "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW";

export const COUNTRY_CODES: readonly string[] = CODES.split(" ");

export const isCountryCode = (value: string): boolean => COUNTRY_CODES.includes(value);

/** The country a visitor reading this language most likely lives in: the card page's preselection. */
export const LIKELY_COUNTRY = { fr: "FR", en: "GB", it: "IT", es: "ES" } as const;

/** Every country named in the language, in that language's alphabetical order. */
export function countriesIn(locale: Locale): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([LOCALE_TAGS[locale].bcp47], { type: "region" });
  const collator = new Intl.Collator(LOCALE_TAGS[locale].bcp47);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
}
