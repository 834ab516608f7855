import { expect, test } from "bun:test";
import { createOfflineAssistant } from "../../server/shop/chat/offline-assistant";
import { LOCALES } from "../../shared/locales";
import { testConfig } from "../support/config";
import { chatSite } from "../support/content";
import { scoreLanguages } from "./questions/language-short";

const assistant = createOfflineAssistant(chatSite(testConfig({ SUPPORT_EMAIL: "help@stream.example" })));

test("a short message is answered in its own language on a page of another, the page's only when it has none", () => {
  const { asked, misses } = scoreLanguages((text, page, before) => assistant.answer(text, page, before).locale, LOCALES);
  // Every message on every page of another language (512 replies): a reply in a language the
  // visitor did not write is never acceptable, so not one may miss.
  expect(asked).toBeGreaterThan(500);
  expect(misses).toEqual([]);
});

test("'ma è legale??' on the English page gets the hand-over in Italian, with the support address", () => {
  const reply = assistant.answer("ma è legale??", "en");
  expect(reply.locale).toBe("it");
  expect(reply.handedOver).toBe(true);
  expect(reply.text).toContain("help@stream.example");
  expect(reply.text).not.toMatch(/\b(je|vous|the|you)\b/i);
});

test("a brand alone takes the conversation's language, and the page's without one", () => {
  expect(assistant.answer("Apple TV?", "fr").locale).toBe("fr");
  expect(assistant.answer("Apple TV?", "fr", ["¿funciona en la tele?"]).locale).toBe("es");
  // Its own words win over the conversation's language: the visitor switched.
  expect(assistant.answer("y en la tele?", "fr", ["does it work on mac?"]).locale).toBe("es");
});
