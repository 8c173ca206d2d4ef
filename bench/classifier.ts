/**
 * `npm run bench:classifier` — the in-process classifier's cost, measured in one run so the
 * figures are comparable:
 *   1. a bare foldForMatch call on the same text: the baseline every gate already pays;
 *   2. featurize (fold, tokenise, hash word and character n-grams);
 *   3. classify (featurize, score, softmax) with the gates model and with the detector model;
 * on models trained here from synthetic data of the real data's size (bench/classifier-data.ts),
 * which also gives training time and artefact size. Reported as p50/p90/p99 per call and as
 * ratios against the baseline's. Benchmarks report, never assert. Options: --calls N (default
 * 20000), --per-language N (synthetic gates examples per language, default 2000).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createFeaturizer, DETECTOR_CLASSES, GATE_CLASSES, serializeArtefact, trainClassifier, type Classifier, type Example } from "../src/learn/index.js";
import { foldForMatch } from "../src/text/index.js";
import { syntheticDetector, syntheticGates } from "./classifier-data.js";
import { summarize, table, type Summary } from "./stats.js";

const { values } = parseArgs({ options: { calls: { type: "string", default: "20000" }, "per-language": { type: "string", default: "2000" } } });
const CALLS = Number(values.calls);
const PER_LANGUAGE = Number(values["per-language"]);
const CORPUS = path.join(import.meta.dirname, "..", "data", "corpus");

/** Unique texts, every tenth held back: synthetic data repeats itself. */
function split(examples: readonly Example[]): { train: Example[]; test: Example[] } {
  const seen = new Set<string>();
  const unique = examples.filter((e) => !seen.has(e.text) && seen.add(e.text));
  return { train: unique.filter((_, i) => i % 10 !== 0), test: unique.filter((_, i) => i % 10 === 0) };
}

function train(name: string, classes: readonly string[], examples: readonly Example[]) {
  const { train, test } = split(examples);
  const started = performance.now();
  const trained = trainClassifier({ name, classes, train, test, allowOverlap: true });
  const seconds = (performance.now() - started) / 1000;
  return {
    classifier: trained.classifier,
    test,
    row: [name, String(train.length), `${seconds.toFixed(1)} s`, `${(Buffer.byteLength(serializeArtefact(trained.artefact)) / 1024).toFixed(0)} KiB`],
  };
}

/** Per-call wall time in µs, cycling through `texts`, after a warm-up. */
function time(texts: readonly string[], call: (text: string) => unknown): Summary {
  let sink = 0;
  for (let i = 0; i < 2000; i++) sink += call(texts[i % texts.length]!) === undefined ? 0 : 1;
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const text = texts[i % texts.length]!;
    const start = performance.now();
    sink += call(text) === undefined ? 0 : 1;
    samples.push((performance.now() - start) * 1000);
  }
  if (sink < 0) console.log(sink);
  return summarize(samples);
}

const us = (x: number) => `${x.toFixed(1)} µs`;
const ratio = (x: number, base: number) => `${(x / base).toFixed(1)}×`;

function latencyRows(label: string, texts: readonly string[], classifier: Classifier): string[][] {
  const featurizer = createFeaturizer(classifier.artefact.features);
  const base = time(texts, foldForMatch);
  const feat = time(texts, (t) => featurizer.featurizeShared(t));
  const full = time(texts, (t) => classifier.decide(classifier.classify(t)));
  const row = (name: string, s: Summary) => [`${label}: ${name}`, us(s.p50), us(s.p90), us(s.p99), ratio(s.p50, base.p50), ratio(s.p99, base.p99)];
  return [row("foldForMatch (baseline)", base), row("featurize", feat), row("classify + decide", full)];
}

async function main() {
  const gates = train("gates", GATE_CLASSES, syntheticGates(CORPUS, PER_LANGUAGE, 7));
  const detector = train("detector", DETECTOR_CLASSES, syntheticDetector(CORPUS, Math.round(PER_LANGUAGE * 0.75), 3));
  console.log("Training on synthetic data (size, not quality, of the real sets):\n");
  console.log(table(["model", "training examples", "training time (5 folds + final)", "artefact"], [gates.row, detector.row]));
  const gateTexts = gates.test.map((e) => e.text);
  const documentTexts = detector.test.map((e) => e.text);
  console.log(
    `\nPer call, ${CALLS} calls each (gates: user messages, mean ${Math.round(gateTexts.join("").length / gateTexts.length)} chars; detector: document passages, mean ${Math.round(documentTexts.join("").length / documentTexts.length)} chars):\n`,
  );
  console.log(
    table(
      ["call", "p50", "p90", "p99", "p50 vs baseline", "p99 vs baseline"],
      [...latencyRows("gates", gateTexts, gates.classifier), ...latencyRows("detector", documentTexts, detector.classifier)],
    ),
  );
}

await main();
