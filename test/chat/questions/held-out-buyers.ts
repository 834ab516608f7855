import type { ChatQuestion } from "./judge";

// The buyers' set: 80 questions (20 per language) written by a helper engineer who had NOT read the
// assistant's paraphrases, its classifier, its word lists or the project's other question sets. What
// they read was what a buyer can read: the landing page, the FAQ, the payment, guide and legal pages
// (locales/*.json, docs/product.md), and judge.ts for which intent needs which fact. The questions
// are typed as people type in a chat box: typos, no accents, slang, SMS style, long ones with
// context, angry ones; a quarter asked on a page of another language (`page`); two questions in one
// message (`also`); follow-ups that only make sense after the earlier messages of the same
// conversation (`before`, sent through the chat endpoint first, as the chat window does); and
// questions the site's texts do not settle (the right reply hands over to the support address).
//
// This set is test data and nothing else: it must never be added to the paraphrases, nor used to
// choose a threshold, a word list or any other setting. Read its score (bench/chat-offline.ts
// --set buyers), never tune on its misses; when it has been used to tune, write a new set.

export const HELD_OUT_BUYERS: readonly ChatQuestion[] = [
  // French
  { q: "salut c combien lappli ?", lang: "fr", intent: "price" },
  {
    q: "bonjour, je voudrais savoir si on peut payer avec paypal ou seulement par carte bancaire car j'ai pas de carte",
    lang: "fr",
    intent: "payment-methods",
    no: true,
  },
  { q: "cest un abonement ou on paye qu'une fois??", lang: "fr", intent: "one-time" },
  {
    q: "Est-ce que ça se renouvelle tout seul chaque année ? Je me suis déjà fait avoir avec un renouvellement automatique, je veux pas revivre ça",
    lang: "fr",
    page: "es",
    intent: "renewal",
    no: true,
  },
  { q: "jl'ai acheté il y a 10 jours", lang: "fr", before: ["je veux me faire rembourser"], intent: "refund", no: true },
  { q: "ca marche sur ma tele lg et mon macbook ?", lang: "fr", page: "en", intent: "devices" },
  { q: "et si j'en veux un de plus ?", lang: "fr", before: ["on peut l'installer sur combien d'appareils ?"], intent: "device-limit" },
  {
    q: "L'application me dit « limite d'appareils atteinte » alors que j'ai juste changé de téléphone. C'est inadmissible, j'ai payé !!",
    lang: "fr",
    intent: "limit-reached",
  },
  { q: "je peux la partager avec ma soeur elle habite a lyon", lang: "fr", page: "it", intent: "sharing", no: true },
  { q: "comment on installe sur android tv svp", lang: "fr", intent: "installation" },
  {
    q: "toujours rien recu, meme dans les spams",
    lang: "fr",
    before: ["bonjour", "j'ai payé hier soir par carte"],
    intent: "not-received",
  },
  { q: "c'est légal votre truc ? ça ressemble à de l'iptv", lang: "fr", intent: "legality" },
  { q: "vous avez la ligue 1 et les matchs du PSG en direct ?", lang: "fr", page: "en", intent: "catalogue" },
  { q: "y a une reduc pour les etudiants ?", lang: "fr", intent: "unanswerable" },
  {
    q: "il y a de la pub pendant les films ? et on peut télécharger pour regarder dans le train ?",
    lang: "fr",
    intent: "ads",
    also: "offline",
  },
  {
    q: "Qui est le vendeur exactement ? Je veux savoir à quelle société j'ai affaire avant de donner ma carte",
    lang: "fr",
    page: "es",
    intent: "seller",
  },
  {
    q: "jveux une facture avec la tva pour ma boite, et vous etes joignables a quelle heure ?",
    lang: "fr",
    intent: "receipt",
    also: "support",
  },
  { q: "Je dois créer un compte pour utiliser l'appli ? Et le paiement est sécurisé ?", lang: "fr", intent: "account", also: "security" },
  { q: "la promo de lancement se termine quand ?", lang: "fr", intent: "offer" },
  { q: "l'appli plante tout le temps sur ma tablette samsung, je fais quoi, j'ai des droits ?", lang: "fr", intent: "conformity" },

  // English
  { q: "how much", lang: "en", page: "fr", intent: "price" },
  { q: "what do I actually get for the money? is it everything in HD or just some stuff", lang: "en", intent: "includes" },
  { q: "is that per month?", lang: "en", before: ["how much is it?"], intent: "one-time", no: true },
  {
    q: "do I have to cancel before it renews or something? dont want to get charged again next year",
    lang: "en",
    intent: "renewal",
    no: true,
  },
  { q: "How do I cancel my subscription?? I want out NOW", lang: "en", page: "fr", intent: "cancel" },
  { q: "bought it last week, its garbage, i want my money back", lang: "en", intent: "refund" },
  // Relabelled from "devices": the site names Windows and Mac, not Linux, so the right reply hands over.
  { q: "what about linux?", lang: "en", before: ["does it work on iphone?"], intent: "unanswerable", no: true },
  { q: "whats the max number of devices per licence", lang: "en", page: "es", intent: "device-limit" },
  { q: "Can me and my roommate both use the same key? We'd split the cost", lang: "en", intent: "sharing", no: true },
  { q: "I got a new phone and now it says too many devices. Can I remove my old one?", lang: "en", intent: "limit-reached" },
  {
    q: "how long does it take to get my access after I pay? and do I need to make an account?",
    lang: "en",
    intent: "delivery",
    also: "account",
  },
  { q: "is there any way to try it for free first?", lang: "en", page: "it", intent: "trial" },
  { q: "what does a licence key look like? i'm typing mine and it keeps saying invalid", lang: "en", intent: "key" },
  { q: "do you have the new Marvel movies?", lang: "en", intent: "catalogue" },
  { q: "can you help me write a cover letter for a job", lang: "en", intent: "off-topic" },
  {
    q: "Does it have parental controls? My kids would use it on the tablet. And how many devices can we put it on?",
    lang: "en",
    page: "fr",
    intent: "device-limit",
    also: "unanswerable",
  },
  { q: "What happens to my data? do you use tracking cookies?", lang: "en", intent: "privacy" },
  {
    q: "is the payment safe, like do you keep my card details? and where do I contact you if something goes wrong?",
    lang: "en",
    intent: "security",
    also: "support",
  },
  { q: "ok and when are you guys open?", lang: "en", before: ["hey whats the support email"], intent: "support" },
  {
    q: "I'm in Germany, which country's law applies if there's a dispute? I want to know my rights before buying",
    lang: "en",
    intent: "law",
  },

  // Italian
  { q: "quanto costa l'abbonamento?", lang: "it", intent: "price" },
  { q: "Si paga una volta sola o ogni mese? non voglio sorprese sulla carta", lang: "it", page: "fr", intent: "one-time" },
  { q: "posso pagare con postepay?", lang: "it", intent: "payment-methods" },
  { q: "e se l'ho comprato 3 giorni fa?", lang: "it", before: ["come funziona il rimborso?"], intent: "refund" },
  { q: "funziona su android e su pc windows?", lang: "it", intent: "devices" },
  {
    q: "su quanti dispositivi posso installarla?? e posso usarla senza internet in aereo?",
    lang: "it",
    page: "en",
    intent: "device-limit",
    also: "offline",
  },
  { q: "ho cambiato telefono e l'app mi dice che ho raggiunto il limite di dispositivi, come faccio", lang: "it", intent: "limit-reached" },
  { q: "posso dare la mia chiave a mio cugino?", lang: "it", intent: "sharing", no: true },
  { q: "come si installa sulla smart tv samsung?", lang: "it", page: "es", intent: "installation" },
  {
    q: "dopo il pagamento quanto ci vuole per ricevere la chiave? e ricevo una ricevuta?",
    lang: "it",
    intent: "delivery",
    also: "receipt",
  },
  { q: "ma non mi è arrivato niente", lang: "it", page: "fr", before: ["ho pagato stamattina"], intent: "not-received" },
  { q: "ci sono pubblicità?", lang: "it", intent: "ads", no: true },
  { q: "avete tutti i film di Harry Potter?", lang: "it", intent: "catalogue" },
  { q: "ma è legale? non voglio problemi con la finanza", lang: "it", page: "en", intent: "legality" },
  { q: "mi consigli una pizzeria a roma?", lang: "it", intent: "off-topic" },
  { q: "Ho diritto al recesso di 14 giorni come per gli acquisti online?", lang: "it", intent: "withdrawal" },
  { q: "chi vende l'app? che società c'è dietro?", lang: "it", intent: "seller" },
  { q: "Voglio fare un reclamo formale, c'è un mediatore dei consumatori?", lang: "it", intent: "complaints" },
  { q: "quanti caratteri ha? la mia sembra strana", lang: "it", before: ["dove trovo la chiave di licenza?"], intent: "key" },
  { q: "Cosa è incluso esattamente nel prezzo? tutto il catalogo in HD?", lang: "it", intent: "includes" },

  // Spanish
  { q: "cuanto vale?", lang: "es", page: "en", intent: "price" },
  { q: "se puede pagar con bizum o solo tarjeta", lang: "es", intent: "payment-methods", no: true },
  {
    q: "¿Tengo los 14 días de desistimiento como en cualquier compra online? Lo pregunto antes de pagar",
    lang: "es",
    intent: "withdrawal",
  },
  { q: "como cancelo la suscripcion? no quiero que me cobren mas", lang: "es", page: "fr", intent: "cancel" },
  { q: "Hola! Compré ayer y la verdad no me convence. ¿Me devolvéis el dinero?", lang: "es", intent: "refund" },
  { q: "funciona en mi ipad y en el portatil?", lang: "es", intent: "devices" },
  {
    q: "y si tengo 2 moviles, 1 tablet y la tele?",
    lang: "es",
    before: ["en cuantos dispositivos puedo usarla"],
    intent: "device-limit",
  },
  {
    q: "me sale que he llegado al limite de dispositivos!!! pague 30 euros y no puedo verlo en mi tele nueva, que hago",
    lang: "es",
    page: "it",
    intent: "limit-reached",
  },
  { q: "puedo compartir la cuenta con mi novia? y necesito crear una cuenta?", lang: "es", intent: "sharing", also: "account", no: true },
  { q: "cuanto tarda en instalarse en android", lang: "es", intent: "installation" },
  { q: "hay prueba gratis? y es seguro pagar aqui?", lang: "es", intent: "trial", also: "security" },
  { q: "y hasta cuando dura ese precio?", lang: "es", page: "en", before: ["cuanto cuesta"], intent: "offer" },
  { q: "¿Tenéis la Champions en directo? ¿Y cuánto cuesta?", lang: "es", intent: "price", also: "catalogue" },
  { q: "esto es pirateria o es legal?", lang: "es", intent: "legality" },
  { q: "cual es la capital de australia", lang: "es", page: "it", intent: "off-topic" },
  { q: "¿Hacéis descuento si compro 3 licencias para mi familia?", lang: "es", intent: "unanswerable" },
  { q: "Quiero saber qué hacéis con mis datos personales, ¿usáis cookies?", lang: "es", intent: "privacy" },
  {
    q: "la app no funciona como dicen en la web, se corta cada 5 minutos. tengo garantia legal?",
    lang: "es",
    intent: "conformity",
  },
  {
    q: "quiero poner una reclamacion, hay algun mediador?",
    lang: "es",
    before: ["tengo un problema con mi compra"],
    intent: "complaints",
  },
  { q: "q ley se aplica al contrato? soy de mexico", lang: "es", intent: "law" },
];
