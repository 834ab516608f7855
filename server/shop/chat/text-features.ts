import { words } from "./words";

// What the topic classifier sees of a message: pieces of letters rather than whole words, so that a
// typo ("remboursment"), a missing accent, a plural or a word glued to another ("cest", "jai")
// still shares most of its pieces with the paraphrases it was trained on.

/** Lengths of the letter sequences taken from the message, spaces included (" rem", "bour"): longer ones add time, not accuracy (bench/chat-offline.ts). */
const CHAR_GRAMS = [3, 4] as const;

/** Distinct starting values, so that a word and a letter sequence spelt alike are two features. */
const SEEDS = { chars: 0x811c9dc5, word: 0x01000193, pair: 0x5bd1e995 } as const;

/** FNV-1a over `text[start, end)`: features are numbers, cheaper to store and compare than strings. */
function hash(text: string, start: number, end: number, seed: number): number {
  let h = seed;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** The distinct features of a message and the weight each has (all the same, the whole of length 1). */
export type TextFeatures = { ids: number[]; weight: number };

/**
 * Character 3- and 4-grams of the accent-folded, lowercased text (word edges marked by spaces), its
 * words and its pairs of neighbouring words. Each present feature weighs the same and the whole has
 * length 1, so a long message is not surer of itself than a short one.
 */
export function textFeatures(text: string): TextFeatures {
  const said = words(text);
  const ids = new Set<number>();
  const padded = ` ${said.join(" ")} `;
  for (const n of CHAR_GRAMS) {
    for (let i = 0; i + n <= padded.length; i++) ids.add(hash(padded, i, i + n, SEEDS.chars));
  }
  for (let i = 0; i < said.length; i++) {
    const word = said[i] ?? "";
    ids.add(hash(word, 0, word.length, SEEDS.word));
    if (i > 0) {
      const pair = `${said[i - 1]} ${word}`;
      ids.add(hash(pair, 0, pair.length, SEEDS.pair));
    }
  }
  return { ids: [...ids], weight: ids.size === 0 ? 0 : 1 / Math.sqrt(ids.size) };
}
