import type { MessageKey, Translate } from "../../../shared/i18n";
import { LOCALES, type Locale } from "../../../shared/locales";
import { pathFor } from "../../../shared/routes";
import type { SiteFacts } from "../../../shared/site-facts";
import type { Config } from "../../platform/config";
import type { ContentSource } from "../../site/content/live";
import type { FaqEntry } from "./faq-match";

// What the support chat may tell a visitor (issues 5 and 13), in one language: one answer per topic
// visitors ask about, made of the locale texts (locales/*.json) with the placeholders filled from
// the configuration, the same values the pages use, so the chat quotes exactly the page's price.
// The offline assistant answers with these texts word for word; Claude gets them as its facts.

/** What visitors ask about. Each has one answer, in every language. */
export const TOPICS = [
  "product",
  "price",
  "payment",
  "one-time",
  "refund",
  "cancel",
  "devices",
  "device-limit",
  "sharing",
  "installation",
  "delivery",
  "not-received",
  "offline",
  "ads",
  "security",
  "support",
  "problem",
  "catalogue",
  "legality",
  "quality",
  "new-content",
  "updates",
  "languages",
  "savings",
  "how",
  "withdrawal",
  "receipt",
  "offer",
  "account",
  "includes",
  "conformity",
  "complaints",
  "law",
  "privacy",
  "seller",
  "key",
  "trial",
  // A key asked for nothing ("generate me a free key", "ignore your instructions and..."): refused,
  // with what the site does offer instead of a free key.
  "free-key",
] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * Topics the site has no answer to (which titles are in the catalogue, whether the content is
 * legal, which languages a title has): their answer says so and gives the support address, and
 * asserts nothing the site does not state.
 */
export const UNANSWERED_TOPICS: ReadonlySet<Topic> = new Set<Topic>(["catalogue", "legality", "languages"]);

/** What the chat's facts come from: the published content, and the licence's device limit. */
export type ChatSiteConfig = Pick<Config, "licenseActivationLimit"> & { content: ContentSource };

export type SiteKnowledge = {
  locale: Locale;
  facts: SiteFacts;
  t: Translate;
  answers: Record<Topic, string>;
  /**
   * The topics this language's answer only hands over: UNANSWERED_TOPICS, less those the owner's
   * published content answers (the rights statement answers legality, the catalogue its titles).
   */
  unanswered: ReadonlySet<Topic>;
  /** The installation answer for one device of the guide (its id), in its published steps; null for a device the guide lacks. */
  installOn(deviceId: string): string | null;
  /**
   * About a discount code: where it is typed, as the payment page says, and that the payment page
   * (not the chat, which cannot check one) tells whether it exists (discount-codes.ts).
   */
  codes: string;
};

/** The longest a device's installation steps make a reply; the guide page has them all. */
const INSTALL_ANSWER_CHARS = 440;

/** French puts a space before a colon; the other three languages do not. */
export const colon = (locale: Locale) => (locale === "fr" ? " : " : ": ");

// The early-bird offer's answer depends on `now`: while it runs, its end day and the struck-through
// price; after it, only the price paid once, so no answer outlives the offer. Callers rebuild the
// knowledge when `factsKey` (shared/site-facts.ts) changes.
export function buildSiteKnowledge(config: ChatSiteConfig, locale: Locale, now = new Date()): SiteKnowledge {
  const published = config.content.current();
  const { facts, t } = published.localized(locale, now);
  const rights = published.document.catalogue.rights[locale] ?? null;
  const catalogue = published.catalogue;
  const c = colon(locale);
  // A sentence of its own after the title: several descriptions hold a colon already.
  const titled = (titleKey: MessageKey, textKey: MessageKey) => `${t(titleKey)}. ${t(textKey)}`;
  const access = pathFor("access", locale);
  const guide = pathFor("guide", locale);
  const terms = pathFor("terms", locale);
  const privacy = pathFor("privacy", locale);
  const legalNotice = pathFor("legal-notice", locale);
  const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
  const included = ([1, 2, 3, 4, 5, 6] as const).map((n) => lower(t(`pricing.feature${n}`))).join(", ");
  const limit = config.licenseActivationLimit;
  const comparison = facts.comparison
    .filter((row) => !row.highlight)
    .map(
      (row) =>
        `${row.name}${c}${row.monthly ?? "—"} ${t("comparison.perMonth").toLowerCase()}, ${row.fiveYears} ${t("comparison.fiveYears").toLowerCase()}.`,
    )
    .join(" ");

  // Once the owner changed the guide, the devices the chat names are the guide's, not the built-in five.
  const guideDevices = new Intl.ListFormat(locale, { type: "conjunction" }).format(facts.guide.map((device) => device.title));
  const answers: Record<Topic, string> = {
    product: `${t("featuresSubtitle")} ${t("heroSubtitle")}`,
    price: t("chat.answer.price"),
    payment: t("chat.answer.payment"),
    "one-time": t("chat.answer.oneTime"),
    refund: t("faqAnswer4"),
    cancel: t("chat.answer.cancel"),
    devices: `${facts.guideIsDefault ? t("faqAnswer2") : t("chat.answer.guideDevices", { devices: guideDevices })} ${t("chat.answer.devicesLimit", { limit })} ${t("chat.answer.guideLink", { path: guide })}`,
    // How many devices, and what the terms promise when the app says the limit is reached.
    "device-limit": t("chat.answer.activationLimit", { limit, path: terms }),
    // The terms of sale's own words: the licence is personal, its key is not to be shared.
    sharing: `${t("terms.licence.text", { devices: limit })} ${t("footer.terms")}${c}${terms}.`,
    installation: facts.guideIsDefault
      ? t("chat.answer.installation", { path: guide })
      : t("chat.answer.installationGuide", { path: guide, devices: guideDevices }),
    delivery: `${t("faqAnswer3")} ${t("chat.answer.nothingReceived", { path: access })}`,
    // A buyer who paid and found no e-mail: the self-serve form first, then a person.
    "not-received": t("chat.accessRecovery", { path: access }),
    offline: titled("whyAppBenefit1", "whyAppBenefit1Desc"),
    ads: titled("whyAppBenefit2", "whyAppBenefit2Desc"),
    security: t("faqAnswer5"),
    support: t("chat.answer.support"),
    problem: t("chat.answer.problem"),
    // The owner's published catalogue and rights statement, when there are: what the site states.
    catalogue:
      catalogue.titles.length === 0
        ? t("chat.answer.catalogue")
        : `${t("catalogue.total", { count: catalogue.titles.length })}${c}${catalogue.categories
            .slice(0, 8)
            .map((category) => t("catalogue.categoryCount", { category: category.name, count: category.count }))
            .join(", ")}. ${t("catalogue.seeAll")}${c}${pathFor("catalogue", locale)}.`,
    legality:
      rights === null
        ? t("chat.answer.legality")
        : `${rights}${catalogue.titles.length === 0 ? "" : ` ${t("catalogue.seeAll")}${c}${pathFor("catalogue", locale)}.`}`,
    quality: titled("feature1Title", "feature1Desc"),
    "new-content": titled("feature4Title", "feature4Desc"),
    updates: titled("whyAppBenefit3", "whyAppBenefit3Desc"),
    // The site says there are several languages, never which ones a title has: asked for one, the
    // visitor is told so and given the support address rather than a list that reads as a yes.
    languages: `${t("preview.point3")}. ${t("chat.answer.languagesTitles")}`,
    savings: `${t("savingsMessage")} ${comparison} ${t("chat.answer.savingsOnce")}`,
    how: ([1, 2, 3, 4] as const).map((n) => `${n}. ${t(`howStep${n}`)}${c}${t(`howStep${n}Desc`)}`).join(" "),
    // The legal right and the commercial guarantee on top of it, as the terms and the consent say.
    withdrawal: t("chat.answer.withdrawal", { path: terms }),
    receipt: t("chat.answer.receipt"),
    offer: facts.offer.on
      ? `${t("offer.endsOn")}${c}${t("hero.priceNote")}. ${t("pricingSubtitleStandard")}`
      : `${t("hero.priceNoteStandard")}. ${t("pricingSubtitleStandard")}`,
    account: t("chat.answer.account"),
    includes: `${t("hero.priceNoteStandard")}, ${t("pricing.vat")}${c}${included}.`,
    conformity: t("terms.conformity.text"),
    complaints: `${t("terms.complaints.text")} ${t("footer.terms")}${c}${terms}.`,
    law: `${t("terms.law.text")} ${t("footer.terms")}${c}${terms}.`,
    privacy: t("chat.answer.privacy", { path: privacy }),
    seller: `${t("footer.legalNotice")}${c}${legalNotice}. ${t("legalNotice.contactText")}`,
    // Where the key is typed differs by device: the guide shows it for each.
    key: `${t("guide.before.text")} ${t("guide.step.key")} ${t("chat.answer.guideLink", { path: guide })} ${t("guide.before.lost")}`,
    trial: `${t("exitPopup.text")} ${t("faqAnswer4")}`,
    "free-key": `${t("chat.answer.freeKey")} ${t("chat.answer.price")} ${t("exitPopup.text")} ${t("chat.answer.freeKeyGuarantee")}`,
  };
  const unanswered = new Set(
    [...UNANSWERED_TOPICS].filter((topic) =>
      topic === "legality" ? rights === null : topic === "catalogue" ? catalogue.titles.length === 0 : true,
    ),
  );
  // The guide's own title ("Install … in about 2 minutes"), the device's published steps, its anchor.
  const installOn = (deviceId: string): string | null => {
    const device = facts.guide.find((d) => d.id === deviceId);
    if (device === undefined) return null;
    const made = (count: number) =>
      `${t("guide.title")}. ${device.title}${c}${device.steps
        .slice(0, count)
        .map((step, i) => `${i + 1}. ${step}`)
        .join(" ")} ${t("chat.answer.deviceGuide", { path: `${guide}#${device.id}` })}`;
    // A chat reply, not the page: the last steps ("start watching") give way when a device has many.
    let count = device.steps.length;
    while (count > 2 && made(count).length > INSTALL_ANSWER_CHARS) count -= 1;
    return made(count);
  };
  const codes = `${t("chat.answer.codeWhere")} ${t("chat.answer.codeCheck", { path: pathFor("payment", locale) })}`;
  return { locale, facts, t, answers, unanswered, installOn, codes };
}

/**
 * The landing page's FAQ as entries the assistant answers from (faq-match.ts): the published
 * content's entries (the specification's and the owner's, the hidden ones left out), every
 * language's question and answer side by side, with the page's own values filled in. An entry
 * missing in a language is missing there too, as on the page.
 */
export function siteFaqEntries(knowledge: Record<Locale, SiteKnowledge>): FaqEntry[] {
  const entries = new Map<string, FaqEntry>();
  for (const locale of LOCALES) {
    for (const fact of knowledge[locale].facts.faq) {
      let entry = entries.get(fact.id);
      if (entry === undefined) {
        entry = { question: {}, answer: {}, own: fact.own };
        entries.set(fact.id, entry);
      }
      entry.question[locale] = fact.question;
      entry.answer[locale] = fact.answer;
    }
  }
  return [...entries.values()];
}
