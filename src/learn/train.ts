import { createRandom, roundSignificant, softmaxInto } from "./detmath.js";
import type { SparseVector } from "./features.js";

/**
 * Multinomial logistic regression (softmax) with L2, by stochastic gradient descent. Training is
 * deterministic by construction: the examples come in canonical order, each epoch visits them in
 * an order drawn from a seeded PRNG, the epoch count is fixed (no "until converged" test that a
 * last-bit difference could flip), and every exp is src/learn/detmath's.
 */

export interface TrainOptions {
  /** Passes over the training data. Default 30. */
  epochs: number;
  /** L2 strength per example (the objective is mean loss + l2/2·‖W‖²). Default 1e-4. */
  l2: number;
  /** Initial learning rate η0; step t uses η0 / (1 + η0·l2·t). Default 0.5. */
  learningRate: number;
  /** Seed of the per-epoch shuffle. Default 1. */
  seed: number;
  /**
   * Loss weight per class: "none" (all 1), "balanced" (n / (classes · n_class), so every class
   * weighs the same in total), or an explicit map (missing classes weigh 1). Default "none".
   */
  classWeights: "none" | "balanced" | Readonly<Record<string, number>>;
}

export const DEFAULT_TRAINING: TrainOptions = { epochs: 30, l2: 1e-4, learningRate: 0.5, seed: 1, classWeights: "none" };

export interface TrainingSet {
  vectors: readonly SparseVector[];
  /** Class index of each vector. */
  labels: ArrayLike<number>;
}

/** The trained weights over the buckets the training data used. */
export interface LinearModel {
  classes: readonly string[];
  biases: Float64Array;
  /** Strictly increasing buckets. */
  buckets: Int32Array;
  /** buckets.length × classes.length, feature-major: weights[f·K + k]. */
  weights: Float64Array;
}

export function classWeightsOf(option: TrainOptions["classWeights"], classes: readonly string[], labels: ArrayLike<number>): Float64Array {
  const out = new Float64Array(classes.length).fill(1);
  if (option === "none") return out;
  if (option === "balanced") {
    const counts = new Float64Array(classes.length);
    for (let i = 0; i < labels.length; i++) counts[labels[i]!]! += 1;
    classes.forEach((_, k) => {
      out[k] = counts[k]! > 0 ? labels.length / (classes.length * counts[k]!) : 1;
    });
    return out;
  }
  for (const [name, weight] of Object.entries(option)) {
    const k = classes.indexOf(name);
    if (k < 0) throw new Error(`classWeights: unknown class "${name}" (classes: ${classes.join(", ")})`);
    if (!(weight > 0) || !Number.isFinite(weight)) throw new Error(`classWeights.${name}: must be a positive number, got ${weight}`);
    out[k] = weight;
  }
  return out;
}

export function trainSoftmax(set: TrainingSet, classes: readonly string[], options: TrainOptions = DEFAULT_TRAINING): LinearModel {
  const K = classes.length;
  const N = set.vectors.length;
  if (K < 2) throw new Error(`training needs at least two classes, got ${K}`);
  if (N === 0) throw new Error("training needs at least one example");
  if (!Number.isInteger(options.epochs) || options.epochs < 1) throw new Error(`epochs: must be a positive integer, got ${options.epochs}`);
  if (!(options.l2 >= 0)) throw new Error(`l2: must be ≥ 0, got ${options.l2}`);
  if (!(options.learningRate > 0)) throw new Error(`learningRate: must be > 0, got ${options.learningRate}`);

  // Compact the buckets the data uses into 0..F-1, so the weight matrix is as small as the data.
  const used = new Set<number>();
  for (const v of set.vectors) for (const b of v.indices) used.add(b);
  const buckets = Int32Array.from(used).sort();
  const column = new Map<number, number>();
  buckets.forEach((b, f) => {
    column.set(b, f);
  });
  const rows = set.vectors.map((v) => Int32Array.from(v.indices, (b) => column.get(b)!));

  const classWeight = classWeightsOf(options.classWeights, classes, set.labels);
  // W = scale · V: the L2 decay of every weight is one multiplication of `scale` per step.
  const V = new Float64Array(buckets.length * K);
  const biases = new Float64Array(K);
  let scale = 1;
  const logits = new Float64Array(K);
  const probs = new Float64Array(K);
  const grad = new Float64Array(K);
  const order = Int32Array.from({ length: N }, (_, i) => i);
  const random = createRandom(options.seed);
  const { l2, learningRate: eta0 } = options;
  let step = 0;

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = N - 1; i > 0; i--) {
      const j = random(i + 1);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    for (let o = 0; o < N; o++) {
      const n = order[o]!;
      const cols = rows[n]!;
      const values = set.vectors[n]!.values;
      const y = set.labels[n]!;
      for (let k = 0; k < K; k++) logits[k] = biases[k]!;
      for (let t = 0; t < cols.length; t++) {
        const base = cols[t]! * K;
        const x = values[t]! * scale;
        for (let k = 0; k < K; k++) logits[k] = logits[k]! + V[base + k]! * x;
      }
      softmaxInto(logits, probs);
      const cw = classWeight[y]!;
      for (let k = 0; k < K; k++) grad[k] = cw * (probs[k]! - (k === y ? 1 : 0));

      const eta = eta0 / (1 + eta0 * l2 * step);
      scale *= 1 - eta * l2;
      const c = eta / scale;
      for (let t = 0; t < cols.length; t++) {
        const base = cols[t]! * K;
        const x = values[t]! * c;
        for (let k = 0; k < K; k++) V[base + k] = V[base + k]! - grad[k]! * x;
      }
      for (let k = 0; k < K; k++) biases[k] = biases[k]! - eta * grad[k]!;
      if (scale < 1e-9) {
        for (let i = 0; i < V.length; i++) V[i] = V[i]! * scale;
        scale = 1;
      }
      step++;
    }
  }
  for (let i = 0; i < V.length; i++) V[i] = V[i]! * scale;
  return { classes, biases, buckets, weights: V };
}

/** One class's weights in the artefact: gaps between increasing buckets, and the values. */
export interface SparseClassWeights {
  /** The first bucket, then the gap (> 0) from the previous one: short numbers in JSON. */
  bucketGaps: number[];
  values: number[];
}

export interface ExportOptions {
  /**
   * Weights with |w| below this (after the median shift and rounding) are dropped. Default 0.02:
   * on synthetic gates data it changed no prediction and no probability by more than 0.01, at
   * half the size of 0.005 (each artefact's metrics.pruning reports the same for its test set).
   */
  pruneBelow: number;
  /** Significant digits kept of every weight and bias. Default 4. */
  significantDigits: number;
}

export const DEFAULT_EXPORT: ExportOptions = { pruneBelow: 0.02, significantDigits: 4 };

/**
 * Rounds and prunes a trained model into the artefact's sparse per-class form. Softmax is
 * unchanged when one feature's weights in every class move by the same amount (every logit
 * moves by that amount times the feature's value), so each feature's weights are first shifted
 * by their median: a feature typical of one class then has one large weight and K−1 near zero,
 * instead of K−1 small negative weights that all survive pruning. Exact before pruning; on
 * synthetic gates data it keeps 40% fewer weights at the same pruneBelow.
 */
export function exportWeights(model: LinearModel, options: ExportOptions = DEFAULT_EXPORT): { biases: number[]; weights: SparseClassWeights[] } {
  const K = model.classes.length;
  const F = model.buckets.length;
  const shifted = new Float64Array(F * K);
  const column = new Float64Array(K);
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < K; k++) column[k] = model.weights[f * K + k]!;
    column.sort();
    // The lower median for an even K: with two classes, one weight becomes exactly 0.
    const median = column[(K - 1) >> 1]!;
    for (let k = 0; k < K; k++) shifted[f * K + k] = model.weights[f * K + k]! - median;
  }
  const weights = model.classes.map((_, k) => {
    const bucketGaps: number[] = [];
    const values: number[] = [];
    let previous = -1;
    for (let f = 0; f < F; f++) {
      const raw = shifted[f * K + k]!;
      // Rounding moves a weight by a relative 10^-digits at most: most are pruned without it.
      if (Math.abs(raw) < options.pruneBelow * 0.99) continue;
      const w = options.significantDigits >= 17 ? raw : roundSignificant(raw, options.significantDigits);
      if (w === 0 || Math.abs(w) < options.pruneBelow) continue;
      const bucket = model.buckets[f]!;
      bucketGaps.push(previous < 0 ? bucket : bucket - previous);
      values.push(w);
      previous = bucket;
    }
    return { bucketGaps, values };
  });
  return { biases: Array.from(model.biases, (b) => roundSignificant(b, options.significantDigits)), weights };
}
