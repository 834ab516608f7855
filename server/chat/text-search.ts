// A tiny BM25 ranking for the offline assistant (issue 5): accent- and case-insensitive, with light
// stemming and per-language stop words and synonyms. The corpus is a few dozen passages, so an
// in-memory index built once per language is plenty.

/** Lowercase, no accents, ligatures opened, split on anything that is not a letter or a digit. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * A crude stemmer that works well enough for the four Romance/Germanic languages of the site: drop
 * a plural ending, then keep the first six letters ("remboursement", "remboursé" -> "rembou").
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && (w.endsWith("s") || w.endsWith("x"))) w = w.slice(0, -1);
  return w.length > 6 ? w.slice(0, 6) : w;
}

export type Analyzer = (text: string) => string[];

export type Hit<T> = { item: T; score: number };

export type SearchIndex<T> = { search(query: string, limit?: number): Hit<T>[]; analyze: Analyzer };

/** Okapi BM25 (k1 = 1.2, b = 0.75) over one field made of all the text of an item. */
export function createIndex<T>(items: readonly T[], textOf: (item: T) => string, analyze: Analyzer): SearchIndex<T> {
  const k1 = 1.2;
  const b = 0.75;
  const docs = items.map((item) => {
    const terms = analyze(textOf(item));
    const tf = new Map<string, number>();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    return { item, tf, length: terms.length };
  });
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const term of d.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const n = df.get(term) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };

  return {
    analyze,
    search(query, limit = 3) {
      const terms = [...new Set(analyze(query))];
      const hits: Hit<T>[] = [];
      for (const d of docs) {
        let score = 0;
        for (const term of terms) {
          const f = d.tf.get(term);
          if (f === undefined) continue;
          score += (idf(term) * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * d.length) / avgLength));
        }
        if (score > 0) hits.push({ item: d.item, score });
      }
      return hits.sort((x, y) => y.score - x.score).slice(0, limit);
    },
  };
}
