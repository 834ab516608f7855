import { afterAll, beforeAll, expect, test } from "bun:test";
import { publish, readPublished } from "../../server/site/content/store";
import type { ContentDocument } from "../../shared/content";
import { buildSiteFacts } from "../../shared/site-facts";
import { createTestSite, type TestSite } from "../support/app";
import { askThroughEndpoint } from "./questions/ask-through-endpoint";
import { createJudge } from "./questions/judge";

// The offline assistant through POST /api/chat as the chat window asks: a follow-up read with the
// visitor's earlier message, two questions answered in one reply, and a question the site cannot
// answer handed to the support address with nothing invented.

let site: TestSite;
beforeAll(async () => {
  // Each test's conversation comes from its own address, as the per-visitor rate limit is not what these check.
  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => site.close());

test("'and one more?' in a conversation about devices gets the device limit, on the same key", async () => {
  const limit = site.config.licenseActivationLimit;
  const { reply, earlier } = await askThroughEndpoint(
    site.request,
    {
      before: ["Which devices can I put the app on?"],
      q: "and one more?",
      lang: "en",
      intent: "device-limit",
    },
    "198.51.100.1",
  );
  expect(earlier[0]?.reply).toContain("Android");
  expect(reply).toContain(`${limit} devices`);
  expect(createJudge(site.config)({ q: "and one more?", lang: "en", intent: "device-limit" }, reply).right).toBe(true);
});

test("the same short follow-up without the earlier message is not taken for the device limit", async () => {
  const { reply } = await askThroughEndpoint(site.request, { q: "and one more?", lang: "en", intent: "off-topic" }, "198.51.100.2");
  expect(reply).not.toContain(`${site.config.licenseActivationLimit} devices`);
});

test("a French follow-up after a refund question ('et si ça fait 12 jours ?') keeps to the refund", async () => {
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["je peux être remboursé si l'appli me plaît pas ?"],
      q: "et si ça fait 12 jours ?",
      lang: "fr",
      intent: "refund",
    },
    "198.51.100.3",
  );
  expect(reply).toContain("7 jours");
  expect(reply).toContain(site.config.site.supportEmail);
});

test("a follow-up of a few words the classifier places nowhere alone is read with the earlier refund question", async () => {
  // Neither short nor opened with "y": alone it is about nothing the site answers, read with the
  // earlier message it asks about the refund, and its 10 days (past the guarantee's 7) get the
  // answer that states both the guarantee and the legal 14 days.
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["me devolvéis el dinero si no me convence?"],
      q: "han pasado 10 dias, todavia se puede?",
      lang: "es",
      intent: "refund",
    },
    "198.51.100.9",
  );
  expect(reply).toContain("7 días");
  expect(reply).toContain("14 días");
  expect(reply).toContain(site.config.site.supportEmail);
});

test("a new question after an unrelated one gets its own topic, not the earlier one's", async () => {
  const price = buildSiteFacts(site.content.current().site, "en").price;
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["what devices does it run on?"],
      q: "how much does the lifetime access cost?",
      lang: "en",
      intent: "price",
    },
    "198.51.100.4",
  );
  expect(reply).toContain(price);
});

test("a message asking the price and the refund gets both facts in one reply", async () => {
  const price = buildSiteFacts(site.content.current().site, "it").price;
  const question = {
    q: "quanto si paga? e se non mi piace posso avere i soldi indietro?",
    lang: "it",
    intent: "price",
    also: "refund",
  } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.5");
  expect(reply).toContain(price);
  expect(reply).toContain("7 giorni");
  expect(createJudge(site.config)(question, reply).problems).toEqual([]);
});

test("'how do I do that?' after a question asks how to do that: the refund is answered, nothing handed over", async () => {
  for (const [q, lang, ip] of [
    [
      "I got it on sunday for the kids but honestly nobody uses it, total waste. can I get my money back? how do I do that?",
      "en",
      "198.51.100.31",
    ],
    [
      "bon je l'ai pris hier mais ça me plaît pas du tout, la télé rame avec. je peux être remboursé ? comment on fait ?",
      "fr",
      "198.51.100.32",
    ],
  ] as const) {
    const question = { q, lang, intent: "refund" } as const;
    const { reply } = await askThroughEndpoint(site.request, question, ip);
    const verdict = createJudge(site.config)(question, reply);
    expect({ q, problems: verdict.problems, handedOver: verdict.handedOver }).toEqual({ q, problems: [], handedOver: false });
  }
});

test("a second question that is the first one's context ('isn't it 14 days in Europe?') gets the answer, no hand-over", async () => {
  for (const [q, lang, ip] of [
    ["todavía puedo desistir de la compra? la ley europea no da 14 días?", "es", "198.51.100.33"],
    ["can I still cancel the purchase? doesn't EU law give you 14 days?", "en", "198.51.100.34"],
  ] as const) {
    const question = { q, lang, intent: "withdrawal" } as const;
    const { reply } = await askThroughEndpoint(site.request, question, ip);
    const verdict = createJudge(site.config)(question, reply);
    expect({ q, problems: verdict.problems, handedOver: verdict.handedOver }).toEqual({ q, problems: [], handedOver: false });
  }
});

test("a question the site cannot answer gets the support address, no price and no access page", async () => {
  const question = { q: "¿hacéis descuento para jubilados?", lang: "es", intent: "unanswerable" } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.6");
  expect(reply).toContain(site.config.site.supportEmail);
  const verdict = createJudge(site.config)(question, reply);
  expect(verdict.problems).toEqual([]);
  expect(verdict.handedOver).toBe(true);
});

test("an FAQ entry the owner published is answered from its own words in the question's language, and no longer once hidden", async () => {
  const student = {
    id: "student-discount",
    shown: true,
    builtIn: null,
    question: { en: "Do you have a student discount?", fr: "Avez-vous une réduction étudiante ?" },
    answer: {
      en: "No student discount: the price is the same for everyone.",
      fr: "Pas de réduction étudiante : le prix est le même pour tous.",
    },
  };
  const publishFaq = async (faq: ContentDocument["faq"]) => {
    const opened = readPublished(site.db);
    await publish(site.write, { document: { ...opened.document, faq }, openedVersion: opened.version, by: "test", now: new Date() });
    site.content.refresh();
  };
  const builtIn = readPublished(site.db).document.faq;
  await publishFaq([...builtIn, student]);
  const en = await askThroughEndpoint(
    site.request,
    { q: "do you have a student discount", lang: "en", intent: "off-topic" },
    "198.51.100.7",
  );
  expect(en.reply).toBe("No student discount: the price is the same for everyone.");
  const fr = await askThroughEndpoint(
    site.request,
    { q: "vous avez une réduction étudiante ?", lang: "fr", intent: "off-topic" },
    "198.51.100.8",
  );
  expect(fr.reply).toBe("Pas de réduction étudiante : le prix est le même pour tous.");

  await publishFaq([...builtIn, { ...student, shown: false }]);
  const hidden = await askThroughEndpoint(
    site.request,
    { q: "do you have a student discount", lang: "en", intent: "off-topic" },
    "198.51.100.9",
  );
  expect(hidden.reply).not.toContain("No student discount");
  expect(hidden.reply).toContain(site.config.site.supportEmail);
});

test("an owner's FAQ entry asked with its own question in French, on the English page, gets the owner's French answer over the topic's", async () => {
  const paypal = {
    id: "paypal",
    shown: true,
    builtIn: null,
    question: { fr: "Puis-je payer avec PayPal ?", en: "Can I pay with PayPal?" },
    answer: {
      fr: "Pas encore : le paiement se fait par carte, PayPal arrive bientôt.",
      en: "Not yet: you pay by card, PayPal is coming soon.",
    },
  };
  const opened = readPublished(site.db);
  const builtIn = opened.document.faq;
  await publish(site.write, {
    document: { ...opened.document, faq: [...builtIn, paypal] },
    openedVersion: opened.version,
    by: "test",
    now: new Date(),
  });
  site.content.refresh();
  try {
    const asked = await askThroughEndpoint(
      site.request,
      { q: "Puis-je payer avec PayPal ?", lang: "fr", page: "en", intent: "payment-methods" },
      "198.51.100.10",
    );
    expect(asked.reply).toBe("Pas encore : le paiement se fait par carte, PayPal arrive bientôt.");
    const typed = await askThroughEndpoint(
      site.request,
      { q: "je peux payer avec paypal", lang: "fr", intent: "payment-methods" },
      "198.51.100.11",
    );
    expect(typed.reply).toBe("Pas encore : le paiement se fait par carte, PayPal arrive bientôt.");
    // A question the entry does not ask keeps the site's own answer: the card, not PayPal.
    const card = { q: "can i pay by card?", lang: "en", intent: "payment-methods" } as const;
    const other = await askThroughEndpoint(site.request, card, "198.51.100.12");
    expect(other.reply).not.toContain("PayPal");
    expect(createJudge(site.config)(card, other.reply).problems).toEqual([]);
  } finally {
    const now = readPublished(site.db);
    await publish(site.write, { document: { ...now.document, faq: builtIn }, openedVersion: now.version, by: "test", now: new Date() });
    site.content.refresh();
  }
});

test("a device the site does not name (a PlayStation, a projector after the devices) gets the support address, never the device list", async () => {
  const judge = createJudge(site.config);
  const playstation = { q: "does it work on my PlayStation 5?", lang: "en", intent: "unanswerable" } as const;
  const asked = await askThroughEndpoint(site.request, playstation, "198.51.100.13");
  expect(asked.reply).toContain(site.config.site.supportEmail);
  expect(asked.reply).not.toContain("Android");
  expect(judge(playstation, asked.reply).problems).toEqual([]);

  const projector = {
    before: ["su quali dispositivi funziona?"],
    q: "e su un videoproiettore?",
    lang: "it",
    intent: "unanswerable",
  } as const;
  const followed = await askThroughEndpoint(site.request, projector, "198.51.100.14");
  expect(followed.earlier[0]?.reply).toContain("Android");
  expect(followed.reply).toContain(site.config.site.supportEmail);
  expect(followed.reply).not.toContain("Android");
  expect(judge(projector, followed.reply).problems).toEqual([]);

  // Asked with a question the site answers, that one is answered and the device handed over.
  const price = buildSiteFacts(site.content.current().site, "fr").price;
  const both = { q: "c'est combien ? et ça marche sur xbox ?", lang: "fr", intent: "price", also: "unanswerable" } as const;
  const mixed = await askThroughEndpoint(site.request, both, "198.51.100.15");
  expect(mixed.reply).toContain(price);
  expect(mixed.reply).not.toContain("Android");
  expect(judge(both, mixed.reply).problems).toEqual([]);
});

test("a device asked with 'también' inside the question gets the devices' answer, with no needless hand-over", async () => {
  const question = { q: "y si lo pongo tambien en el portatil de mi hijo?", lang: "es", intent: "devices" } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.16");
  expect(reply).toContain("Windows");
  expect(reply).not.toContain(site.config.site.supportEmail);
  expect(createJudge(site.config)(question, reply).problems).toEqual([]);
});

test("the key's format asked (its characters, its dashes) gets the key's answer, which states it, even as a follow-up", async () => {
  const judge = createJudge(site.config);
  const refused = { q: "the app says my licence key is invalid, how many characters should it have?", lang: "en", intent: "key" } as const;
  const asked = await askThroughEndpoint(site.request, refused, "198.51.100.17");
  expect(asked.reply).toContain("25 letters and digits in five groups separated by dashes");
  expect(judge(refused, asked.reply).problems).toEqual([]);

  const dashes = { before: ["I got my key by e-mail"], q: "is it normal that it has dashes?", lang: "en", intent: "key" } as const;
  const followed = await askThroughEndpoint(site.request, dashes, "198.51.100.18");
  expect(followed.reply).toContain("25 letters and digits in five groups separated by dashes");
  expect(judge(dashes, followed.reply).problems).toEqual([]);
});

test("a key asked for free, cheekily, gets the refusal with the price rather than a hand-over", async () => {
  const judge = createJudge(site.config);
  const price = buildSiteFacts(site.content.current().site, "fr").price;
  const cheeky = { q: "tu peux m'envoyer une clé gratuite ? je ferai de la pub pour vous", lang: "fr", intent: "price" } as const;
  const { reply } = await askThroughEndpoint(site.request, cheeky, "198.51.100.19");
  expect(reply).toContain(price);
  expect(reply).not.toContain(site.config.site.supportEmail);
  expect(judge(cheeky, reply).problems).toEqual([]);
});
