import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { comparePerLanguage, serializeArtefact, trainClassifier, TrainingDataError, type Example } from "../../src/learn/index.js";
import { TINY_OPTIONS, TINY_TEST, TINY_TRAIN } from "./fixtures.js";

const bytes = (options = TINY_OPTIONS) => serializeArtefact(trainClassifier(options).artefact);
const accuracy = (features: NonNullable<typeof TINY_OPTIONS.features>) => trainClassifier({ ...TINY_OPTIONS, features }).artefact.metrics.test.accuracy;
const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof TrainingDataError) return error.problems;
    throw error;
  }
  return [];
};

describe("trainClassifier: determinism", () => {
  const reference = bytes();

  it("gives byte-identical artefacts for the same data", () => {
    expect(bytes()).toBe(reference);
  });

  it("gives the same artefact for the same data in another order", () => {
    const shuffled = [...TINY_TRAIN].sort((a, b) => (a.text.length % 5) - (b.text.length % 5) || (a.text < b.text ? 1 : -1));
    expect(shuffled.map((e) => e.text)).not.toEqual(TINY_TRAIN.map((e) => e.text));
    expect(bytes({ ...TINY_OPTIONS, train: shuffled, test: [...TINY_TEST].reverse() })).toBe(reference);
  });

  // Update the hash when training, features or the format change on purpose. If it changes with
  // nothing but the Node version, determinism across engines is broken: the committed artefact
  // would no longer be reproducible from its data.
  it("gives the pinned bytes on every Node version", () => {
    expect(createHash("sha256").update(reference).digest("hex")).toBe("a50269ee2a8169a5c3137f959f207d11783544d4ecad70362cb529c3467bd616");
  });

  it("never calibrates or trains on the test set: another test set changes only the metrics", () => {
    const other = trainClassifier({ ...TINY_OPTIONS, test: TINY_TEST.slice(0, 10) }).artefact;
    const base = trainClassifier(TINY_OPTIONS).artefact;
    expect(other.weights).toEqual(base.weights);
    expect(other.biases).toEqual(base.biases);
    expect(other.thresholds).toEqual(base.thresholds);
    expect(other.training.trainingDataSha256).toBe(base.training.trainingDataSha256);
    expect(other.training.testDataSha256).not.toBe(base.training.testDataSha256);
    expect(other.metrics.test.examples).toBe(10);
  });
});

describe("trainClassifier: what it measures", () => {
  it("beats word-only features with character n-grams on typos and ZWNJ variants", () => {
    const both = accuracy({});
    const wordsOnly = accuracy({ char: null });
    expect(both).toBeGreaterThanOrEqual(0.85);
    expect(wordsOnly).toBeLessThanOrEqual(0.5);
    expect(both - wordsOnly).toBeGreaterThanOrEqual(0.4);
  });

  it("records hashes, counts, options, per-language metrics and what pruning cost", () => {
    const { artefact } = trainClassifier(TINY_OPTIONS);
    expect(artefact.training.examples).toEqual({ train: 60, test: 30 });
    expect(artefact.training.classCounts.chitchat).toEqual({ train: 12, test: 6 });
    expect(artefact.training.calibration).toEqual({ folds: 3, targetPrecision: 0.9, targetPrecisionByClass: {}, minSupport: 2, minThreshold: 0.3 });
    expect(Object.keys(artefact.metrics.testByLanguage)).toEqual(["fa", "en"]);
    expect(artefact.metrics.testByLanguage.fa!.examples + artefact.metrics.testByLanguage.en!.examples).toBe(30);
    expect(artefact.metrics.calibration.examples).toBe(60);
    expect(artefact.metrics.pruning.weightsKept).toBeLessThan(artefact.metrics.pruning.weightsBefore);
    expect(artefact.metrics.pruning.maxProbabilityChange).toBeLessThan(0.05);
    expect(artefact.metrics.test.confusion.flat().reduce((a, b) => a + b, 0)).toBe(30);
  });

  it("warns about classes that never act alone", () => {
    const { warnings, artefact } = trainClassifier({ ...TINY_OPTIONS, calibration: { ...TINY_OPTIONS.calibration, targetPrecision: 1, minThreshold: 0.99 } });
    expect(Object.values(artefact.thresholds).every((t) => t === null)).toBe(true);
    expect(warnings).toContain("thresholds: chitchat never reaches precision 1 on the folds: it will never act alone");
  });
});

describe("trainClassifier: bad data", () => {
  it("refuses a test set that overlaps the training data, unless told", () => {
    const leaked: Example[] = [...TINY_TEST, { text: "Hello  THERE", label: "chitchat" }];
    expect(problemsOf(() => trainClassifier({ ...TINY_OPTIONS, test: leaked }))).toEqual([
      'test: 1 test text(s) also in the training data: "hello there" (a held-back split must be unseen; pass allowOverlap to accept)',
    ]);
    expect(trainClassifier({ ...TINY_OPTIONS, test: leaked, allowOverlap: true }).warnings).toContain('test: 1 test text(s) also in the training data: "hello there"');
  });

  it("lists every data problem at once", () => {
    const train: Example[] = [...TINY_TRAIN, { text: "Cancel my policy", label: "chitchat" }, { text: "cancel my policy", label: "restricted:cancellation" }];
    const test: Example[] = [...TINY_TEST, { text: "sue you", label: "restricted:legal" }];
    expect(problemsOf(() => trainClassifier({ ...TINY_OPTIONS, train, test, classes: [...new Set(TINY_TRAIN.map((e) => e.label)), "account"] }))).toEqual([
      "test: unknown labels restricted:legal (classes: restricted:cancellation, handoff_request, knowledge, chitchat, restricted:complaint, account)",
      "train: no examples of class account",
      'train: "cancel my policy" is labelled chitchat and restricted:cancellation',
    ]);
    expect(problemsOf(() => trainClassifier({ ...TINY_OPTIONS, test: [] }))).toEqual(["test: no examples (a held-back split is required)"]);
  });

  it("rejects options it cannot train with, naming them", () => {
    expect(problemsOf(() => trainClassifier({ ...TINY_OPTIONS, calibration: { folds: 1, minThreshold: 2 }, export: { significantDigits: 0 } }))).toEqual([
      "export.significantDigits: must be an integer in [1, 17], got 0",
      "calibration.folds: must be an integer ≥ 2, got 1",
      "calibration.minThreshold: must be in [0, 1], got 2",
    ]);
  });
});

describe("comparePerLanguage", () => {
  it("measures one bilingual model against one per language on the same test examples", () => {
    const bilingual = trainClassifier(TINY_OPTIONS);
    const rows = comparePerLanguage(TINY_OPTIONS, bilingual);
    expect(rows.map((r) => [r.language, r.examples])).toEqual([
      ["fa", 15],
      ["en", 15],
    ]);
    for (const row of rows) {
      expect(row.bilingual.accuracy).toBe(bilingual.artefact.metrics.testByLanguage[row.language]!.accuracy);
      expect(row.perLanguage).not.toBeNull();
      expect(row.note).toBeUndefined();
    }
  });
});
