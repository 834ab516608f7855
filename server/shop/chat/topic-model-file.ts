import * as v from "valibot";
import type { TopicWeights } from "./topic-classifier";

// The trained topic model as one file the server reads (scripts/train-chat-model.ts writes it): a
// header (format, the fingerprint of what it was trained on, the labels, the number of features),
// the feature ids (in increasing order, as trained), a scale per feature, the labels' biases, then the weights
// stored as one byte each. A byte per weight keeps the file near a megabyte (git compresses it),
// and reading it is a few milliseconds: nothing to unpack, the weights are a view over the bytes; bench/chat-offline.ts measures
// the model as read back from the file, so the rounding is part of every figure it prints.

const FORMAT = 1;

const HeaderSchema = v.object({
  format: v.literal(FORMAT),
  fingerprint: v.string(),
  labels: v.array(v.string()),
  features: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
type Header = v.InferOutput<typeof HeaderSchema>;

export type TopicModelFile<L extends string> = { fingerprint: string; model: TopicWeights<L> };

/** The file's numbers are little-endian, as on x86 and ARM: read as views, they must be the processor's order. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

const padTo4 = (n: number) => (n + 3) & ~3;

export function encodeTopicModel<L extends string>({ fingerprint, model }: TopicModelFile<L>): Uint8Array {
  const classes = model.labels.length;
  const count = model.features.length;
  const header: Header = { format: FORMAT, fingerprint, labels: [...model.labels], features: count };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const start = padTo4(4 + headerBytes.length);
  const bytes = new Uint8Array(start + (count + count + classes) * 4 + count * classes);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, headerBytes.length, true);
  bytes.set(headerBytes, 4);
  const rows = [...model.features.keys()];
  const scaleOf = (row: number) => {
    let largest = 0;
    for (let c = 0; c < classes; c++) {
      largest = Math.max(largest, Math.abs((model.weights[row * classes + c] ?? 0) * (model.scales?.[row] ?? 1)));
    }
    return largest / 127;
  };
  let at = start;
  for (const row of rows) {
    view.setUint32(at, model.features[row] ?? 0, true);
    at += 4;
  }
  const scales = rows.map(scaleOf);
  for (const scale of scales) {
    view.setFloat32(at, scale, true);
    at += 4;
  }
  for (const value of model.bias) {
    view.setFloat32(at, value, true);
    at += 4;
  }
  for (const [k, row] of rows.entries()) {
    const scale = scales[k] ?? 0;
    for (let c = 0; c < classes; c++) {
      const value = (model.weights[row * classes + c] ?? 0) * (model.scales?.[row] ?? 1);
      view.setInt8(at, scale === 0 ? 0 : Math.round(value / scale));
      at += 1;
    }
  }
  return bytes;
}

/** Reads a model file; `labels` are the ones the code knows, which the file must have in the same order. */
export function decodeTopicModel<L extends string>(bytes: Uint8Array, labels: readonly L[]): TopicModelFile<L> {
  if (!LITTLE_ENDIAN) throw new Error("The chat's topic model file is read on little-endian processors only");
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const parsed = v.safeParse(HeaderSchema, JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))));
  if (!parsed.success) throw new Error("The chat's topic model file is not one this code reads: run scripts/train-chat-model.ts");
  const header = parsed.output;
  if (header.labels.join(",") !== labels.join(",")) {
    throw new Error("The chat's topic model was trained on other topics than the code's: run scripts/train-chat-model.ts");
  }
  const classes = labels.length;
  const count = header.features;
  const start = padTo4(4 + headerLength);
  const end = start + (count + count + classes) * 4 + count * classes;
  if (bytes.byteLength !== end) throw new Error("The chat's topic model file is cut short: run scripts/train-chat-model.ts");
  // Copied once to a buffer of its own (a Buffer's slice would share its pool), so the numbers are
  // aligned and read as views, not one by one.
  const { buffer } = new Uint8Array(bytes.subarray(start, end));
  const features = new Uint32Array(buffer, 0, count);
  const scales = new Float32Array(buffer, count * 4, count);
  const bias = new Float32Array(buffer, count * 8, classes);
  const weights = new Int8Array(buffer, (count + count + classes) * 4, count * classes);
  return { fingerprint: header.fingerprint, model: { labels, features, weights, scales, bias } };
}
