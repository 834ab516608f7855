import type { TopicLabel } from "./paraphrases";
import type { Topic } from "./site-content";
import type { Scored, TopicClassifier } from "./topic-classifier";
import { words } from "./words";

// From the classifier's probabilities to what the assistant does: answer one topic, two when a
// message clearly asks two things, hand over when the question is about nothing the site answers
// ("none"), or say it is not sure when no topic stands out. A wrong topic's answer is worse than a
// hand-over: the visitor reads something beside the point and may take it for the answer.

/**
 * `rest`: the message asks another question that this answer does not cover, and the reply says so
 * after the answer and gives the support address rather than leaving it unanswered as if the answer
 * covered it: "unsure" when no topic clearly answers it, "none" when it is clearly about something
 * the site does not answer ("a student discount? and the price without it?").
 */
export type TopicChoice = { kind: "topics"; topics: Topic[]; rest?: "unsure" | "none" } | { kind: "none" } | { kind: "unsure" };

export type ChoiceThresholds = {
  /** The best label's probability must reach this... */
  confidence: number;
  /** ... and exceed the second best's by this much. */
  margin: number;
  /** A part of a message counts as a second question only when its topic is at least this sure... */
  partConfidence: number;
  /**
   * ... and the whole message leans to it at least this much: "I paid and got nothing" is about
   * not receiving, though "I paid" alone would be about paying.
   */
  wholeSupport: number;
  /**
   * A part of three words or more this sure of its topic is a question of its own whatever the
   * whole leans to: "how much is it and does it work on my TV" is mostly about the TV to the
   * classifier, yet asks the price too; unless its topic is next to the whole's.
   */
  partAlone: number;
  /**
   * A part that opens like a question after the word joining it to the one before ("... and do I
   * need an account", "... ? y tiene anuncios") is a question of its own when its topic is this sure.
   */
  partOpening: number;
  /**
   * When no topic stands out alone, topics next to each other (NEIGHBOURHOODS) that share the
   * message between them are one answer's worth: "la chiave non mi è arrivata" leans to not
   * receiving, the key and a problem at once. The best of them is answered when together they hold
   * at least this much and the best topic outside them stays `margin` behind. 1 turns it off.
   */
  nearMass: number;
  /** A message of more words than this that asks with "?" is classified by its asking sentences alone. */
  longWords: number;
};

/**
 * Confidence, margin and nearMass scored by 5-fold cross-validation over the whole question bank
 * (bench/chat-crossval.ts: each question answered by a model trained without it, a wrong topic
 * counted twice as bad as a needless hand-over). Of the settings it ranks near the top, the one
 * that gives no more wrong topics than before on every set: a lower confidence or margin answers a
 * few more questions there but puts another topic's text before one more visitor. The two-question
 * ones so that no tuning question is cut in two.
 * Confidence 0.55 rather than 0.6: the same cross-validated share right (95.6 % of 1082), fewer
 * needless hand-overs on questions written by buyers, and no project set falls.
 * nearMass 0.8 rather than 0.9 with the model averaged over eight orders: 96.4 % right of the 1322
 * questions of the bank with the blind sets 2 to 4, against 96.2 %, and the same wrong topics (1.4 %).
 * longWords: the bank's messages of more words than this (7 of 1271) are each a story told around
 * one or two questions.
 */
export const THRESHOLDS: ChoiceThresholds = {
  confidence: 0.55,
  margin: 0.2,
  partConfidence: 0.6,
  wholeSupport: 0.02,
  partAlone: 0.95,
  partOpening: 0.8,
  nearMass: 0.8,
  longWords: 25,
};

/** Where a message may ask a second thing: at a word that joins two requests. */
const JOINING_WORDS = new Set("and also et aussi puis ensuite e anche poi inoltre y tambien ademas".split(" "));

/** The joining words that are adverbs too: "also", "aussi", "anche", "también", "además", "inoltre". */
const ALSO_WORDS = new Set("also aussi anche inoltre tambien ademas".split(" "));

/**
 * The message cut into the parts that may each be a question of its own (at least two words each):
 * its sentences, and within them the requests joined by "and", "et", "e", "y"... When the message
 * holds a question mark, only the sentences that end with one are questions; the others are
 * context ("Where is my key? I paid an hour ago" asks one thing).
 */
export function questionParts(question: string): string[] {
  return cutParts(question).map((part) => part.text);
}

/**
 * A part of a message, and whether it opens like a question of its own after the word that joins
 * it to the one before ("... after paying and do I need an account", "... carta? e quanto ci
 * vuole..."): a second question, not the context of the first ("I paid and got nothing").
 */
type Part = { text: string; opensQuestion: boolean; bare: string };

function cutParts(question: string): Part[] {
  const sentences = question.match(/[^?!.;\n]+[?!.;\n]*/g) ?? [];
  const asked = question.includes("?") ? askingSentences(sentences) : sentences;
  const parts: Part[] = [];
  for (const [index, sentence] of asked.entries()) {
    let current: string[] = [];
    // The joining words a part opens with: they may be its own words too (the French "y a" is
    // "there is", not the Spanish "and"), so the part is read with them and without (`bare`).
    let lead: string[] = [];
    // A sentence after the first one starts afresh, as a part after a joining word does.
    let joined = index > 0;
    const close = () => {
      if (current.length > 0) {
        parts.push({
          text: [...lead, ...current].join(" "),
          bare: current.join(" "),
          opensQuestion: joined && QUESTION_OPENERS.has(current[0] ?? ""),
        });
      }
      current = [];
      lead = [];
    };
    const said = words(sentence);
    for (const [at, word] of said.entries()) {
      // "also" inside a sentence is most often the adverb of the request it is in ("e se lo metto
      // anche sul pc di mio figlio?", "can I watch it also on my tv"): it starts a second request
      // only when a question opens after it ("... also how much is it"). The French "on" opens one
      // ("aussi on peut..."), the English "on" does not ("also on my laptop").
      const next = said[at + 1] ?? "";
      const adverb = ALSO_WORDS.has(word) && (next === "on" || !QUESTION_OPENERS.has(next));
      if (JOINING_WORDS.has(word) && current.length >= 2 && !adverb) {
        close();
        joined = true;
      } else if (!JOINING_WORDS.has(word) || current.length > 0) {
        current.push(word);
      } else {
        lead.push(word);
        joined = true;
      }
    }
    close();
  }
  // When a later part opens a question of its own, a first part that opens like a question too is
  // one as well ("who runs this site and which law applies"): two questions side by side, not a
  // question and its context ("I formatted my PC and now...").
  const first = parts[0];
  if (first !== undefined && parts.some((part) => part.opensQuestion) && QUESTION_OPENERS.has(first.bare.split(" ")[0] ?? "")) {
    first.opensQuestion = true;
  }
  return parts.filter((part) => part.bare.split(" ").length >= 2);
}

/**
 * Words that open a question, or join one to the one before, in the four languages: a last sentence
 * that starts with one asks something even without its "?" ("are there ads? and does it work
 * offline"), while one that starts otherwise is context ("where is my key? I paid an hour ago").
 */
const QUESTION_OPENERS = new Set(
  [
    "and also how what when where which who why does do did can could is are will would any has have",
    "et aussi comment combien quand ou pourquoi quel quelle quels quelles est peut puis on y ca faut",
    // "c'è" is read as "c" and "e": "c'è pubblicità e si può scaricare?" asks two things.
    "e anche come quanto quanti quanta quando dove perche quale funziona posso si ce c ha hanno serve",
    // Spanish asks without inverting: "y tiene anuncios", "y sirve para la tele".
    "y tambien como cuanto cuantos cuantas cuando donde porque cual puedo se hay funciona tiene tienen incluye sirve",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Words that name no subject of their own: asking words, joining words, pronouns and the verbs of
 * doing and being. A question made only of them ("how do I do it?", "comment on fait ?", "como lo
 * hago?", "e come si fa?") is about what the sentence before it names, never a topic of its own.
 */
const REFERRING_WORDS = new Set(
  [
    "how what where when which who why does do did doing done can could is are be will would should i you we it its that this there then so please",
    "comment quoi ou quand quel quelle qui pourquoi je j tu on il elle ca cela ce c est faire fais fait faut dois doit peux peut alors donc svp stp le la les l y en",
    "come cosa dove quando quale chi perche io tu si lo la li le ci ne fare faccio fa fai devo deve posso puo allora quindi e per favore",
    "como que donde cuando cual quien por yo tu se lo la los las le me te hacer hago hace hay debo puedo puede entonces pues favor",
  ]
    .join(" ")
    .split(" "),
);

/** What a second asked sentence gives the answered topic when it is read as that topic's context. */
const TOPIC_SHARE = 0.1;

/** A question that names nothing of its own: it asks about what the sentence before it names. */
const namesNothing = (sentence: string): boolean => {
  const all = words(sentence);
  return all.length > 0 && all.every((word) => REFERRING_WORDS.has(word) || JOINING_WORDS.has(word));
};

/** Of a message's sentences, those that ask: the ones with a "?", and a last one left open that opens like a question. */
function askingSentences(sentences: readonly string[]): string[] {
  const last = sentences.at(-1);
  const openLast = last !== undefined && !/[?!.;\n]/.test(last) && QUESTION_OPENERS.has(words(last)[0] ?? "") ? [last] : [];
  return [...sentences.filter((sentence) => sentence.includes("?")), ...openLast];
}

/**
 * The sentences of a message that surely ask something: they end with "?" and have three words or
 * more. A last sentence left open is a part to read (questionParts), not a question the reply must
 * answer or hand over: it may be the context of the one before.
 */
function askedSentences(question: string): string[] {
  const sentences = question.match(/[^?!.;\n]+[?!.;\n]*/g) ?? [];
  const closed = sentences.filter((sentence) => sentence.includes("?") && words(sentence).length >= 3);
  // After a question, a last sentence left open that starts with a joining word and then a word
  // that opens a question ("...carta? e quanto ci vuole...", "...? and does it work offline")
  // asks a second thing: the visitor just did not type its "?".
  const last = sentences.at(-1);
  if (closed.length === 0 || last === undefined || /[?!.;\n]/.test(last)) return closed;
  const [joining = "", opener = ""] = words(last);
  return JOINING_WORDS.has(joining) && QUESTION_OPENERS.has(opener) && words(last).length >= 3 ? [...closed, last] : closed;
}

/**
 * What a long message (a story, then the question) asks, read by its questions: "I paid this
 * morning and got a mail with a long code... where do I type it??" asks where to type the key,
 * though most of its words are about paying and receiving. A question that is not clear alone, or
 * of a few words ("what do I do??"), is read with the sentence before it, which says what it is
 * about; and the whole message when that is not clear either.
 */
function readLong(
  classifier: TopicClassifier<TopicLabel>,
  question: string,
  asked: readonly string[],
  thresholds: ChoiceThresholds,
): Scored<TopicLabel>[] {
  const whole = () => classifier.classify(question);
  if (asked.length === 0) return whole();
  const clear = (scored: Scored<TopicLabel>[]) => {
    const { first, second } = best(scored);
    return first.probability >= thresholds.confidence && first.probability - second >= thresholds.margin;
  };
  // A question that names nothing of its own ("como lo hago?") is read with the one it follows, not
  // beside it, where its words would pull the reading elsewhere.
  const named = asked.filter((sentence) => !namesNothing(sentence));
  const own = (named.length > 0 ? named : asked).join(" ");
  // A question of a few words ("what do I do??") names nothing of its own, however sure the
  // classifier is of it.
  const alone = classifier.classify(own);
  if (words(own).length >= 5 && clear(alone)) return alone;
  const sentences: readonly string[] = question.match(/[^?!.;\n]+[?!.;\n]*/g) ?? [];
  const at = sentences.indexOf(asked[0] ?? "");
  if (at <= 0) return whole();
  const withBefore = classifier.classify(`${sentences[at - 1]} ${own}`);
  return clear(withBefore) ? withBefore : whole();
}

const best = (scored: Scored<TopicLabel>[]) => ({
  first: scored[0] ?? { label: "none" as const, probability: 0 },
  second: scored[1]?.probability ?? 0,
});

const isTopic = (label: TopicLabel): label is Topic => label !== "none";

export function chooseTopics(
  classifier: TopicClassifier<TopicLabel>,
  question: string,
  thresholds: ChoiceThresholds = THRESHOLDS,
): TopicChoice {
  const asked = askedSentences(question);
  const whole =
    words(question).length > thresholds.longWords ? readLong(classifier, question, asked, thresholds) : classifier.classify(question);
  // Two questions in one message: two parts, each clearly about its own topic. Two sentences that
  // each end with "?" are two questions whatever the whole leans to; parts joined by "and" must be
  // supported by the whole message too.
  const parts = cutParts(question);
  let pairedOne: Topic | null = null;
  // A part clearly about something the site does not answer, asked as a question of its own.
  let noneAsked = false;
  if (parts.length >= 2) {
    const topics: Topic[] = [];
    // A part next to what the whole message is about is more likely its context than a second
    // question ("I formatted my PC and now it says the key is at its maximum").
    const wholeTop = whole[0]?.label;
    const nearWhole = wholeTop !== undefined && isTopic(wholeTop) ? neighbours([wholeTop]) : new Set<TopicLabel>();
    for (const { text: part, bare, opensQuestion } of parts) {
      // "se puede devolver? como lo hago?": the second part asks how to do the first, no topic of its own.
      if (namesNothing(part)) continue;
      const read = best(classifier.classify(part));
      const readBare = bare === part ? read : best(classifier.classify(bare));
      const { first, second } = readBare.first.probability > read.first.probability ? readBare : read;
      const sure = first.probability >= thresholds.partConfidence && first.probability - second >= thresholds.margin;
      const supported =
        asked.length >= 2 ||
        (opensQuestion && first.probability >= thresholds.partOpening) ||
        (first.probability >= thresholds.partAlone && bare.split(" ").length >= 3 && !nearWhole.has(first.label)) ||
        (whole.find((scored) => scored.label === first.label)?.probability ?? 0) >= thresholds.wholeSupport;
      if (sure && supported && isTopic(first.label) && !topics.includes(first.label)) topics.push(first.label);
      const ownQuestion = asked.length >= 2 || opensQuestion;
      if (sure && ownQuestion && first.label === "none" && bare.split(" ").length >= 3) noneAsked = true;
    }
    if (topics.length >= 2) return { kind: "topics", topics: topics.slice(0, 2) };
    // One question the site answers beside one it does not ("a student discount? and the price
    // without it?"): the answer, then the hand-over for the other, rather than handing over both.
    if (topics.length === 1 && noneAsked) return { kind: "topics", topics, rest: "none" };
    // The message clearly asks two things and one of them is clear: that one is answered and the
    // other handed over, rather than the whole message (the whole, mixing two topics, is unsure).
    const twoAsked = asked.length >= 2 || parts.some((part) => part.opensQuestion);
    if (twoAsked && topics.length === 1) pairedOne = topics[0] ?? null;
  }
  const { first, second } = best(whole);
  if (first.probability < thresholds.confidence || first.probability - second < thresholds.margin) {
    const near = nearbyTopic(whole, thresholds);
    if (near !== null) return near;
    return pairedOne === null ? { kind: "unsure" } : { kind: "topics", topics: [pairedOne], rest: "unsure" };
  }
  if (!isTopic(first.label)) return { kind: "none" };
  const topic = first.label;
  // Two questions asked and one answered (the other was not clear enough to answer too): the other is
  // left to the team rather than passed over.
  // A question that names nothing of its own ("how do I do it?") asks about the one before it.
  const unanswered =
    asked.length >= 2 &&
    asked.some((sentence) => {
      if (namesNothing(sentence)) return false;
      const read = classifier.classify(sentence);
      const { first: own } = best(read);
      // A sentence that leans to the answered topic too ("can I still withdraw? isn't it 14 days in
      // Europe?") is its context, not a second question.
      const share = read.find((scored) => scored.label === topic)?.probability ?? 0;
      return own.label !== topic && share < TOPIC_SHARE;
    });
  return unanswered ? { kind: "topics", topics: [topic], rest: "unsure" } : { kind: "topics", topics: [topic] };
}

/** The best topic when it and its neighbours hold the message together and nothing outside them comes close (ChoiceThresholds.nearMass). */
function nearbyTopic(scored: readonly Scored<TopicLabel>[], thresholds: ChoiceThresholds): TopicChoice | null {
  const first = scored[0];
  if (first === undefined || !isTopic(first.label)) return null;
  const near = neighbours([first.label]);
  let mass = 0;
  let rival = 0;
  for (const { label, probability } of scored) {
    if (isTopic(label) && near.has(label)) mass += probability;
    else rival = Math.max(rival, probability);
  }
  return mass >= thresholds.nearMass && first.probability - rival >= thresholds.margin ? { kind: "topics", topics: [first.label] } : null;
}

/**
 * Topics a follow-up may move to from the one asked before: the earlier question's neighbours.
 * "And on how many at once?" after the devices is about the device limit, "and after 12 days?"
 * after a refund about the refund or the withdrawal.
 */
const NEIGHBOURHOODS: readonly (readonly Topic[])[] = [
  ["devices", "device-limit", "installation", "sharing", "offline", "key", "languages"],
  ["price", "offer", "includes", "one-time", "payment", "savings", "security", "receipt", "trial", "cancel", "sharing", "free-key"],
  ["refund", "withdrawal", "trial", "cancel", "conformity", "complaints", "support"],
  ["delivery", "not-received", "key", "account", "receipt", "problem", "support", "installation"],
  ["product", "quality", "new-content", "updates", "languages", "ads", "offline", "how", "catalogue", "includes"],
  ["privacy", "seller", "law", "complaints", "conformity", "security"],
];

const neighbours = (topics: readonly Topic[]): Set<TopicLabel> =>
  new Set<TopicLabel>(NEIGHBOURHOODS.filter((group) => topics.some((topic) => group.includes(topic))).flat());

/** How a follow-up is read with the earlier message; chosen on bench/chat-validation.ts's follow-up conversations. */
export type FollowUpSettings = {
  /** A message of at most this many words, or one opening with a joining word, may lean on the earlier one. */
  shortWords: number;
  /**
   * A message the classifier places nowhere alone, of at most this many words, is read with the
   * earlier one too: "han pasado 10 días, ¿todavía se puede?" after a refund asks about the refund.
   */
  leanWords: number;
  /** The weight of the earlier and the new message read together, against the new one alone. */
  together: number;
  /** How much more a topic next to the earlier one counts. */
  nearBonus: number;
  /**
   * How much less the earlier message's own topic counts: its answer is on the screen already, so
   * "and one more?" more likely asks the next thing than the same again.
   */
  repeat: number;
  /** The read-together topic's share needed to answer (the margin is the single message's). */
  confidence: number;
  /** A follow-up this sure of its own topic alone keeps it ("PayPal?" after a missing e-mail). */
  keepOwn: number;
};

export const FOLLOW_UP: FollowUpSettings = {
  shortWords: 4,
  leanWords: 8,
  together: 0.5,
  nearBonus: 2,
  repeat: 0.3,
  confidence: 0.35,
  keepOwn: 0.95,
};

/** Words that open a follow-up: "and on a TV?", "so how much in all?", "what about...". */
const FOLLOW_UP_OPENERS = new Set(
  "and also what so then ok okay et aussi donc alors puis e anche quindi allora poi y tambien entonces vale pues".split(" "),
);

/** The topics the earlier messages were about, the latest that had one. */
function earlierTopics(classifier: TopicClassifier<TopicLabel>, earlier: readonly string[], thresholds: ChoiceThresholds): Topic[] {
  for (let i = earlier.length - 1; i >= Math.max(0, earlier.length - 3); i--) {
    const choice = chooseTopics(classifier, earlier[i] ?? "", thresholds);
    if (choice.kind === "topics") return choice.topics;
  }
  return [];
}

/**
 * The topics of the last message of a conversation, read with the visitor's earlier messages
 * (oldest first) when it leans on them: a short or elliptic follow-up ("and one more?", "what about
 * linux?") is classified together with the message before it, and the topics next to the earlier
 * one count more. A clear new question keeps its own topic; one the classifier is not sure of alone
 * is read with the earlier message too.
 */
export function chooseInConversation(
  classifier: TopicClassifier<TopicLabel>,
  question: string,
  earlier: readonly string[],
  thresholds: ChoiceThresholds = THRESHOLDS,
  settings: FollowUpSettings = FOLLOW_UP,
): TopicChoice {
  const own = chooseTopics(classifier, question, thresholds);
  const previous = earlier.at(-1);
  if (previous === undefined) return own;
  const said = words(question);
  const elliptic = said.length <= settings.shortWords || FOLLOW_UP_OPENERS.has(said[0] ?? "");
  const aloneScored = classifier.classify(question);
  const ownSure = (aloneScored[0]?.probability ?? 0) >= settings.keepOwn;
  if (own.kind === "topics" && (own.topics.length >= 2 || !elliptic || ownSure)) return own;
  if (own.kind === "none" && !elliptic && said.length > settings.leanWords) return own;
  const before = earlierTopics(classifier, earlier, thresholds);
  const near = neighbours(before);
  const alone = new Map(aloneScored.map((s) => [s.label, s.probability]));
  const together = classifier.classify(`${previous} ${question}`);
  const blended = together.map(({ label, probability }) => {
    const mixed = (1 - settings.together) * (alone.get(label) ?? 0) + settings.together * probability;
    if (!isTopic(label) || !near.has(label)) return { label, probability: mixed };
    return { label, probability: mixed * (1 + settings.nearBonus) * (before.includes(label) ? 1 - settings.repeat : 1) };
  });
  const sum = blended.reduce((total, s) => total + s.probability, 0) || 1;
  const scored = blended.map((s) => ({ label: s.label, probability: s.probability / sum })).sort((a, b) => b.probability - a.probability);
  const first = scored[0] ?? { label: "none" as const, probability: 0 };
  // Two topics next to the earlier one are not a doubt about what the visitor is on about: the
  // margin is taken from the best topic outside the neighbourhood.
  const inside = (label: TopicLabel) => isTopic(label) && near.has(label);
  const rival = scored.slice(1).find((s) => !(inside(first.label) && inside(s.label)))?.probability ?? 0;
  if (first.probability < settings.confidence || first.probability - rival < thresholds.margin) return own;
  if (!isTopic(first.label)) return own.kind === "topics" ? own : { kind: "none" };
  return { kind: "topics", topics: [first.label] };
}
