import { textFeatures } from "./text-features";

// A multinomial logistic regression over character n-grams (text-features.ts), trained when the
// assistant starts from the paraphrases in paraphrases/*.txt: plain TypeScript, a few hundred
// lines of arithmetic, nothing downloaded. Its output is a probability per label, so the caller can
// tell a clear answer from a guess (docs/decisions/015-chat-topic-classifier.md).

export type Example<L extends string> = { text: string; label: L };

export type Scored<L extends string> = { label: L; probability: number };

export type TopicClassifier<L extends string> = {
  labels: readonly L[];
  /** Every label with its probability, most likely first. */
  classify(text: string): Scored<L>[];
};

export type TrainingOptions = {
  /** Passes over the examples. */
  epochs?: number;
  /** Step size of the first pass; it shrinks with each pass. */
  learningRate?: number;
  /** Seed of the order the examples are visited in, so two trainings give the same model. */
  seed?: number;
};

/**
 * Chosen by 5-fold cross-validation on the paraphrases. L2 shrinking and weighting rare labels up
 * were tried and dropped: they moved the errors around without reducing them.
 */
const DEFAULTS = { epochs: 12, learningRate: 10, seed: 7 } satisfies Required<TrainingOptions>;

/** A small deterministic generator (mulberry32): the same seed gives the same order of examples. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Encoded = { indexes: Int32Array; value: number; label: number };

export function trainTopicClassifier<L extends string>(
  labels: readonly L[],
  examples: readonly Example<L>[],
  options: TrainingOptions = {},
): TopicClassifier<L> {
  const { epochs, learningRate, seed } = { ...DEFAULTS, ...options };
  const labelIndex = new Map(labels.map((label, i) => [label, i]));
  // Each feature seen in training gets a row of weights; a feature never seen says nothing.
  const vocabulary = new Map<number, number>();
  const encoded: Encoded[] = examples.map(({ text, label }) => {
    const { ids, weight } = textFeatures(text);
    const indexes = new Int32Array(ids.length);
    for (const [k, id] of ids.entries()) {
      let index = vocabulary.get(id);
      if (index === undefined) {
        index = vocabulary.size;
        vocabulary.set(id, index);
      }
      indexes[k] = index;
    }
    const labelAt = labelIndex.get(label);
    if (labelAt === undefined) throw new Error(`A training example has the unknown label "${label}"`);
    return { indexes, value: weight, label: labelAt };
  });

  const classes = labels.length;
  // Feature-major: the weights of one feature for every label sit side by side.
  const weights = new Float32Array(vocabulary.size * classes);
  const bias = new Float32Array(classes);
  const scores = new Float64Array(classes);

  const softmax = (indexes: Int32Array, value: number) => {
    for (let c = 0; c < classes; c++) scores[c] = bias[c] ?? 0;
    for (let k = 0; k < indexes.length; k++) {
      const row = (indexes[k] ?? 0) * classes;
      for (let c = 0; c < classes; c++) scores[c] = (scores[c] ?? 0) + value * (weights[row + c] ?? 0);
    }
    let max = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < classes; c++) max = Math.max(max, scores[c] ?? 0);
    let sum = 0;
    for (let c = 0; c < classes; c++) {
      const e = Math.exp((scores[c] ?? 0) - max);
      scores[c] = e;
      sum += e;
    }
    for (let c = 0; c < classes; c++) scores[c] = (scores[c] ?? 0) / sum;
  };

  const random = randomFrom(seed);
  const order = encoded.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const swap = order[i] ?? 0;
      order[i] = order[j] ?? 0;
      order[j] = swap;
    }
    const rate = learningRate / Math.sqrt(1 + epoch);
    for (const at of order) {
      const example = encoded[at];
      if (example === undefined) continue;
      softmax(example.indexes, example.value);
      // The gradient of the log-loss is (probability - truth) for each label.
      scores[example.label] = (scores[example.label] ?? 0) - 1;
      for (let c = 0; c < classes; c++) bias[c] = (bias[c] ?? 0) - rate * 0.1 * (scores[c] ?? 0);
      for (let k = 0; k < example.indexes.length; k++) {
        const row = (example.indexes[k] ?? 0) * classes;
        const step = rate * example.value;
        for (let c = 0; c < classes; c++) weights[row + c] = (weights[row + c] ?? 0) - step * (scores[c] ?? 0);
      }
    }
  }

  return {
    labels,
    classify(text) {
      const { ids, weight } = textFeatures(text);
      const indexes: number[] = [];
      for (const id of ids) {
        const index = vocabulary.get(id);
        if (index !== undefined) indexes.push(index);
      }
      softmax(Int32Array.from(indexes), weight);
      return labels.map((label, c) => ({ label, probability: scores[c] ?? 0 })).sort((a, b) => b.probability - a.probability);
    },
  };
}
