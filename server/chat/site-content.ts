import type { Config } from "../config";
import { MESSAGES } from "../locales";
import { siteTranslator, type Translate } from "../../shared/i18n";
import type { Locale } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { buildSiteFacts, offerTextKeys, type SiteFacts } from "../../shared/site-facts";

// The site's own content, in one language, as the chat assistants see it (issue 5: answers are
// grounded in what the pages say). Texts come from locales/*.json with the placeholders filled by the
// same values the pages use (client/i18n.tsx), so the chat quotes exactly the page's price.

/** One passage a visitor can be answered with: `title` is what it is about, `text` the answer. */
export type Passage = { id: string; title: string; text: string };

export type SiteKnowledge = {
  locale: Locale;
  facts: SiteFacts;
  t: Translate;
  passages: Passage[];
};

/** The translator the pages use (shared/i18n.ts), over this language's texts. */
export const pageTranslator = (locale: Locale, facts: SiteFacts): Translate => siteTranslator(locale, MESSAGES[locale], facts);

export const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** French puts a space before a colon; the other three languages do not. */
export const colon = (locale: Locale) => (locale === "fr" ? " : " : ": ");

export function buildSiteKnowledge(site: Config["site"], locale: Locale, now = new Date()): SiteKnowledge {
  const facts = buildSiteFacts(site, locale, now);
  const t = pageTranslator(locale, facts);
  const c = colon(locale);
  const titled = (id: string, titleKey: string, textKey: string): Passage => ({
    id,
    title: t(titleKey),
    text: `${t(titleKey)}${c}${t(textKey)}`,
  });

  const faq = [1, 2, 3, 4, 5].map((n) => ({ id: `faq${n}`, title: t(`faqQuestion${n}`), text: t(`faqAnswer${n}`) }));
  const features = [1, 2, 3, 4].map((n) => titled(`feature${n}`, `feature${n}Title`, `feature${n}Desc`));
  // Benefit 4 (priority support) is the "support" passage below, with the contact address.
  const benefits = [1, 2, 3, 5, 6].map((n) => titled(`benefit${n}`, `whyAppBenefit${n}`, `whyAppBenefit${n}Desc`));
  const comparison = facts.comparison
    .filter((row) => !row.highlight)
    .map((row) => `${row.name}${c}${row.monthly ?? "—"} ${t("comparison.perMonth").toLowerCase()}, ${row.fiveYears} ${t("comparison.fiveYears").toLowerCase()}.`)
    .join(" ");

  const passages: Passage[] = [
    ...faq,
    {
      id: "price",
      title: t("pricing.plan"),
      text: `${t("pricing.plan")}${c}${priceLine(facts, t)}`,
    },
    ...features,
    ...benefits,
    {
      id: "preview",
      title: t("preview.title"),
      text: `${t("preview.text")} ${t("preview.point3")}.`,
    },
    {
      id: "how",
      title: t("howTitle"),
      text: [1, 2, 3, 4].map((n) => `${n}. ${t(`howStep${n}`)}${c}${t(`howStep${n}Desc`)}`).join(" "),
    },
    {
      id: "savings",
      title: t("comparison"),
      text: `${t("savingsMessage")} ${comparison} ${facts.siteName}${c}${facts.price} ${t("comparison.oneTime")}.`,
    },
    {
      // A buyer who paid and found no e-mail: the self-serve form first, then a person.
      id: "access",
      title: t("access.title"),
      text: t("chat.accessRecovery", { path: pathFor("access", locale) }),
    },
    {
      id: "support",
      title: t("whyAppBenefit4"),
      text: `${t("whyAppBenefit4Desc")} ${t("footer.contact")}.`,
    },
  ];
  return { locale, facts, t, passages };
}

/**
 * The price as the pricing card states it: while the offer runs, with the struck-through price and
 * the offer's end; after it, the price alone (issue 12: no time-limited claim in the chat either).
 */
export function priceLine(facts: SiteFacts, t: Translate): string {
  const was = facts.offer.on ? ` (${lowerFirst(t("pricing.oldPrice"))})` : "";
  return `${facts.price}${was}, ${t("pricing.once")}, ${t("pricing.vat")}. ${t(offerTextKeys(facts.offer).pricingSubtitle)}`;
}
