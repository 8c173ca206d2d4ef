import { softmaxInto } from "./detmath.js";
import { createFeaturizer, type FeatureConfig, type SharedVector } from "./features.js";
import type { SparseClassWeights } from "./train.js";

/**
 * The inference core shared by the loaded classifier and by calibration during training, so that
 * thresholds are fitted on exactly the arithmetic the service runs: the pruned, rounded weights
 * of the artefact, laid out for one lookup per feature.
 */
export interface Scorer {
  readonly classes: readonly string[];
  /**
   * Class probabilities of `text` into a buffer owned by the scorer (valid until the next call);
   * returns the index of the most probable class.
   */
  score(text: string): { best: number; probabilities: Float64Array };
}

export interface ScorerParts {
  features: FeatureConfig;
  classes: readonly string[];
  biases: readonly number[];
  /** Aligned with classes. */
  weights: readonly SparseClassWeights[];
}

export function createScorer(parts: ScorerParts): Scorer {
  const featurizer = createFeaturizer(parts.features);
  const K = parts.classes.length;
  // bucket → row of K weights (feature-major, so one feature's weights share a cache line);
  // -1 for a bucket no class kept. An Int32Array over the hash space beats a Map by ~5×.
  const rowOf = new Int32Array(1 << parts.features.hashBits).fill(-1);
  let nRows = 0;
  for (const { bucketGaps } of parts.weights) {
    let bucket = -1;
    for (let i = 0; i < bucketGaps.length; i++) {
      bucket = i === 0 ? bucketGaps[0]! : bucket + bucketGaps[i]!;
      if (rowOf[bucket] === -1) rowOf[bucket] = nRows++;
    }
  }
  const rows = new Float64Array(nRows * K);
  parts.weights.forEach(({ bucketGaps, values }, k) => {
    let bucket = -1;
    for (let i = 0; i < bucketGaps.length; i++) {
      bucket = i === 0 ? bucketGaps[0]! : bucket + bucketGaps[i]!;
      rows[rowOf[bucket]! * K + k] = values[i]!;
    }
  });
  const biases = Float64Array.from(parts.biases);
  const logits = new Float64Array(K);
  const probabilities = new Float64Array(K);

  const scoreVector = (v: SharedVector) => {
    logits.set(biases);
    for (let t = 0; t < v.length; t++) {
      const row = rowOf[v.indices[t]!]!;
      if (row < 0) continue;
      const base = row * K;
      const x = v.values[t]!;
      for (let k = 0; k < K; k++) logits[k] = logits[k]! + rows[base + k]! * x;
    }
    return { best: softmaxInto(logits, probabilities), probabilities };
  };

  return {
    classes: parts.classes,
    score: (text) => scoreVector(featurizer.featurizeShared(text)),
  };
}
