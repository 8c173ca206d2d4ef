import { describe, expect, it } from "vitest";
import { softmaxInto } from "../../src/learn/detmath.js";
import { createFeaturizer, DEFAULT_FEATURES } from "../../src/learn/features.js";
import { createScorer } from "../../src/learn/scorer.js";
import { classWeightsOf, DEFAULT_TRAINING, exportWeights, trainSoftmax, type LinearModel } from "../../src/learn/train.js";
import { canonicalize } from "../../src/learn/data.js";
import { TINY_TRAIN } from "./fixtures.js";

const examples = canonicalize(TINY_TRAIN);
const classes = [...new Set(examples.map((e) => e.label))].sort();
const featurizer = createFeaturizer(DEFAULT_FEATURES);
const set = { vectors: examples.map((e) => featurizer.featurize(e.text)), labels: examples.map((e) => classes.indexOf(e.label)) };

/** Probabilities from the raw trained model, with no export in between. */
function rawProbabilities(model: LinearModel, text: string): Float64Array {
  const v = featurizer.featurize(text);
  const K = model.classes.length;
  const logits = Float64Array.from(model.biases);
  v.indices.forEach((bucket, t) => {
    let lo = 0;
    let hi = model.buckets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (model.buckets[mid]! < bucket) lo = mid + 1;
      else if (model.buckets[mid]! > bucket) hi = mid - 1;
      else {
        for (let k = 0; k < K; k++) logits[k]! += model.weights[mid * K + k]! * v.values[t]!;
        break;
      }
    }
  });
  const out = new Float64Array(K);
  softmaxInto(logits, out);
  return out;
}

describe("trainSoftmax", () => {
  const model = trainSoftmax(set, classes);

  it("fits its training data", () => {
    const right = examples.filter((e) => {
      const p = rawProbabilities(model, e.text);
      return classes[p.indexOf(Math.max(...p))] === e.label;
    });
    expect(right.length).toBe(examples.length);
  });

  it("is deterministic: the same data, options and seed give identical weights, another seed others", () => {
    const again = trainSoftmax(set, classes);
    expect(again.weights).toEqual(model.weights);
    expect(again.biases).toEqual(model.biases);
    const reseeded = trainSoftmax(set, classes, { ...DEFAULT_TRAINING, seed: 2 });
    expect(reseeded.weights).not.toEqual(model.weights);
  });

  it("rejects impossible input", () => {
    expect(() => trainSoftmax(set, ["only"])).toThrow("training needs at least two classes, got 1");
    expect(() => trainSoftmax({ vectors: [], labels: [] }, classes)).toThrow("training needs at least one example");
    expect(() => trainSoftmax(set, classes, { ...DEFAULT_TRAINING, epochs: 0 })).toThrow("epochs: must be a positive integer, got 0");
  });
});

describe("classWeightsOf", () => {
  it("weighs classes none, balanced or by name", () => {
    const labels = [0, 0, 0, 1];
    expect(Array.from(classWeightsOf("none", ["a", "b"], labels))).toEqual([1, 1]);
    expect(Array.from(classWeightsOf("balanced", ["a", "b"], labels))).toEqual([4 / 6, 2]);
    expect(Array.from(classWeightsOf({ b: 3 }, ["a", "b"], labels))).toEqual([1, 3]);
    expect(() => classWeightsOf({ c: 3 }, ["a", "b"], labels)).toThrow('classWeights: unknown class "c" (classes: a, b)');
    expect(() => classWeightsOf({ a: -1 }, ["a", "b"], labels)).toThrow("classWeights.a: must be a positive number, got -1");
  });

  it("moves predictions towards a heavier class", () => {
    const base = trainSoftmax(set, classes);
    const heavy = trainSoftmax(set, classes, { ...DEFAULT_TRAINING, classWeights: { knowledge: 5 } });
    const k = classes.indexOf("knowledge");
    const text = "a question about something new";
    expect(rawProbabilities(heavy, text)[k]!).toBeGreaterThan(rawProbabilities(base, text)[k]!);
  });
});

describe("exportWeights", () => {
  const model = trainSoftmax(set, classes);

  it("changes no probability before pruning and rounding: the median shift is exact", () => {
    const scorer = createScorer({ features: DEFAULT_FEATURES, classes, ...exportWeights(model, { pruneBelow: 0, significantDigits: 17 }) });
    for (const e of examples) {
      const raw = rawProbabilities(model, e.text);
      const exported = scorer.score(e.text).probabilities;
      raw.forEach((p, k) => {
        expect(exported[k]!).toBeCloseTo(p, 12);
      });
    }
  });

  it("prunes small weights, rounds to significant digits, and encodes buckets as gaps", () => {
    const all = exportWeights(model, { pruneBelow: 0, significantDigits: 17 });
    const pruned = exportWeights(model, { pruneBelow: 0.05, significantDigits: 3 });
    const total = (w: typeof all) => w.weights.reduce((a, c) => a + c.values.length, 0);
    expect(total(pruned)).toBeLessThan(total(all) / 2);
    for (const w of pruned.weights) {
      expect(w.values.every((v) => Math.abs(v) >= 0.05 && Number(v.toPrecision(3)) === v)).toBe(true);
      expect(w.bucketGaps.slice(1).every((g) => g > 0)).toBe(true);
      const buckets = w.bucketGaps.map((_, i) => w.bucketGaps.slice(0, i + 1).reduce((a, b) => a + b, 0));
      expect(buckets.every((b) => model.buckets.includes(b))).toBe(true);
    }
    expect(pruned.biases.every((b) => Number(b.toPrecision(3)) === b)).toBe(true);
  });

  it("leaves at least one weight of every feature at exactly zero (the median)", () => {
    const all = exportWeights(model, { pruneBelow: 0, significantDigits: 17 });
    expect(all.weights.reduce((a, c) => a + c.values.length, 0)).toBeLessThanOrEqual(model.buckets.length * (classes.length - 1));
  });
});
