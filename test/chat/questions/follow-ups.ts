import type { ChatQuestion } from "./judge";

// Conversations for choosing how the offline assistant reads a follow-up with the visitor's earlier
// messages (topic-choice.ts): elliptic follow-ups that only make sense after the earlier message
// ("and on a TV?", "et si c'était il y a 10 jours ?"), and new questions asked after an unrelated
// one, which must not be dragged back to the earlier topic. Written for this, in buyers' words, by
// whoever tunes the assistant: like validation.ts it is there to be read, the held-out sets are not.
// Scored by bench/chat-validation.ts.

export const FOLLOW_UPS: readonly ChatQuestion[] = [
  // French
  { before: ["ça marche sur quels appareils ?"], q: "et sur combien en même temps ?", lang: "fr", intent: "device-limit" },
  { before: ["vous remboursez si ça me plaît pas ?"], q: "et au bout de 12 jours ?", lang: "fr", intent: "refund" },
  { before: ["c'est combien ?"], q: "et comment je paye ?", lang: "fr", intent: "payment-methods" },
  { before: ["ça marche sur android ?"], q: "et sur mac ?", lang: "fr", intent: "devices" },
  { before: ["combien ça coûte ?"], q: "il y a des pubs dans l'appli ?", lang: "fr", intent: "ads", no: true },
  { before: ["je reçois ma clé comment ?"], q: "et si rien n'arrive ?", lang: "fr", intent: "not-received" },
  { before: ["c'est compliqué à installer ?"], q: "ok et ça marche sans internet ?", lang: "fr", intent: "offline" },
  { before: ["la clé marche sur plusieurs appareils ?"], q: "et je peux la donner à ma sœur ?", lang: "fr", intent: "sharing", no: true },
  { before: ["ça s'installe sur une tablette ?"], q: "et une deuxième ?", lang: "fr", intent: "device-limit" },
  { before: ["ça marche sur android ?"], q: "remboursement ?", lang: "fr", intent: "refund" },
  // English
  { before: ["where's my key, i paid an hour ago"], q: "refund?", lang: "en", intent: "refund" },
  { before: ["does it work on tablets?"], q: "and a second tablet too?", lang: "en", intent: "device-limit" },
  { before: ["what devices does it run on?"], q: "and how many at once?", lang: "en", intent: "device-limit" },
  { before: ["can i get my money back"], q: "what if it's been 2 weeks", lang: "en", intent: "refund" },
  { before: ["how much is it"], q: "and can i pay with card?", lang: "en", intent: "payment-methods" },
  { before: ["does it work on my iphone?"], q: "what about a windows laptop", lang: "en", intent: "devices" },
  { before: ["what does it cost?"], q: "do you have ads in the app?", lang: "en", intent: "ads", no: true },
  { before: ["how do i get my licence after buying"], q: "and if the email never shows up?", lang: "en", intent: "not-received" },
  { before: ["is installing hard?"], q: "cool, can i watch stuff without wifi?", lang: "en", intent: "offline" },
  { before: ["is it a subscription?"], q: "so how much in total", lang: "en", intent: "price" },
  // Italian
  { before: ["su quali dispositivi funziona?"], q: "e quanti insieme?", lang: "it", intent: "device-limit" },
  { before: ["posso avere un rimborso?"], q: "e se sono passati 10 giorni?", lang: "it", intent: "refund" },
  { before: ["quanto costa?"], q: "e come si paga?", lang: "it", intent: "payment-methods" },
  { before: ["va su android?"], q: "e sul mac?", lang: "it", intent: "devices" },
  { before: ["quanto costa?"], q: "ci sono pubblicità nell'app?", lang: "it", intent: "ads", no: true },
  { before: ["come ricevo la chiave?"], q: "e se non mi arriva niente?", lang: "it", intent: "not-received" },
  { before: ["è difficile da installare?"], q: "ok, e funziona senza connessione?", lang: "it", intent: "offline" },
  { before: ["è un abbonamento?"], q: "quindi quanto pago in tutto?", lang: "it", intent: "price" },
  { before: ["funziona sul tablet?"], q: "e su un altro ancora?", lang: "it", intent: "device-limit" },
  { before: ["quanto costa?"], q: "pubblicità?", lang: "it", intent: "ads", no: true },
  // Spanish
  { before: ["¿cómo lo instalo?"], q: "¿precio?", lang: "es", intent: "price" },
  { before: ["¿se puede poner en una tablet?"], q: "¿y en otra más?", lang: "es", intent: "device-limit" },
  { before: ["¿en qué dispositivos funciona?"], q: "¿y en cuántos a la vez?", lang: "es", intent: "device-limit" },
  { before: ["¿me devolvéis el dinero si no me gusta?"], q: "¿y si ya pasaron 10 días?", lang: "es", intent: "refund" },
  { before: ["¿cuánto vale?"], q: "¿y cómo se paga?", lang: "es", intent: "payment-methods" },
  { before: ["¿funciona en android?"], q: "¿y en un mac?", lang: "es", intent: "devices" },
  { before: ["¿cuánto cuesta?"], q: "¿tiene anuncios la app?", lang: "es", intent: "ads", no: true },
  { before: ["¿cómo me llega la clave?"], q: "¿y si no me llega nada?", lang: "es", intent: "not-received" },
  { before: ["¿es difícil instalarla?"], q: "vale, ¿y funciona sin internet?", lang: "es", intent: "offline" },
  { before: ["¿es una suscripción?"], q: "entonces, ¿cuánto pago en total?", lang: "es", intent: "price" },
];
