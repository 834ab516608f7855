import type { ChatQuestion } from "./judge";

// A probe set of 40 questions (10 per language), written on 2026-11-28 by the helper engineer of
// branch wt-chat BEFORE changing the assistant, and before reading its paraphrases, its classifier,
// its word lists or the held-out sets. What was read to write it: what a buyer can read (the FAQ,
// the chat's, guide's and terms' texts in locales/en.json, docs/product.md), judge.ts for which
// intent needs which fact, and the follow-up / two-question / trial-miss sets for the format only.
// Typed as buyers type (typos, no accents, slang), some on a page of another language (`page`),
// two-question messages (`also`), follow-ups (`before`), devices the site does not name (the right
// reply hands over to the support address and invents nothing).
//
// It checks whether a change generalises: it is never added to the paraphrases, nor used to choose a
// threshold or a word list. Scored by bench/chat-buyers.ts --set probe.

export const PROBE_HELPER: readonly ChatQuestion[] = [
  // French
  { q: "slt ca coute cmb exactement", lang: "fr", intent: "price" },
  { q: "ca marche sur playstation 5 ?", lang: "fr", page: "en", intent: "unanswerable" },
  { q: "je peux payer en 3 fois ? et c'est sans pub ?", lang: "fr", intent: "payment-methods", also: "ads", no: true },
  { before: ["ça marche sur quoi comme appareils"], q: "et sur mon pc portable windows ?", lang: "fr", intent: "devices" },
  { before: ["je veux un rembourssement"], q: "jai acheté avant hier", lang: "fr", intent: "refund" },
  { q: "jai pas recu mon mail avec la cle, jai payé ya 2h", lang: "fr", intent: "not-received" },
  { q: "c'est quoi le format de la clé de licence ? la mienne a des tirets", lang: "fr", intent: "key" },
  { q: "on peut le mettre sur l'écran de la voiture ?", lang: "fr", page: "es", intent: "unanswerable" },
  { q: "comment on resilie l'abonement svp", lang: "fr", intent: "cancel" },
  {
    before: ["combien d'appareils max ?"],
    q: "et si je change de telephone ? il me dit limite atteinte",
    lang: "fr",
    intent: "limit-reached",
  },
  // English
  { q: "yo does this thing work on my apple tv", lang: "en", intent: "unanswerable" },
  { q: "hw much do i pay every month??", lang: "en", intent: "one-time" },
  { q: "how long does it take to get the key after paying and do I need an account", lang: "en", intent: "delivery", also: "account" },
  { before: ["how many devices can i use"], q: "what if i want to add my kids tablet too?", lang: "en", intent: "device-limit" },
  { q: "can i watch on the plane without internet", lang: "en", page: "fr", intent: "offline" },
  { q: "is it on roku", lang: "en", intent: "unanswerable" },
  { q: "I bought it 3 days ago and honestly it's not for me, how do I get my money back", lang: "en", intent: "refund" },
  { before: ["is it a subscription"], q: "so what does it cost then", lang: "en", intent: "price" },
  { q: "do u take paypal? and is there a free trial", lang: "en", intent: "payment-methods", also: "trial" },
  { before: ["how much is it"], q: "and after the launch offer ends?", lang: "en", intent: "offer" },
  // Italian
  { q: "quanto costa l'app? c'è un abbonamento?", lang: "it", intent: "price", also: "renewal" },
  { q: "funziona su xbox?", lang: "it", intent: "unanswerable" },
  { before: ["su quali dispositivi va?"], q: "e sul proiettore?", lang: "it", intent: "unanswerable" },
  { q: "nn mi e arrivata la mail cn la chiave", lang: "it", intent: "not-received" },
  { q: "quanti dispositivi posso usare insieme", lang: "it", page: "fr", intent: "device-limit" },
  { q: "posso regalarla a mio fratello? la licenza intendo", lang: "it", intent: "sharing", no: true },
  { q: "ci sono pubblicita?", lang: "it", intent: "ads", no: true },
  { before: ["posso avere un rimborso?"], q: "e dopo 2 settimane?", lang: "it", intent: "refund" },
  { q: "come si installa sul mac", lang: "it", intent: "installation" },
  { q: "si puo pagare con carta? e quanto ci vuole per ricevere la chiave", lang: "it", intent: "payment-methods", also: "delivery" },
  // Spanish
  { q: "q precio tiene", lang: "es", intent: "price" },
  { q: "funciona en la nintendo switch?", lang: "es", intent: "unanswerable" },
  { q: "se puede ver sin conexion en el avion? y tiene anuncios", lang: "es", intent: "offline", also: "ads" },
  { before: ["cuantos dispositivos a la vez?"], q: "y otro mas para mi hija?", lang: "es", intent: "device-limit" },
  { q: "no me llego el correo, ya mire en spam", lang: "es", page: "en", intent: "not-received" },
  { q: "es legal esto? y cuanto cuesta", lang: "es", intent: "legality", also: "price" },
  { q: "como lo instalo en la tele?", lang: "es", intent: "installation" },
  { q: "hay que renovar cada año?", lang: "es", page: "it", intent: "renewal", no: true },
  { before: ["cuánto cuesta?"], q: "¿y se paga con tarjeta?", lang: "es", intent: "payment-methods" },
  { q: "funciona en linux?", lang: "es", intent: "unanswerable" },
];
