// Short messages for the chat's language detection (the reply's language): written by hand on
// 28 November 2026 for this, as visitors type them (no accents or with, typos, slang, two or three
// words, follow-ups), never taken from the paraphrases or any question set. Each is asked on every
// page of another language: a message's own language must win as soon as it says something, the
// page's (or the conversation's) only when the message gives no evidence (`lang: null`).
// Used by test/chat/language.test.ts and bench/chat-language.ts. A development set: its misses were
// read to tune the detection, so a new set written by someone else is the way to measure it blind.
import type { Locale } from "../../../shared/locales";

export type ShortMessage = {
  text: string;
  /** The message's own language; null when it has none (a brand, a figure): the prior language answers. */
  lang: Locale | null;
  /** The visitor's earlier messages in the conversation, oldest first. */
  before?: readonly string[];
};

const fr = (...texts: string[]): ShortMessage[] => texts.map((text) => ({ text, lang: "fr" }));
const en = (...texts: string[]): ShortMessage[] => texts.map((text) => ({ text, lang: "en" }));
const it = (...texts: string[]): ShortMessage[] => texts.map((text) => ({ text, lang: "it" }));
const es = (...texts: string[]): ShortMessage[] => texts.map((text) => ({ text, lang: "es" }));

export const SHORT_MESSAGES: readonly ShortMessage[] = [
  ...fr(
    "et si je rembourse",
    "c legal ?",
    "et pour 2 ?",
    "combien ?",
    "ça marche sur mac ?",
    "y a de la pub ?",
    "c'est cher",
    "jpeux payer en 3 fois ?",
    "et la tele ?",
    "pas reçu mon mail",
    "ma clé marche pas",
    "merci bcp",
    "c quoi le prix",
    "vous êtes qui ?",
    "remboursement svp",
    "ça coûte combien",
    "et sur la télé du salon ?",
    "c'est à vie ?",
    "faut un compte ?",
    "c'est un abonnement ?",
    "ya une appli android ?",
    "j'ai rien reçu",
    "où est ma facture",
    "c'est sûr ?",
    "hors ligne ça marche ?",
    "je comprends pas",
    "et après le 12 ?",
    "la clé fait combien de caractères",
    "et mon frère ?",
    "sans internet ?",
    "ça marche en Belgique ?",
    "c'est légal ?",
    "bjr c payant ?",
    "j'ai payé deux fois",
    "toujours rien",
    "et ma femme aussi ?",
  ),
  ...en(
    "and for 2?",
    "is it legal",
    "how much",
    "works on mac?",
    "any ads?",
    "so its lifetime?",
    "what about my tv",
    "didn't get the email",
    "my key doesnt work",
    "thanks a lot",
    "refund please",
    "who are you guys",
    "can i pay later",
    "is it safe",
    "offline too?",
    "and after that?",
    "and one more?",
    "need an account?",
    "still nothing",
    "is it a subscription",
    "where's my invoice",
    "how long is the key",
    "works in canada?",
    "charged twice",
    "what if i cancel",
    "ok and the price?",
    "free trial?",
    "sounds like a scam",
    "and on my phone",
    "too expensive",
    "do u have sports",
    "no email yet",
    "what's included",
    "hi, is it one payment?",
    "and my wife too?",
  ),
  ...it(
    "ma è legale??",
    "e per 2?",
    "quanto costa",
    "funziona su mac?",
    "ci sono pubblicità?",
    "è a vita?",
    "e sulla tv?",
    "non mi è arrivata la mail",
    "la chiave non va",
    "grazie mille",
    "rimborso per favore",
    "chi siete?",
    "posso pagare dopo?",
    "è sicuro?",
    "anche offline?",
    "e dopo?",
    "e uno in più?",
    "serve un account?",
    "ancora niente",
    "è un abbonamento?",
    "dov'è la fattura",
    "quanto è lunga la chiave",
    "funziona in svizzera?",
    "addebitato due volte",
    "e se disdico?",
    "ok e il prezzo?",
    "prova gratis?",
    "mi sembra una truffa",
    "e sul telefono",
    "troppo caro",
    "avete lo sport?",
    "cosa include",
    "ciao, si paga una volta?",
    "e se chiedo il rimborso?",
    "nn funziona",
    "ma è legale",
    "e mia moglie?",
  ),
  ...es(
    "y en la tele?",
    "es legal?",
    "y para 2?",
    "cuánto cuesta",
    "funciona en mac?",
    "hay anuncios?",
    "es para siempre?",
    "no me llegó el correo",
    "mi clave no funciona",
    "muchas gracias",
    "reembolso porfa",
    "quiénes sois?",
    "puedo pagar después?",
    "es seguro?",
    "sin internet también?",
    "y después?",
    "y uno más?",
    "hace falta cuenta?",
    "sigue sin llegar",
    "es una suscripción?",
    "dónde está la factura",
    "cuántos caracteres tiene la clave",
    "funciona en méxico?",
    "me cobraron dos veces",
    "y si cancelo?",
    "vale y el precio?",
    "prueba gratis?",
    "parece una estafa",
    "y en el móvil",
    "muy caro",
    "tienen fútbol?",
    "qué incluye",
    "hola, es un solo pago?",
    "y si me arrepiento",
    "no va",
    "y mi mujer?",
  ),
  // No language of their own: the page's, or the one the visitor wrote in before.
  ...[
    "PayPal?",
    "29,99 ?",
    "iPhone ?",
    "Netflix",
    "4K?",
    "Samsung",
    "Android TV",
    "HD",
    "Apple TV?",
    "???",
    "Roku",
    "iPad",
    "Chromecast",
    "ok",
  ].map((text): ShortMessage => ({ text, lang: null })),
  // A clear earlier message sets the conversation's language; a short one says nothing against it.
  { text: "PayPal?", lang: "en", before: ["how much is it?"] },
  { text: "iPad?", lang: "es", before: ["¿funciona en la tele?"] },
  { text: "4K ?", lang: "fr", before: ["ça marche sur quoi ?"] },
  { text: "Samsung?", lang: "it", before: ["funziona sulla tv?"] },
  // The message's own language over the conversation's.
  { text: "ma è legale??", lang: "it", before: ["how much is it?"] },
  { text: "and for 2?", lang: "en", before: ["c'est combien ?"] },
  { text: "y en la tele?", lang: "es", before: ["does it work on mac?"] },
  { text: "et si je rembourse", lang: "fr", before: ["quanto costa?"] },
];

export type LanguageMiss = { text: string; page: Locale; before: readonly string[]; expected: Locale; got: Locale };

/**
 * Every message asked on every page of another language (a message without a language on every
 * page): the language each reply is written in, against the one expected.
 */
export function scoreLanguages(
  replyLanguage: (text: string, page: Locale, before: readonly string[]) => Locale,
  pages: readonly Locale[],
): { asked: number; misses: LanguageMiss[] } {
  let asked = 0;
  const misses: LanguageMiss[] = [];
  for (const { text, lang, before = [] } of SHORT_MESSAGES) {
    for (const page of pages) {
      if (page === lang) continue;
      const expected = lang ?? page;
      const got = replyLanguage(text, page, before);
      asked++;
      if (got !== expected) misses.push({ text, page, before, expected, got });
    }
  }
  return { asked, misses };
}
