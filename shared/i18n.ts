import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";
import type fr from "../locales/fr.json";
import { LOCALE_TAGS, type Locale } from "./locales";
import type { SiteFacts } from "./site-facts";

/** Every text the site has: the keys of locales/fr.json (the four files hold the same keys). */
export type MessageKey = keyof typeof fr;
/** A language's catalogue as written: ICU MessageFormat source texts. */
export type Messages = Record<MessageKey, string>;
/**
 * A text ready to format without the ICU parser: plain text when it has no placeholder, else its
 * syntax tree (parsed once on the server, server/site/locales.ts), so the browser ships no parser.
 */
export type CompiledMessage = string | MessageFormatElement[];
export type CompiledMessages = Partial<Record<MessageKey, CompiledMessage>>;
export type MessageValues = Record<string, string | number>;
export type Translate<K extends MessageKey = MessageKey> = (key: K, values?: MessageValues) => string;

/**
 * A translator for one language over compiled texts. Values that every text may mention (site name,
 * price, support address...) are filled in by default, so a text can use them without each caller
 * passing them. A missing key renders the key itself, so a gap is visible (docs/product.md), and so
 * does a text whose values are missing, rather than failing the page.
 */
export function createTranslator(locale: Locale, messages: CompiledMessages, defaults: MessageValues = {}): Translate {
  const formats = new Map<MessageKey, IntlMessageFormat>();
  return (key, values) => {
    const message = messages[key];
    if (message === undefined) return key;
    if (typeof message === "string") return message;
    let format = formats.get(key);
    if (format === undefined) {
      format = new IntlMessageFormat(message, LOCALE_TAGS[locale].bcp47);
      formats.set(key, format);
    }
    try {
      const text = format.format<string>({ ...defaults, ...values });
      return Array.isArray(text) ? text.join("") : String(text);
    } catch {
      return key;
    }
  };
}

/**
 * The values every page text may name: the site's facts, and `supportHours`, itself a translated
 * text, so that any message can say "{supportHours}". Computed on the server and sent to the
 * browser with the texts its interactive parts use.
 */
export function siteValues(locale: Locale, messages: CompiledMessages, facts: SiteFacts): MessageValues {
  const values: MessageValues = {
    siteName: facts.siteName,
    email: facts.supportEmail,
    price: facts.price,
    // Only while the offer runs: after it (or without a reference price) no text can show the
    // struck-through price or the date.
    ...(facts.offer.on ? { offerEnd: facts.offer.endsOn, offerEndSound: facts.offer.endsOnSound, oldPrice: facts.offer.oldPrice } : {}),
    ...(facts.users !== null ? { users: facts.users } : {}),
    saving: facts.saving,
    year: String(facts.year),
    years: "5",
    // The licence's device limit: the pricing card, the FAQ and the payment page say it.
    devices: facts.devices,
    // The guarantee's texts say whether the refund page refunds at once or asks the owner.
    refundMode: facts.refundMode,
    // The price's VAT line says "VAT included", or under the franchise that VAT does not apply.
    vat: facts.vat,
  };
  return { ...values, supportHours: createTranslator(locale, messages, values)("supportHours") };
}

/** The translator every page (and the support chat and e-mails) uses, with the site's values. */
export function siteTranslator(locale: Locale, messages: CompiledMessages, facts: SiteFacts): Translate {
  return createTranslator(locale, messages, siteValues(locale, messages, facts));
}
