import type { Config } from "../../../server/platform/config";
import { COMPILED } from "../../../server/site/locales";
import { siteTranslator } from "../../../shared/i18n";
import { LOCALES, type Locale } from "../../../shared/locales";
import { pathFor } from "../../../shared/routes";
import { buildSiteFacts } from "../../../shared/site-facts";
import { testContent } from "../../support/content";

// How a support-chat answer is judged: by the fact it must carry, in the language of the
// question, never by which entry of the assistant produced it. The same judge scores the offline
// assistant in bench/chat-offline.ts and in test/chat/held-out.test.ts, and could score Claude's.

/**
 * What visitors ask about, as the issue lists it, plus anything off-topic. Added after the new-user
 * trial: how many devices a key works on ("device-limit"), what to do when the app says the limit is
 * reached ("limit-reached"), and sharing the licence with others ("sharing").
 */
export const INTENTS = [
  "price",
  "payment-methods",
  "one-time",
  "renewal",
  "refund",
  "devices",
  "device-limit",
  "limit-reached",
  "sharing",
  "installation",
  "delivery",
  "not-received",
  "offline",
  "ads",
  "catalogue",
  "legality",
  "support",
  "cancel",
  "security",
  "off-topic",
  // Added with the topic classifier: facts the site states that had no answer before.
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
  // Questions about the product that the site's texts do not settle (student discount, parental
  // controls, a country...): the right reply is the hand-over.
  "unanswerable",
] as const;
export type Intent = (typeof INTENTS)[number];

/**
 * One question as a visitor would type it. `lang` is the language it is written in (the answer
 * must be in it), `page` the language of the page it is asked on (default: the same), `no` marks a
 * question whose true answer is "no" (the reply must never open with a yes).
 */
export type ChatQuestion = {
  q: string;
  lang: Locale;
  page?: Locale;
  intent: Intent;
  /**
   * A second thing the message asks: the reply must carry its fact too, and may be twice as long.
   * When one of the two is a question the site cannot answer, the reply answers the other and
   * hands over the rest.
   */
  also?: Intent;
  no?: true;
  /**
   * The visitor's earlier messages in the same conversation, oldest first: `q` is a follow-up that
   * only makes sense after them. Whoever asks it sends these first, one by one, through the same
   * endpoint, so the assistant's own earlier replies are part of the conversation as in the chat
   * window. The judge reads only the reply to `q`.
   */
  before?: readonly string[];
};

/** Questions the site itself cannot answer: the reply says so and hands over to the support address. */
export const HANDOVER_INTENTS: ReadonlySet<Intent> = new Set<Intent>(["catalogue", "legality", "off-topic", "unanswerable"]);

/** A reply of more than this is not a chat answer but a dump of everything (which would pass any check). */
export const MAX_ANSWER_CHARS = 450;

type Words = Record<Locale, RegExp>;

const ONCE: Words = {
  fr: /une (seule )?fois|paiement unique/i,
  en: /\bonce\b|one-time|single payment/i,
  it: /una (sola )?volta|pagamento unico/i,
  es: /una (sola )?vez|pago único/i,
};
const SUBSCRIPTION: Words = { fr: /abonnement/i, en: /subscription/i, it: /abbonamento/i, es: /suscripción/i };
const CARD: Words = { fr: /\bcarte\b/i, en: /\bcard\b/i, it: /\bcarta\b/i, es: /\btarjeta\b/i };
const CARD_NUMBER: Words = {
  fr: /numéro de carte/i,
  en: /card number/i,
  it: /numero della (tua )?carta|numero di carta/i,
  es: /número de (tu )?tarjeta/i,
};
const DEVICES: Words = { fr: /appareils/i, en: /devices/i, it: /dispositivi/i, es: /dispositivos/i };
/** The licence is personal (terms of sale, "Licence"). */
const PERSONAL: Words = { fr: /personnelle/i, en: /personal/i, it: /personale/i, es: /personal/i };
const SEVEN_DAYS: Words = { fr: /7 jours/i, en: /7 days|7-day/i, it: /7 giorni/i, es: /7 días/i };
const MINUTES: Words = { fr: /minutes/i, en: /minutes/i, it: /minuti/i, es: /minutos/i };
const TWO_MINUTES: Words = { fr: /2 minutes/i, en: /2 minutes/i, it: /2 minuti/i, es: /2 minutos/i };
const EMAIL_WORD: Words = { fr: /e-?mail/i, en: /e-?mail/i, it: /e-?mail/i, es: /e-?mail|correo/i };
const DOWNLOAD: Words = { fr: /télécharg/i, en: /download/i, it: /scaric/i, es: /descarg/i };
const NO_ADS: Words = {
  fr: /sans publicité|aucune pub/i,
  en: /no ads|no advertising|without ads/i,
  it: /nessuna pubblicità|zero pubblicità|senza pubblicità/i,
  es: /sin publicidad|ni anuncios|sin anuncios/i,
};

const FOURTEEN_DAYS: Words = { fr: /14 jours/i, en: /14 days/i, it: /14 giorni/i, es: /14 días/i };
const RECEIPT: Words = { fr: /reçu/i, en: /receipt/i, it: /ricevuta/i, es: /recibo/i };
const VAT: Words = { fr: /TVA/, en: /VAT/, it: /IVA/, es: /IVA/ };
const LICENCE_KEY: Words = { fr: /clé de licence/i, en: /licence key/i, it: /chiave di licenza/i, es: /clave de licencia/i };
const NO_ACCOUNT: Words = { fr: /pas de compte/i, en: /no account/i, it: /nessun account/i, es: /ninguna cuenta/i };
const HD: Words = { fr: /\bHD\b/, en: /\bHD\b/, it: /\bHD\b/, es: /\bHD\b/ };
const CONFORMITY: Words = { fr: /conformité/i, en: /conformity/i, it: /conformità/i, es: /conformidad/i };
const MEDIATOR: Words = { fr: /médiateur/i, en: /mediator/i, it: /mediatore/i, es: /mediador/i };
const FRENCH_LAW: Words = { fr: /droit français/i, en: /French law/i, it: /legge francese/i, es: /ley francesa/i };
const COOKIES: Words = { fr: /cookie/i, en: /cookie/i, it: /cookie/i, es: /cookie/i };
const LEGAL_NOTICE: Words = { fr: /Mentions légales/i, en: /Legal notice/i, it: /Note legali/i, es: /Aviso legal/i };
const KEY_FORMAT: Words = { fr: /25 lettres/i, en: /25 letters/i, it: /25 lettere/i, es: /25 letras/i };
const DEMO: Words = { fr: /démo/i, en: /demo/i, it: /demo/i, es: /demo/i };

/** Words common in one language and absent from the three others: enough to tell a reply's language. */
const LANGUAGE_WORDS: Record<Locale, ReadonlySet<string>> = {
  fr: new Set("vous votre vos nous notre est les des une pas pour avec dans aux sur ou et à du ne je très êtes écrivez jours".split(" ")),
  en: new Set("the you your we our is are and to of for with it not please days".split(" ")),
  it: new Set(
    "che per di e è gli della delle dei degli sono tuo tua ti vostro nostro alla nella non ci ogni da mai nessun nessuna niente anche più poi tutto sul sulla scrivi giorni".split(
      " ",
    ),
  ),
  es: new Set("el los las para por tu su nuestro nuestra y está puedes escribe días".split(" ")),
};

/** The language a reply is written in, by its commonest words (addresses and paths left out). */
export function languageOf(text: string): Locale | null {
  const tokens = text
    .replace(/\S+@\S+|\/\S*/g, " ")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  const scores = (Object.keys(LANGUAGE_WORDS) as Locale[]).map((locale) => ({
    locale,
    score: tokens.filter((t) => LANGUAGE_WORDS[locale].has(t)).length,
  }));
  scores.sort((a, b) => b.score - a.score);
  const [first, second] = scores;
  if (first === undefined || first.score === 0 || (second !== undefined && second.score === first.score)) return null;
  return first.locale;
}

/** A reply that opens (or opens a sentence) with a yes. */
export function saysYes(text: string): boolean {
  return /(^|[.!?:;]\s*)(yes|yeah|sure|oui|sì|sí)(?![\p{L}])/iu.test(text.trim());
}

const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
/** A site path written as a path of its own ("/access", not the end of "/en/access"). */
const sitePath = (path: string) => new RegExp(`(^|[\\s(«"'])${path.replace(/\//g, "\\/")}(?![\\w/-])`);

/**
 * `handedOver`: the reply gives the question to the support address; `otherTopic`: a wrong reply
 * that is not a hand-over, so the visitor read another topic's answer (worse than a hand-over).
 */
export type Verdict = { right: boolean; yesToNo: boolean; handedOver: boolean; otherTopic: boolean; problems: string[] };

export type Judge = (question: ChatQuestion, answer: string) => Verdict;

/** A judge for the site as configured: the facts it checks for are that configuration's. */
export function createJudge(config: Pick<Config, "site" | "licenseActivationLimit" | "contentSeed">): Judge {
  const { licenseActivationLimit } = config;
  // The facts of the content a fresh site publishes with this environment.
  const site = testContent(config).current().site;
  const contexts = new Map<Locale, ReturnType<typeof makeContext>>();
  const context = (lang: Locale) => {
    let made = contexts.get(lang);
    if (made === undefined) {
      made = makeContext(lang);
      contexts.set(lang, made);
    }
    return made;
  };
  function makeContext(lang: Locale) {
    const facts = buildSiteFacts(site, lang);
    const t = siteTranslator(lang, COMPILED[lang], facts);
    return {
      price: literal(facts.price),
      email: literal(facts.supportEmail),
      hours: literal(t("supportHours")),
      deviceLimit: new RegExp(`\\b${licenseActivationLimit} ${DEVICES[lang].source}`, "i"),
      accessPath: sitePath(pathFor("access", lang)),
      // What the terms tell a buyer who replaced their devices: the access e-mail's "manage my
      // devices" link, where they free a device themselves.
      devicesLink: new RegExp(literal(t("mail.access.devicesLink")).source, "i"),
      guidePath: sitePath(pathFor("guide", lang)),
      // The hand-overs: "the site does not say, write to us", "not sure, write to us", and the
      // catalogue's and legality's own. The wrong reply to anything the site does answer.
      handovers: [
        ...(
          [
            "chat.handover",
            "chat.notSure",
            "chat.notSureRest",
            "chat.handoverRest",
            "chat.answer.catalogue",
            "chat.answer.legality",
            "chat.answer.languagesTitles",
          ] as const
        ).map((key) => literal(t(key).slice(0, 24))),
        // Whether a given discount code exists: the payment page tells, the chat cannot.
        literal(t("chat.answer.codeCheck", { path: pathFor("payment", lang) }).slice(0, 24)),
      ],
      offerEnd: facts.offer.on ? literal(facts.offer.endsOn) : null,
    };
  }

  const mustCarry = (intent: Intent, lang: Locale): [string, RegExp][] => {
    const c = context(lang);
    switch (intent) {
      case "price":
        return [["price", c.price]];
      case "payment-methods":
        return [["card", CARD[lang]]];
      case "one-time":
        return [
          ["price", c.price],
          ["once", ONCE[lang]],
        ];
      case "renewal":
        return [["once", ONCE[lang]]];
      case "refund":
        return [
          ["7 days", SEVEN_DAYS[lang]],
          ["support address", c.email],
        ];
      case "devices":
        return [
          ["Android", /Android/],
          ["Mac", /\bMac\b/],
        ];
      case "device-limit":
        return [["device limit", c.deviceLimit]];
      case "limit-reached":
        return [
          ["device limit", c.deviceLimit],
          ["manage my devices link", c.devicesLink],
          ["support address", c.email],
        ];
      case "sharing":
        return [
          ["personal licence", PERSONAL[lang]],
          ["device limit", c.deviceLimit],
        ];
      case "installation":
        return [
          ["2 minutes", TWO_MINUTES[lang]],
          ["guide page", c.guidePath],
        ];
      case "delivery":
        return [
          ["e-mail", EMAIL_WORD[lang]],
          ["minutes", MINUTES[lang]],
        ];
      case "not-received":
        return [
          ["access page", c.accessPath],
          ["support address", c.email],
        ];
      case "offline":
        return [["download", DOWNLOAD[lang]]];
      case "ads":
        return [["no ads", NO_ADS[lang]]];
      case "support":
        return [
          ["support address", c.email],
          ["hours", c.hours],
        ];
      case "cancel":
        return [
          ["no subscription", SUBSCRIPTION[lang]],
          ["support address", c.email],
        ];
      case "security":
        return [["card number", CARD_NUMBER[lang]]];
      case "withdrawal":
        return [
          ["14 days", FOURTEEN_DAYS[lang]],
          ["7 days", SEVEN_DAYS[lang]],
        ];
      case "receipt":
        return [
          ["receipt", RECEIPT[lang]],
          ["VAT", VAT[lang]],
        ];
      case "offer":
        return [["price", c.price], ...(c.offerEnd === null ? [] : ([["offer end", c.offerEnd]] as [string, RegExp][]))];
      case "account":
        return [
          ["no account", NO_ACCOUNT[lang]],
          ["licence key", LICENCE_KEY[lang]],
        ];
      case "includes":
        return [
          ["price", c.price],
          ["HD", HD[lang]],
        ];
      case "conformity":
        return [
          ["conformity", CONFORMITY[lang]],
          ["support address", c.email],
        ];
      case "complaints":
        return [
          ["mediator", MEDIATOR[lang]],
          ["support address", c.email],
        ];
      case "law":
        return [["French law", FRENCH_LAW[lang]]];
      case "privacy":
        return [
          ["cookies", COOKIES[lang]],
          ["support address", c.email],
        ];
      case "seller":
        return [["legal notice", LEGAL_NOTICE[lang]]];
      case "key":
        return [["key format", KEY_FORMAT[lang]]];
      case "trial":
        return [
          ["demo", DEMO[lang]],
          ["7 days", SEVEN_DAYS[lang]],
        ];
      case "catalogue":
      case "legality":
      case "off-topic":
      case "unanswerable":
        return [["support address", c.email]];
    }
  };

  return (question, answer) => {
    const problems: string[] = [];
    const carried = [...mustCarry(question.intent, question.lang), ...(question.also ? mustCarry(question.also, question.lang) : [])];
    for (const [name, pattern] of carried) {
      if (!pattern.test(answer)) problems.push(`lacks ${name}`);
    }
    const c = context(question.lang);
    const handedOver = LOCALES.some((locale) => context(locale).handovers.some((handover) => handover.test(answer)));
    const asked = question.also === undefined ? [question.intent] : [question.intent, question.also];
    const unanswerable = asked.filter((intent) => HANDOVER_INTENTS.has(intent)).length;
    if (unanswerable === asked.length) {
      // Nothing the site knows is offered as if it answered this question.
      if (c.price.test(answer)) problems.push("quotes the price");
      if (c.accessPath.test(answer)) problems.push("points to the access page");
      if (!handedOver) problems.push("answers another question instead of handing over");
    } else if (unanswerable > 0) {
      // One of two questions the site answers (its facts are checked above), the other it cannot:
      // that part goes to the support address.
      if (!handedOver) problems.push("answers one question and does not hand the other over");
    } else if (handedOver) {
      problems.push("hands over although the site answers this");
    }
    const language = languageOf(answer);
    if (language !== question.lang) problems.push(`written in ${language ?? "no clear language"}, asked in ${question.lang}`);
    const longest = MAX_ANSWER_CHARS * (question.also ? 2 : 1);
    if (answer.length > longest) problems.push(`${answer.length} characters long`);
    const yesToNo = question.no === true && saysYes(answer);
    if (yesToNo) problems.push("says yes to a no");
    const right = problems.length === 0;
    return { right, yesToNo, handedOver, otherTopic: !right && !handedOver, problems };
  };
}
