import { createOfflineAssistant } from "../server/shop/chat/offline-assistant";
import { LOCALES } from "../shared/locales";
import { scoreLanguages } from "../test/chat/questions/language-short";
import { testConfig } from "../test/support/config";
import { chatSite } from "../test/support/content";

// The language the offline assistant replies in, for short messages asked on a page of another
// language (test/chat/questions/language-short.ts): how many replies are in the wrong language,
// each listed. Run: ./node_modules/.bin/bun bench/chat-language.ts

const assistant = createOfflineAssistant(chatSite(testConfig()));
const { asked, misses } = scoreLanguages((text, page, before) => assistant.answer(text, page, before).locale, LOCALES);
console.log(`short messages on a page of another language: ${asked - misses.length}/${asked} replies in the right language`);
for (const { text, page, before, expected, got } of misses) {
  const after = before.length > 0 ? ` after ${JSON.stringify(before)}` : "";
  console.log(`  MISS "${text}" on the ${page} page${after}: ${got}, not ${expected}`);
}
