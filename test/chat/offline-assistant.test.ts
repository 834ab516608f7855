import { expect, test } from "bun:test";
import { createOfflineAssistant } from "../../server/chat/offline-assistant";
import { testConfig } from "../../server/config";
import { LOCALES } from "../../shared/locales";
import { buildSiteFacts } from "../../shared/site-facts";
import { REWORDED_QUESTIONS } from "./reworded-questions";

const site = testConfig({ SUPPORT_EMAIL: "help@stream.example" }).site;
const assistant = createOfflineAssistant(site);

/** The share that must be answered right in every language (measured: see bench/chat-offline.ts). */
const FLOOR = 0.85;

for (const locale of LOCALES) {
  test(`answers reworded questions right in ${locale} (at least ${FLOOR * 100} %)`, () => {
    const set = REWORDED_QUESTIONS[locale];
    expect(set.length).toBeGreaterThanOrEqual(10);
    const misses: string[] = [];
    for (const { question, expected } of set) {
      const got = assistant.answer(question, locale);
      const right = expected === null ? got.id === null : got.id !== null && expected.includes(got.id);
      if (!right) misses.push(`${question} -> ${got.id ?? "handover"}`);
    }
    const share = (set.length - misses.length) / set.length;
    if (share < FLOOR) console.error(`missed in ${locale}:\n${misses.join("\n")}`);
    expect(share).toBeGreaterThanOrEqual(FLOOR);
  });
}

test("hands over to the support address when nothing on the site matches", () => {
  const fr = assistant.answer("Quelle est la capitale du Pérou ?", "fr");
  expect(fr.id).toBeNull();
  expect(fr.text).toContain("help@stream.example");
  expect(fr.text).toContain("7 jours sur 7");

  const en = assistant.answer("Can you book me a taxi?", "en");
  expect(en.id).toBeNull();
  expect(en.text).toBe("I am not sure about that one. Please write to our team at help@stream.example; they answer 7 days a week.");
});

test("ignores accents and case", () => {
  const plain = assistant.answer("remboursement", "fr");
  expect(plain.id).not.toBeNull();
  expect(assistant.answer("REMBOURSEMENT", "fr").id).toBe(plain.id);
  expect(assistant.answer("Remboursément", "fr").id).toBe(plain.id);
  expect(assistant.answer("publicite", "fr").id).toBe("benefit2");
  expect(assistant.answer("PUBLICITÉ", "fr").id).toBe("benefit2");
  expect(assistant.answer("¿cuanto CUESTA?", "es").id).toBe("price");
});

test("answers in the visitor's language with the page's own price", () => {
  for (const locale of LOCALES) {
    const price = buildSiteFacts(site, locale).price;
    const question = { fr: "Quel est le prix ?", en: "What is the price?", it: "Qual è il prezzo?", es: "¿Cuál es el precio?" }[locale];
    const got = assistant.answer(question, locale);
    expect(got.id).toBe("price");
    expect(got.text).toContain(price);
  }
  expect(assistant.answer("Quel est le prix ?", "fr").text).toStartWith("Accès à vie");
  expect(assistant.answer("What is the price?", "en").text).toStartWith("Lifetime access");
});

test("a greeting gets the greeting, thanks get a polite closing", () => {
  expect(assistant.answer("Bonjour !", "fr").text).toStartWith("Bonjour ! Je suis l'assistant");
  expect(assistant.answer("Merci beaucoup", "fr").text).toContain("help@stream.example");
  expect(assistant.answer("thanks", "en").id).toBe("thanks");
});

test("replies through the assistant interface with the last visitor message", async () => {
  const pieces: string[] = [];
  for await (const piece of assistant.reply({
    locale: "en",
    messages: [
      { role: "user", content: "Is there an offline mode?" },
      { role: "assistant", content: "Yes." },
      { role: "user", content: "Is payment secure?" },
    ],
  })) {
    pieces.push(piece);
  }
  expect(pieces.join("")).toContain("we never see or store your card number");
});

test("questions whose true answer is 'no' never get a 'yes' (the assistant quotes the page, it cannot say yes)", () => {
  const noQuestions: Record<(typeof LOCALES)[number], string[]> = {
    fr: ["Je peux payer avec PayPal ?", "Faut-il payer tous les mois ?", "Je peux payer en plusieurs fois ?", "Vous acceptez le bitcoin ?"],
    en: ["Can I pay with PayPal?", "Do I have to pay every month?", "Can I pay in instalments?", "Do you take bitcoin?"],
    it: ["Posso pagare con PayPal?", "Devo pagare ogni mese?", "Posso pagare a rate?", "Accettate bitcoin?"],
    es: ["¿Puedo pagar con PayPal?", "¿Tengo que pagar cada mes?", "¿Puedo pagar a plazos?", "¿Aceptáis bitcoin?"],
  };
  for (const locale of LOCALES) {
    for (const question of noQuestions[locale]) {
      const { text } = assistant.answer(question, locale);
      expect({ question, saysYes: /^(yes|oui|sì|si|sí)\b/i.test(text.trim()) }).toEqual({ question, saysYes: false });
    }
  }
  // Every FAQ answer stands on its own when quoted for another question: none opens with a bare yes.
  expect(assistant.answer("Can I pay with PayPal?", "en").text).toContain("by card");
});
