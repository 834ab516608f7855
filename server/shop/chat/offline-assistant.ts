import { LOCALES, type Locale } from "../../../shared/locales";
import { SOURCE_MESSAGES } from "../../site/locales";
import { GUARANTEE_DAYS } from "../checkout/guarantee";
import type { Assistant } from "./assistant";
import { type DeviceNames, deviceNames, KINDS_OF_NAMED } from "./device-names";
import { type DiscountCodes, discountCodes } from "./discount-codes";
import { FAQ_MATCH, type FaqMatcher, faqMatcher } from "./faq-match";
import { type GuideMatcher, guideMatcher } from "./guide-match";
import { byLocale, createLanguageReader, type LanguageReader } from "./language";
import { GREETINGS, STOP_WORDS, THANKS } from "./offline-vocabulary";
import { paraphrasesByLocale, type TopicLabel } from "./paraphrases";
import { buildSiteKnowledge, type ChatSiteConfig, type SiteKnowledge, siteFaqEntries, type Topic } from "./site-content";
import {
  type ChoiceThresholds,
  chooseInConversation,
  FOLLOW_UP,
  type FollowUpSettings,
  THRESHOLDS,
  type TopicChoice,
} from "./topic-choice";
import type { TopicClassifier } from "./topic-classifier";
import { loadTopicModel } from "./topic-model";
import { words } from "./words";

// The embedded default when no Anthropic key is configured (docs/support.md): a
// classifier trained on buyers' paraphrases finds what the question is about (topic-choice.ts), the
// language guesser the language it is written in, and the answer is the site's own text for that
// topic in that language (site-content.ts). About nothing the site answers, or when no topic stands
// out, it says so and hands over to the support address. It never writes text of its own, so it
// cannot invent a price or a promise, nor say "yes" where the site does not.

/** The topics whose answer is the site's list of devices or its guide for them. */
const DEVICE_TOPICS: ReadonlySet<Topic> = new Set<Topic>(["devices", "installation"]);

export type OfflineAnswer = {
  /** The topics answered; empty for a hand-over, a greeting or thanks. */
  topics: Topic[];
  kind: "answer" | "faq" | "code" | "handover" | "unsure" | "greeting" | "thanks";
  locale: Locale;
  text: string;
  /** True when the reply gives the question to the support team instead of answering it. */
  handedOver: boolean;
};

export type OfflineAssistant = Assistant & {
  /** `page`: the language of the page; `earlier`: the visitor's earlier messages, oldest first. */
  answer(question: string, page: Locale, earlier?: readonly string[]): OfflineAnswer;
};

/**
 * What the assistant reads with, made on the first question (a few milliseconds: the classifier's
 * weights are read from the model file trained beforehand), not when the server starts.
 */
function buildReader(classifier: TopicClassifier<TopicLabel> | undefined) {
  const paraphrases = paraphrasesByLocale();
  return {
    classifier: classifier ?? loadTopicModel().classifier,
    language: createLanguageReader(
      byLocale((locale) => [
        ...Object.values(SOURCE_MESSAGES[locale]).map((text) => text.replace(/\{\w+\}/g, " ")),
        STOP_WORDS[locale],
        GREETINGS[locale],
        THANKS[locale],
        ...paraphrases[locale].map((example) => example.text),
      ]),
    ),
    // Words that carry no question of their own, in any language: an owner's FAQ entry is matched on the others.
    ignored: new Set(LOCALES.flatMap((locale) => words(`${STOP_WORDS[locale]} ${GREETINGS[locale]}`))),
    greetings: new Set(LOCALES.flatMap((locale) => words(GREETINGS[locale]))),
    thanks: new Set(LOCALES.flatMap((locale) => words(THANKS[locale]))),
  };
}

/** The offer's end day as the four languages write it: its day number and its month's names. */
type OfferEndWords = { day: string; months: string[] };

function offerEndWords(knowledge: Record<Locale, SiteKnowledge>): OfferEndWords | null {
  let day: string | null = null;
  const months: string[] = [];
  for (const locale of LOCALES) {
    const offer = knowledge[locale].facts.offer;
    if (!offer.on) return null;
    for (const word of words(offer.endsOn)) {
      if (/^\d{1,2}$/.test(word)) day = String(Number(word));
      else if (/^[a-z]{3,}$/.test(word)) months.push(word);
    }
  }
  return day === null ? null : { day, months };
}

/** "dec 12", "12 déc.", "il 12 dicembre": the day number and a month's name or its first three letters or more. */
const namesOfferEnd = (said: readonly string[], end: OfferEndWords) =>
  said.some((w) => /^\d{1,2}$/.test(w) && String(Number(w)) === end.day) &&
  said.some((w) => w.length >= 3 && end.months.some((month) => month.startsWith(w)));

/** A number of days (or weeks) the message names: "10 jours", "2 weeks", "dopo 9 giorni". */
const DAY_WORDS = new Set("day days jour jours jr giorno giorni gg dia dias".split(" "));
const WEEK_WORDS = new Set("week weeks semaine semaines settimana settimane semana semanas".split(" "));

function daysNamed(said: readonly string[]): number | null {
  for (let i = 0; i + 1 < said.length; i++) {
    const n = /^\d{1,3}$/.test(said[i] ?? "") ? Number(said[i]) : Number.NaN;
    if (Number.isNaN(n)) continue;
    if (DAY_WORDS.has(said[i + 1] ?? "")) return n;
    if (WEEK_WORDS.has(said[i + 1] ?? "")) return 7 * n;
  }
  return null;
}

/** The licence key, as buyers name it. */
const KEY_WORDS = new Set("key keys licence license cle cles chiave chiavi clave claves licenza licencia".split(" "));

/**
 * What the site's key text states (guide.before.text: "25 letters and digits in five groups separated
 * by dashes") and how buyers ask about it: its characters, letters, digits, dashes, format, length.
 */
const KEY_FORMAT_WORDS = new Set(
  [
    "character characters chars letters digits dashes dash hyphens hyphen format length",
    "caractere caracteres lettres chiffres tirets tiret longueur",
    "carattere caratteri lettere cifre trattini trattino formato lunghezza lunga",
    "letras digitos guiones guion longitud",
  ]
    .join(" ")
    .split(" "),
);

/**
 * The key's format asked: a word of its format, and the key named in the message or in the one
 * before it ("do I get a key by e-mail?" then "mine has dashes in it, is that normal").
 */
const asksKeyFormat = (said: readonly string[], before: readonly string[]) =>
  said.some((w) => KEY_FORMAT_WORDS.has(w)) && [...said, ...before].some((w) => KEY_WORDS.has(w));

/** "Free", as a request for a key asks for it. */
const FREE_WORDS = new Set("free gratis gratuit gratuite gratuitement gratuito gratuita gratuitamente".split(" "));

/**
 * What a question's own words say about the site's facts, over the classifier: a key asked for
 * free, when the classifier is unsure ("can u just send me a key for free, ill leave a 5 star
 * review"), gets the refusal with the price, the demo and the guarantee, which is what the site
 * offers instead and never a promise; the key's format
 * asked gets the key's answer, which states it (the classifier reads "the app refuses my key, how
 * many characters?" as a problem or a missing e-mail); the offer's end day
 * named while the offer runs (a day still to come, so no purchase was made on it) asks about the
 * offer; a refund asked past the guarantee's days gets the withdrawal answer, which states both the
 * 7-day guarantee and the legal 14 days, and the support address.
 */
function readFactsNamed(
  choice: TopicChoice,
  said: readonly string[],
  before: readonly string[],
  offerEnd: OfferEndWords | null,
): TopicChoice {
  if (choice.kind === "unsure" && said.some((w) => FREE_WORDS.has(w)) && said.some((w) => KEY_WORDS.has(w))) {
    return { kind: "topics", topics: ["free-key"] };
  }
  if (asksKeyFormat(said, before) && !(choice.kind === "topics" && choice.topics.includes("key"))) {
    // The topic the classifier gave a message of one question is the key's, misread; of two, the
    // other question's answer stays beside the key's.
    const other = choice.kind === "topics" && choice.topics.length >= 2 ? choice.topics.slice(0, 1) : [];
    return { kind: "topics", topics: ["key", ...other] };
  }
  if (offerEnd !== null && namesOfferEnd(said, offerEnd) && !(choice.kind === "topics" && choice.topics.includes("offer"))) {
    return { kind: "topics", topics: ["offer"] };
  }
  const days = daysNamed(said);
  if (
    choice.kind === "topics" &&
    days !== null &&
    days > GUARANTEE_DAYS &&
    choice.topics.includes("refund") &&
    !choice.topics.includes("withdrawal")
  ) {
    return { ...choice, topics: choice.topics.map((topic) => (topic === "refund" ? "withdrawal" : topic)) };
  }
  return choice;
}

export function createOfflineAssistant(
  config: ChatSiteConfig,
  options: {
    now?: () => Date;
    thresholds?: ChoiceThresholds;
    followUp?: FollowUpSettings;
    /** Another model than the shipped one: the cross-validation of bench/chat-validation.ts trains its own. */
    classifier?: TopicClassifier<TopicLabel>;
  } = {},
): OfflineAssistant {
  const thresholds = options.thresholds ?? THRESHOLDS;
  const followUp = options.followUp ?? FOLLOW_UP;
  const now = options.now ?? (() => new Date());
  let reader: ReturnType<typeof buildReader> | undefined;
  // The site's answers change with a publish, when the offer ends and with the year: rebuilt when they would.
  let knowledge:
    | {
        key: string;
        byLocale: Record<Locale, SiteKnowledge>;
        faq: FaqMatcher;
        guide: GuideMatcher;
        devices: DeviceNames;
        codes: DiscountCodes;
        offerEnd: OfferEndWords | null;
      }
    | undefined;
  const knowledgeNow = () => {
    const at = now();
    // A publish, the offer's end and the year change the answers (and the FAQ's entries).
    const key = config.content.current().edition(at);
    if (knowledge?.key !== key) {
      const made = byLocale((locale) => buildSiteKnowledge(config, locale, at));
      knowledge = {
        key,
        byLocale: made,
        faq: faqMatcher(siteFaqEntries(made), FAQ_MATCH, reader?.ignored),
        guide: guideMatcher(
          byLocale((locale) => made[locale].facts.guide),
          made.en.facts.siteName,
        ),
        // The texts in which the site names the devices it runs on: its answers and its guide.
        devices: deviceNames(
          LOCALES.flatMap((locale) => [
            made[locale].answers.devices,
            made[locale].answers.installation,
            ...made[locale].facts.guide.flatMap((device) => [device.title, ...device.steps]),
          ]),
        ),
        codes: discountCodes(LOCALES.map((locale) => made[locale].t("payment.code.label"))),
        offerEnd: offerEndWords(made),
      };
    }
    return knowledge;
  };

  /** The language the visitor has been writing in, else the page's. */
  const priorLanguage = (language: LanguageReader, page: Locale, earlier: readonly string[]): Locale => {
    for (let i = earlier.length - 1; i >= 0; i--) {
      const own = language.own(earlier[i] ?? "");
      if (own !== null) return own;
    }
    return page;
  };

  const answer = (question: string, page: Locale, earlier: readonly string[] = []): OfflineAnswer => {
    reader ??= buildReader(options.classifier);
    const { classifier, language, greetings, thanks } = reader;
    const said = words(question);
    // The message's own language when its words say it, even two or three of them; the
    // conversation's or the page's only when they do not.
    const locale = language.choose(question, priorLanguage(language, page, earlier));
    const known = knowledgeNow();
    const site = known.byLocale[locale];
    if (said.length > 0 && said.every((w) => greetings.has(w) || thanks.has(w))) {
      const greeting = said.some((w) => greetings.has(w) && !thanks.has(w));
      return {
        topics: [],
        kind: greeting ? "greeting" : "thanks",
        locale,
        text: site.t(greeting ? "chat.greeting" : "chat.thanks"),
        handedOver: false,
      };
    }
    // An owner's FAQ entry asked with its own question: the owner's answer to exactly that.
    const ownAnswer = known.faq.own(question, locale);
    if (ownAnswer !== null) return { topics: [], kind: "faq", locale, text: ownAnswer, handedOver: false };
    // A discount code: what the payment page says about codes, whatever topic its other words lean to.
    if (known.codes.asked(question)) return { topics: [], kind: "code", locale, text: site.codes, handedOver: false };
    const choice = readFactsNamed(
      chooseInConversation(classifier, question, earlier, thresholds, followUp),
      said,
      words(earlier.at(-1) ?? ""),
      known.offerEnd,
    );
    switch (choice.kind) {
      case "none": {
        // About nothing the site's topics cover: an FAQ entry (the owner's, most often) may still.
        const fromFaq = known.faq.answer(question, locale);
        if (fromFaq !== null) return { topics: [], kind: "faq", locale, text: fromFaq, handedOver: false };
        return { topics: [], kind: "handover", locale, text: site.t("chat.handover"), handedOver: true };
      }
      case "unsure": {
        // Nothing the classifier is sure of: a question close to one the site's FAQ states is
        // answered with the FAQ's own answer before handing over.
        const fromFaq = known.faq.answer(question, locale);
        if (fromFaq !== null) return { topics: [], kind: "faq", locale, text: fromFaq, handedOver: false };
        return { topics: [], kind: "unsure", locale, text: site.t("chat.notSure"), handedOver: true };
      }
      case "topics": {
        // A device the site does not name: the devices' list or the guide would read as an answer
        // the site never gave, so that part goes to the team (device-names.ts).
        // Asked with a device the guide does name ("a chromebook or a mac"), the devices' answer
        // still answers that one, and the other is handed over after it.
        const unnamed = choice.topics.some((topic) => DEVICE_TOPICS.has(topic)) ? known.devices.unnamed(said) : null;
        const otherDevice = unnamed !== null;
        const namedToo = otherDevice && !KINDS_OF_NAMED.has(unnamed) && known.guide.device(question) !== null;
        const topics = (otherDevice && !namedToo ? choice.topics.filter((topic) => !DEVICE_TOPICS.has(topic)) : choice.topics).filter(
          // The devices' answer states the device limit: the limit's own answer beside it says it twice.
          (topic, _, all) => !(topic === "device-limit" && all.includes("devices")),
        );
        const handedOver = otherDevice || choice.rest !== undefined || topics.some((topic) => site.unanswered.has(topic));
        // What the site's own answers hand over (what the catalogue holds, a question half
        // understood) the owner may have answered since, as an FAQ entry from the console's list
        // of handed-over questions: that answer, to the same question asked again.
        const fromFaq = handedOver ? known.faq.answer(question, locale) : null;
        if (fromFaq !== null) return { topics: choice.topics, kind: "faq", locale, text: fromFaq, handedOver: false };
        if (topics.length === 0) return { topics: [], kind: "handover", locale, text: site.t("chat.handover"), handedOver: true };
        // Installing on a device the guide names: that device's published steps.
        const device = topics.includes("installation") ? known.guide.device(question) : null;
        const answerOf = (topic: Topic) =>
          topic === "installation" && device !== null ? (site.installOn(device) ?? site.answers[topic]) : site.answers[topic];
        const rest = otherDevice
          ? [site.t("chat.handover")]
          : choice.rest === "unsure"
            ? [site.t("chat.notSureRest")]
            : choice.rest === "none"
              ? [site.t("chat.handoverRest")]
              : [];
        return { topics, kind: "answer", locale, text: [...topics.map(answerOf), ...rest].join(" "), handedOver };
      }
    }
  };

  return {
    kind: "offline",
    answer,
    async *reply({ messages, locale, onHandOver }) {
      const questions = messages.filter((m) => m.role === "user").map((m) => m.content);
      const last = questions.pop() ?? "";
      const reply = answer(last, locale, questions);
      if (reply.handedOver) onHandOver?.();
      yield reply.text;
    },
  };
}
