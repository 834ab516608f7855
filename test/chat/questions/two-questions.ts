import type { ChatQuestion } from "./judge";

// Messages asking two things at once, for choosing how the offline assistant cuts a message into its
// questions (topic-choice.ts): joined by "and"/"et"/"e"/"y", by a comma, or two sentences; some with
// one part the site cannot answer, which goes to the support address while the other is answered.
// Written for this, in buyers' words; like validation.ts it is there to be read. Scored by
// bench/chat-validation.ts.

export const TWO_QUESTIONS: readonly ChatQuestion[] = [
  { q: "c'est combien et ça marche sur ma tv ?", lang: "fr", intent: "price", also: "devices" },
  { q: "je reçois la clé quand ? et c'est facile à installer ?", lang: "fr", intent: "delivery", also: "installation" },
  { q: "y a des pubs et on peut regarder hors ligne ?", lang: "fr", intent: "ads", also: "offline", no: true },
  { q: "combien ça coûte ? et vous avez la ligue des champions ?", lang: "fr", intent: "price", also: "catalogue" },
  { q: "how long till i get my key and how do i install it", lang: "en", intent: "delivery", also: "installation" },
  { q: "is there a refund? also do i need to make an account?", lang: "en", intent: "refund", also: "account" },
  { q: "what's the price and is it a one off payment", lang: "en", intent: "one-time", also: "price" },
  {
    q: "how many devices can i use it on at the same time and does it have ads?",
    lang: "en",
    intent: "device-limit",
    also: "ads",
    no: true,
  },
  { q: "quanto costa e funziona su iphone?", lang: "it", intent: "price", also: "devices" },
  { q: "posso avere il rimborso? e come contatto l'assistenza?", lang: "it", intent: "refund", also: "support" },
  { q: "c'è pubblicità e si può scaricare per vederlo offline?", lang: "it", intent: "ads", also: "offline", no: true },
  { q: "quanto si paga? e avete la serie A?", lang: "it", intent: "price", also: "catalogue" },
  { q: "¿cuánto cuesta y funciona en smart tv?", lang: "es", intent: "price", also: "devices" },
  { q: "¿cuándo llega la clave? ¿y cómo se instala?", lang: "es", intent: "delivery", also: "installation" },
  { q: "¿hay anuncios y se puede ver sin conexión?", lang: "es", intent: "ads", also: "offline", no: true },
  { q: "¿me devolvéis el dinero si no me gusta? ¿y tenéis la liga?", lang: "es", intent: "refund", also: "catalogue" },
];
