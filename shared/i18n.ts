import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import { LOCALE_TAGS, type Locale } from "./locales";
import type { SiteFacts } from "./site-facts";

export type Messages = Record<string, string>;
export type MessageValues = Record<string, string | number>;
export type Translate = (key: string, values?: MessageValues) => string;

const cache = createIntlCache();

/**
 * A translator for one language. Values that every text may mention (site name, price, support
 * address...) are filled in by default, so a text can use them without each caller passing them.
 * A missing key renders the key itself (spec section 3).
 */
export function createTranslator(locale: Locale, messages: Messages, defaults: MessageValues = {}): Translate {
  const intl: IntlShape<string> = createIntl(
    { locale: LOCALE_TAGS[locale].bcp47, messages, onError: () => {} },
    cache,
  );
  return (key, values) => {
    if (!(key in messages)) return key;
    return intl.formatMessage({ id: key }, { ...defaults, ...values });
  };
}

/**
 * The translator every page (and the support chat) uses: the site's facts are the default values,
 * and `supportHours` is itself a translated text, so any message can say "{supportHours}".
 */
export function siteTranslator(locale: Locale, messages: Messages, facts: SiteFacts): Translate {
  const base = createTranslator(locale, messages, {
    siteName: facts.siteName,
    email: facts.supportEmail,
    price: facts.price,
    // Only while the offer runs: after it no text can show the struck-through price or the date.
    ...(facts.offer.on ? { oldPrice: facts.offer.oldPrice, offerEnd: facts.offer.endsOn } : {}),
    saving: facts.saving,
    users: facts.users,
    year: String(facts.year),
    years: "5",
  });
  const supportHours = base("supportHours");
  return (key, values) => base(key, { supportHours, ...values });
}
