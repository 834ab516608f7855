import { textFeatures } from "./text-features";

// A multinomial logistic regression over character n-grams (text-features.ts), trained from the
// paraphrases in paraphrases/*.txt: plain TypeScript, a few hundred lines of arithmetic, nothing
// downloaded. Its output is a probability per label, so the caller can tell a clear answer from a
// guess (docs/decisions/015-chat-topic-classifier.md). Training happens when the model file is made
// (scripts/train-chat-model.ts), not when a visitor asks: the server only reads the weights.

export type Example<L extends string> = { text: string; label: L };

export type Scored<L extends string> = { label: L; probability: number };

export type TopicClassifier<L extends string> = {
  labels: readonly L[];
  /** Every label with its probability, most likely first. */
  classify(text: string): Scored<L>[];
};

/** What training learns: a row of weights per feature seen in training, and a bias per label. */
export type TopicWeights<L extends string> = {
  labels: readonly L[];
  /** The feature ids (text-features.ts) that have a row, in row order, increasing. */
  features: Uint32Array;
  /**
   * Feature-major: the weights of one feature for every label side by side, as trained, or stored
   * one byte each (the model file) with each row's `scales` factor.
   */
  weights: Float32Array | Int8Array;
  scales?: Float32Array;
  bias: Float32Array;
};

export type TrainingOptions = {
  /** Passes over the examples. */
  epochs?: number;
  /** Step size of the first pass; it shrinks with each pass. */
  learningRate?: number;
  /** Seed of the order the examples are visited in, so two trainings give the same model. */
  seed?: number;
  /**
   * How many trainings, each visiting the examples in its own order (seeded), are averaged into
   * the model. With a step this large one training's weights swing with the examples it saw last:
   * a paraphrase added to one topic, or another seed, moved unrelated answers (four questions in
   * eighty on a buyers' set). The average of several orders does not swing so.
   */
  orders?: number;
};

/**
 * Chosen by 5-fold cross-validation on the paraphrases. L2 shrinking and weighting rare labels up
 * were tried and dropped: they moved the errors around without reducing them. Eight orders: the
 * buyers' sets scored within a question or two of each other over seeds, where one order's scores
 * spread over five.
 */
export const TRAINING_DEFAULTS = { epochs: 12, learningRate: 10, seed: 7, orders: 8 } satisfies Required<TrainingOptions>;

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

/** Softmax of the scores of a message's rows into `scores`, in place. */
function softmaxInto(
  scores: Float64Array,
  { weights, scales, bias }: Pick<TopicWeights<string>, "weights" | "scales" | "bias">,
  rows: ArrayLike<number>,
  value: number,
) {
  const classes = bias.length;
  for (let c = 0; c < classes; c++) scores[c] = bias[c] ?? 0;
  for (let k = 0; k < rows.length; k++) {
    const at = rows[k] ?? 0;
    const row = at * classes;
    const scaled = value * (scales === undefined ? 1 : (scales[at] ?? 0));
    for (let c = 0; c < classes; c++) scores[c] = (scores[c] ?? 0) + scaled * (weights[row + c] ?? 0);
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
}

type Encoded = { rows: Int32Array; value: number; label: number };

export function trainTopicWeights<L extends string>(
  labels: readonly L[],
  examples: readonly Example<L>[],
  options: TrainingOptions = {},
): TopicWeights<L> {
  const { epochs, learningRate, seed, orders } = { ...TRAINING_DEFAULTS, ...options };
  const labelIndex = new Map(labels.map((label, i) => [label, i]));
  // Each feature seen in training gets a row of weights; a feature never seen says nothing.
  const vocabulary = new Map<number, number>();
  const encoded: Encoded[] = examples.map(({ text, label }) => {
    const { ids, weight } = textFeatures(text);
    const rows = new Int32Array(ids.length);
    for (const [k, id] of ids.entries()) {
      let row = vocabulary.get(id);
      if (row === undefined) {
        row = vocabulary.size;
        vocabulary.set(id, row);
      }
      rows[k] = row;
    }
    const labelAt = labelIndex.get(label);
    if (labelAt === undefined) throw new Error(`A training example has the unknown label "${label}"`);
    return { rows, value: weight, label: labelAt };
  });

  const classes = labels.length;
  const weights = new Float32Array(vocabulary.size * classes);
  const bias = new Float32Array(classes);
  for (let run = 0; run < orders; run++) {
    const once = trainInOrder(encoded, vocabulary.size, classes, { epochs, learningRate, seed: seed + 101 * run });
    for (let i = 0; i < weights.length; i++) weights[i] = (weights[i] ?? 0) + (once.weights[i] ?? 0) / orders;
    for (let c = 0; c < classes; c++) bias[c] = (bias[c] ?? 0) + (once.bias[c] ?? 0) / orders;
  }
  return sortedByFeature({ labels, features: Uint32Array.from(vocabulary.keys()), weights, bias });
}

/** One training by stochastic gradient descent, visiting the examples in the order `seed` draws. */
function trainInOrder(
  encoded: readonly Encoded[],
  features: number,
  classes: number,
  { epochs, learningRate, seed }: { epochs: number; learningRate: number; seed: number },
) {
  const weights = new Float32Array(features * classes);
  const bias = new Float32Array(classes);
  const model = { weights, bias };
  const scores = new Float64Array(classes);
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
      softmaxInto(scores, model, example.rows, example.value);
      // The gradient of the log-loss is (probability - truth) for each label.
      scores[example.label] = (scores[example.label] ?? 0) - 1;
      for (let c = 0; c < classes; c++) bias[c] = (bias[c] ?? 0) - rate * 0.1 * (scores[c] ?? 0);
      const step = rate * example.value;
      for (let k = 0; k < example.rows.length; k++) {
        const row = (example.rows[k] ?? 0) * classes;
        for (let c = 0; c < classes; c++) weights[row + c] = (weights[row + c] ?? 0) - step * (scores[c] ?? 0);
      }
    }
  }
  return model;
}

/** The same model with its rows in increasing order of feature id, so that a row is found by bisection. */
function sortedByFeature<L extends string>(model: TopicWeights<L> & { weights: Float32Array }): TopicWeights<L> {
  const classes = model.labels.length;
  const rows = [...model.features.keys()].sort((a, b) => (model.features[a] ?? 0) - (model.features[b] ?? 0));
  const features = new Uint32Array(rows.length);
  const weights = new Float32Array(model.weights.length);
  for (const [to, from] of rows.entries()) {
    features[to] = model.features[from] ?? 0;
    weights.set(model.weights.subarray(from * classes, (from + 1) * classes), to * classes);
  }
  return { ...model, features, weights };
}

/** The row of `id` in features sorted in increasing order, or -1. */
function rowIn(sorted: Uint32Array, id: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = sorted[middle] ?? 0;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The classifier that answers with trained weights, their features in increasing order (as
 * training and the model file give them): a feature's row is found by bisection, so a model read
 * from its file is ready at once, with no table to build.
 */
export function topicClassifier<L extends string>(model: TopicWeights<L>): TopicClassifier<L> {
  const { features } = model;
  const scores = new Float64Array(model.labels.length);
  return {
    labels: model.labels,
    classify(text) {
      const { ids, weight } = textFeatures(text);
      const rows: number[] = [];
      for (const id of ids) {
        const row = rowIn(features, id);
        if (row >= 0) rows.push(row);
      }
      softmaxInto(scores, model, rows, weight);
      return model.labels.map((label, c) => ({ label, probability: scores[c] ?? 0 })).sort((a, b) => b.probability - a.probability);
    },
  };
}

/** Trains and answers at once: for tests and cross-validation; the server reads a trained model file. */
export function trainTopicClassifier<L extends string>(
  labels: readonly L[],
  examples: readonly Example<L>[],
  options: TrainingOptions = {},
): TopicClassifier<L> {
  return topicClassifier(trainTopicWeights(labels, examples, options));
}
