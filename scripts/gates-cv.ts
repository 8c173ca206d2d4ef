/**
 * Cross-validation of the gates classifier on its TRAINING data only, for choosing features and
 * hyper-parameters without reading the held-back split (docs/evaluation.md, "The intent gates"):
 *
 *   node --import tsx scripts/gates-cv.ts [--features JSON] [--training JSON] [--prune X] [--held authors|indep|all]
 *
 * Folds by foldOf (spelling variants land together). `--held authors` (default) scores only the
 * independent authors' train.jsonl lines of each fold, the other files always trained on — the
 * closest the training data comes to the test authors' phrasings; `indep` does the same for
 * indep-train.jsonl (a third author); `all` scores every line. Each fold model is pruned and
 * rounded as the artefact will be. `--held indep-out` trains one model on everything but
 * indep-train.jsonl and scores all of it: how the model does on an author it never saw.
 * Prints accuracy, macro F1 and per-class precision / recall.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { canonicalize, foldOf, GATE_CLASSES, parseExamples, type Example } from "../src/learn/index.js";
import { createFeaturizer, DEFAULT_FEATURES, type FeatureConfig } from "../src/learn/features.js";
import { createScorer } from "../src/learn/scorer.js";
import { DEFAULT_EXPORT, DEFAULT_TRAINING, exportWeights, trainSoftmax, type TrainOptions } from "../src/learn/train.js";
import { GATES_OPTIONS, PRESETS } from "./train-classifier.js";

const { values } = parseArgs({
  options: {
    features: { type: "string" },
    training: { type: "string" },
    prune: { type: "string" },
    held: { type: "string" },
    folds: { type: "string" },
    errors: { type: "boolean" },
    second: { type: "string" },
    seeds: { type: "string" },
    "repeat-scored": { type: "string" },
    "second-weight": { type: "string" },
  },
});
const features: FeatureConfig = { ...DEFAULT_FEATURES, ...GATES_OPTIONS.features, ...(values.features ? JSON.parse(values.features) : {}) };
// JSON null switches an optional family off ({"terms": null}).
if ((features.terms as unknown) === null) delete features.terms;
const training: TrainOptions = { ...DEFAULT_TRAINING, ...GATES_OPTIONS.training, ...(values.training ? JSON.parse(values.training) : {}) };
const exporting = { ...DEFAULT_EXPORT, ...GATES_OPTIONS.export, ...(values.prune ? { pruneBelow: Number(values.prune) } : {}) };
const held = values.held ?? "authors";
const nFolds = Number(values.folds ?? 5);

const classes = GATE_CLASSES;
const heldFile = (file: string) => (held === "all" ? true : held.startsWith("indep") ? file.endsWith("indep-train.jsonl") : file.endsWith("/train.jsonl"));
// One split instead of folds: every scored line held out, the rest trained on.
const outOfFold = held === "indep-out";
const examples: (Example & { scored: boolean })[] = PRESETS.gates.train.flatMap((file) =>
  parseExamples(readFileSync(path.resolve(file), "utf8"), file, classes).examples.map((e) => ({ ...e, scored: heldFile(file) })),
);
const scoredKeys = new Set(examples.filter((e) => e.scored).map((e) => JSON.stringify([e.text, e.label])));
const data = canonicalize(examples).map((e) => ({ ...e, scored: scoredKeys.has(JSON.stringify([e.text, e.label])) }));
const featurizer = createFeaturizer(features);
const vectors = data.map((e) => featurizer.featurize(e.text));
// --second: a second model over other features; the two models' log-probabilities are averaged.
const secondFeatures: FeatureConfig | null = values.second ? { ...DEFAULT_FEATURES, ...JSON.parse(values.second) } : null;
const secondWeight = Number(values["second-weight"] ?? 0.5);
const secondVectors = secondFeatures ? data.map((e) => createFeaturizer(secondFeatures).featurize(e.text)) : [];
const labels = data.map((e) => classes.indexOf(e.label as (typeof classes)[number]));
const folds = data.map((e) => (outOfFold ? 0 : foldOf(e.text, nFolds)));

const confusion = classes.map(() => new Array<number>(classes.length).fill(0));
const errors: string[] = [];
const started = performance.now();
for (let f = 0; f < (outOfFold ? 1 : nFolds); f++) {
  // --repeat-scored N: the held file's other-fold lines N times (weight N for that author).
  const repeat = Number(values["repeat-scored"] ?? 1);
  const rest = data.flatMap((e, i) => (folds[i] !== f || !e.scored ? new Array<number>(e.scored ? repeat : 1).fill(i) : []));
  // --seeds N: the mean of N models trained with shuffles 1..N (one linear model again).
  const nSeeds = Number(values.seeds ?? 1);
  const models = Array.from({ length: nSeeds }, (_, s) =>
    trainSoftmax({ vectors: rest.map((i) => vectors[i]!), labels: rest.map((i) => labels[i]!) }, classes, { ...training, seed: nSeeds === 1 ? training.seed : s + 1 }),
  );
  const model = models[0]!;
  for (const array of ["weights", "biases"] as const) {
    for (let i = 0; i < model[array].length; i++) {
      let sum = 0;
      for (const m of models) sum += m[array][i]!;
      model[array][i] = sum / nSeeds;
    }
  }
  const scorer = createScorer({ features, classes, ...exportWeights(model, exporting) });
  const second = secondFeatures
    ? createScorer({
        features: secondFeatures,
        classes,
        ...exportWeights(trainSoftmax({ vectors: rest.map((i) => secondVectors[i]!), labels: rest.map((i) => labels[i]!) }, classes, training), exporting),
      })
    : null;
  const bestOf = (text: string) => {
    const a = Float64Array.from(scorer.score(text).probabilities);
    if (second === null) return a.indexOf(Math.max(...a));
    const b = second.score(text).probabilities;
    const mixed = Array.from(a, (p, k) => (1 - secondWeight) * Math.log(p) + secondWeight * Math.log(b[k]!));
    return mixed.indexOf(Math.max(...mixed));
  };
  data.forEach((e, i) => {
    if (folds[i] !== f || !e.scored) return;
    const best = bestOf(e.text);
    confusion[labels[i]!]![best]!++;
    if (values.errors && best !== labels[i]) errors.push(`${e.label} → ${classes[best]}: ${e.text}`);
  });
}
const pct = (x: number) => (100 * x).toFixed(1);
let right = 0;
let total = 0;
let f1Sum = 0;
const lines: string[] = [];
let met = 0;
classes.forEach((c, k) => {
  const tp = confusion[k]![k]!;
  const support = confusion[k]!.reduce((a, b) => a + b, 0);
  const claimed = confusion.reduce((a, row) => a + row[k]!, 0);
  const p = claimed === 0 ? 0 : tp / claimed;
  const r = support === 0 ? 0 : tp / support;
  right += tp;
  total += support;
  f1Sum += p + r === 0 ? 0 : (2 * p * r) / (p + r);
  const strict = c === "handoff_request" || c.startsWith("restricted:");
  met += (p >= 0.95 ? 1 : 0) + (r >= (strict ? 0.98 : 0.95) ? 1 : 0);
  lines.push(`${c.padEnd(26)} n=${String(support).padStart(4)}  P ${pct(p).padStart(5)}  R ${pct(r).padStart(5)}`);
});
console.log(
  `held=${held} folds=${nFolds} features=${JSON.stringify({ word: features.word, char: features.char, symbols: features.symbols, terms: features.terms })} ` +
    `training=${JSON.stringify({ l2: training.l2, epochs: training.epochs, classWeights: training.classWeights })} prune=${exporting.pruneBelow}`,
);
console.log(
  `accuracy ${pct(right / total)}% (${right}/${total})  macroF1 ${pct(f1Sum / classes.length)}  targets met ${met}/22  ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
console.log(lines.join("\n"));
if (values.errors) console.log(errors.sort().join("\n"));
