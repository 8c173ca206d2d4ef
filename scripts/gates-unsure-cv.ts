/**
 * Which fallback settles an unsure gate reading, measured on the training data only (out-of-fold
 * models, as scripts/gates-cv.ts; the bundle's thresholds decide "unsure"):
 * `node --import tsx scripts/gates-unsure-cv.ts`. Lines a policy list or shouting decides are left
 * out, as the deployed gate never reaches the classifier for them. Each fallback is scored on the
 * unsure lines: right, knowledge questions escalated, knowledge read as chitchat or out of scope,
 * missed handoff or restricted requests, and escalations with the wrong reason.
 * docs/evaluation.md ("ninth session") has what it showed and why the eval sets overruled it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { settled } from "../src/agent/nodes/triage.js";
import { createPolicy, isShouting } from "../src/agent/policy.js";
import { loadBundle } from "../src/app/bundle.js";
import { PACKAGE_ROOT } from "../src/config/config.js";
import { canonicalize, foldOf, GATE_CLASSES, parseExamples, type GateClass } from "../src/learn/index.js";
import { createFeaturizer, DEFAULT_FEATURES, type FeatureConfig } from "../src/learn/features.js";
import { createScorer } from "../src/learn/scorer.js";
import { DEFAULT_EXPORT, DEFAULT_TRAINING, exportWeights, trainSoftmax } from "../src/learn/train.js";
import { triage } from "../src/models/offline/triage.js";
import { detectLanguage } from "../src/text/index.js";
import { GATES_OPTIONS, PRESETS } from "./train-classifier.js";

const bundle = loadBundle(path.join(PACKAGE_ROOT, "bundle"));
const policy = createPolicy(bundle);
const thresholds = bundle.gates.thresholds as Record<string, number | null>;
const classes = GATE_CLASSES;
const features: FeatureConfig = { ...DEFAULT_FEATURES, ...GATES_OPTIONS.features };
const training = { ...DEFAULT_TRAINING, ...GATES_OPTIONS.training };
const exporting = { ...DEFAULT_EXPORT, ...GATES_OPTIONS.export };
const data = canonicalize(PRESETS.gates.train.flatMap((file) => parseExamples(readFileSync(path.resolve(file), "utf8"), file, classes).examples));
const featurizer = createFeaturizer(features);
const vectors = data.map((e) => featurizer.featurize(e.text));
const labels = data.map((e) => classes.indexOf(e.label as GateClass));
const folds = data.map((e) => foldOf(e.text, 5));

interface Unsure {
  actual: GateClass;
  probs: number[];
  rules: ReturnType<typeof triage>["intent"];
}
const unsure: Unsure[] = [];
let confident = 0;
let confidentRight = 0;
let listed = 0;
for (let f = 0; f < 5; f++) {
  const rest = data.flatMap((_, i) => (folds[i] !== f ? [i] : []));
  const model = trainSoftmax({ vectors: rest.map((i) => vectors[i]!), labels: rest.map((i) => labels[i]!) }, classes, training);
  const scorer = createScorer({ features, classes, ...exportWeights(model, exporting) });
  data.forEach((e, i) => {
    if (folds[i] !== f) return;
    if (policy.evaluate({ text: e.text, pendingOptions: null }) !== null || isShouting(e.text)) {
      listed++;
      return;
    }
    const { best, probabilities } = scorer.score(e.text);
    const t = thresholds[classes[best]!];
    if (t !== null && t !== undefined && probabilities[best]! >= t) {
      confident++;
      if (best === labels[i]) confidentRight++;
      return;
    }
    unsure.push({ actual: e.label as GateClass, probs: Array.from(probabilities), rules: triage({ text: e.text, language: detectLanguage(e.text).language, history: [] }).intent });
  });
}
const argmax = (p: number[]) => classes[p.indexOf(Math.max(...p))]!;
const k = classes.indexOf("knowledge");
const fallbacks: Record<string, (u: Unsure) => GateClass> = {
  "rules (today)": (u) => settled(argmax(u.probs), u.rules),
  "lean (argmax)": (u) => argmax(u.probs),
  "rules say knowledge, else lean": (u) => (u.rules === "knowledge" ? "knowledge" : argmax(u.probs)),
  "lean unless rules say knowledge and p(knowledge) ≥ 0.2": (u) => (u.rules === "knowledge" && u.probs[k]! >= 0.2 ? "knowledge" : argmax(u.probs)),
  "lean unless rules say knowledge and p(knowledge) ≥ 0.1": (u) => (u.rules === "knowledge" && u.probs[k]! >= 0.1 ? "knowledge" : argmax(u.probs)),
  "rules, but a handoff or restricted lean ≥ 0.5 stands": (u) => {
    const lean = argmax(u.probs);
    const strict = lean === "handoff_request" || lean.startsWith("restricted:");
    return strict && Math.max(...u.probs) >= 0.5 ? lean : settled(lean, u.rules);
  },
};
const escalates = (c: GateClass) => c !== "knowledge" && c !== "chitchat" && c !== "out_of_scope";
console.log(`listed or shouting ${listed}; confident ${confident} (${((100 * confidentRight) / confident).toFixed(1)}% right); unsure ${unsure.length}`);
for (const [name, fn] of Object.entries(fallbacks)) {
  const got = unsure.map((u) => ({ a: u.actual, p: fn(u) }));
  const right = got.filter((g) => g.a === g.p).length;
  const falseEsc = got.filter((g) => g.a === "knowledge" && escalates(g.p)).length;
  const missedStrict = got.filter((g) => (g.a === "handoff_request" || g.a.startsWith("restricted:")) && !escalates(g.p)).length;
  const wrongReason = got.filter((g) => escalates(g.a) && escalates(g.p) && g.a !== g.p).length;
  const refusedKnowledge = got.filter((g) => g.a === "knowledge" && (g.p === "chitchat" || g.p === "out_of_scope")).length;
  console.log(
    `${name.padEnd(56)} right ${right}/${got.length} (${((100 * right) / got.length).toFixed(1)}%)  knowledge escalated ${falseEsc}  knowledge as chit/oos ${refusedKnowledge}  strict missed ${missedStrict}  wrong reason ${wrongReason}`,
  );
}
const byActual = new Map<string, number>();
for (const u of unsure) byActual.set(u.actual, (byActual.get(u.actual) ?? 0) + 1);
console.log([...byActual].map(([c, n]) => `${c} ${n}`).join(", "));
