import type { ChatQuestion } from "./judge";

// A second probe set of 20 questions (5 per language), written on 2026-11-28 by the helper engineer
// of branch wt-chat AFTER the changes of that branch, and scored once on the branch and once on the
// commit before them, without looking at any reply first: the first probe set (probe-helper.ts)
// had been read for its misses, this one had not. Same style and rules as probe-helper.ts; never
// trained or tuned on. Scored by bench/chat-buyers.ts --set probe2.

export const PROBE_HELPER2: readonly ChatQuestion[] = [
  // French
  { q: "c koi le prix et y a un essai gratuit ?", lang: "fr", intent: "price", also: "trial" },
  { q: "ca tourne sur une apple watch ?", lang: "fr", intent: "unanswerable" },
  { before: ["ça s'installe comment ?"], q: "et sur la freebox ?", lang: "fr", intent: "unanswerable" },
  { q: "j'ai changé de tel et l'appli dit que j'ai atteint la limite", lang: "fr", page: "it", intent: "limit-reached" },
  { q: "vous etes dispo quand pour le support ?", lang: "fr", intent: "support" },
  // English
  { q: "can i cast it to my projector", lang: "en", intent: "unanswerable" },
  { q: "hey whats the refund policy? and can i pay with visa", lang: "en", intent: "refund", also: "payment-methods" },
  { before: ["how much is it?"], q: "one time or monthly?", lang: "en", intent: "one-time" },
  { q: "do i get a receipt with vat", lang: "en", page: "es", intent: "receipt" },
  { q: "works on ubuntu?", lang: "en", intent: "unanswerable" },
  // Italian
  { q: "funziona in macchina sul display?", lang: "it", intent: "unanswerable" },
  { q: "quanto costa? e si puo vedere offline?", lang: "it", intent: "price", also: "offline" },
  { before: ["quanti dispositivi posso usare?"], q: "e uno in piu?", lang: "it", intent: "device-limit" },
  { q: "nn trovo la mail dopo il pagamento", lang: "it", page: "en", intent: "not-received" },
  { q: "come disdico l'abbonamento", lang: "it", intent: "cancel" },
  // Spanish
  { q: "funciona en la play 4?", lang: "es", intent: "unanswerable" },
  { q: "cuanto tarda en llegar la clave y como la instalo", lang: "es", intent: "delivery", also: "installation" },
  { before: ["¿hay reembolso?"], q: "¿y si pasaron 3 semanas?", lang: "es", intent: "withdrawal" },
  { q: "se puede compartir con mi novio", lang: "es", page: "fr", intent: "sharing", no: true },
  { q: "tiene publicidad??", lang: "es", intent: "ads", no: true },
];
