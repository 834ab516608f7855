// Trains the support chat's topic model on the paraphrases (server/shop/chat/paraphrases/*.txt) and
// writes server/shop/chat/topic-model.generated.bin, which the server reads. Run it after editing
// the paraphrases (the tests fail until you do), then bench/chat-offline.ts:
//   npm run chat:train
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TOPIC_LABELS } from "../server/shop/chat/paraphrases";
import { trainTopicWeights } from "../server/shop/chat/topic-classifier";
import { encodeTopicModel } from "../server/shop/chat/topic-model-file";
import { trainingExamples, trainingFingerprint } from "../server/shop/chat/topic-training";

const path = join(import.meta.dir, "../server/shop/chat/topic-model.generated.bin");
const examples = trainingExamples();
const start = performance.now();
const model = trainTopicWeights(TOPIC_LABELS, examples);
const bytes = encodeTopicModel({ fingerprint: trainingFingerprint(examples), model });
writeFileSync(path, bytes);
console.log(
  `trained on ${examples.length} paraphrases in ${((performance.now() - start) / 1000).toFixed(1)} s: ${model.features.length} features, ${(bytes.length / 1024).toFixed(0)} KiB written to ${path}`,
);
