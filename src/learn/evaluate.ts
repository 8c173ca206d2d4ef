/**
 * Metrics on a labelled set and per-class confidence thresholds. Thresholds are calibrated on
 * predictions for training examples the predicting model never saw (cross-fitted folds of the
 * training data, see pipeline.ts), never on the held-back test file: the test metrics then say
 * how well the thresholds generalise instead of how well they were fitted.
 */

/** One scored example: its true class, the predicted class and that prediction's probability. */
export interface Prediction {
  actual: number;
  predicted: number;
  probability: number;
}

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  /** Examples of this class in the set. */
  support: number;
}

/** How a class fares when the classifier acts alone: only predictions at or above its threshold count. */
export interface ConfidentClassMetrics {
  threshold: number | null;
  /** Predictions of this class at or above the threshold. */
  decided: number;
  /** Of those, the share that were right (0 when none were decided). */
  precision: number;
  /** Examples of this class decided correctly, as a share of its support. */
  recall: number;
}

export interface Metrics {
  examples: number;
  accuracy: number;
  macroF1: number;
  perClass: Record<string, ClassMetrics>;
  /** Rows: actual class, columns: predicted class, both in the artefact's class order. */
  confusion: number[][];
  confident: {
    /** Share of examples some class decided alone. */
    coverage: number;
    /** Share of those decisions that were right (0 when none). */
    accuracy: number;
    perClass: Record<string, ConfidentClassMetrics>;
  };
}

/** Metric values keep four decimals: enough to compare runs, and byte-stable in JSON. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const ratio = (a: number, b: number) => (b === 0 ? 0 : round4(a / b));

export function isConfident(p: Prediction, thresholds: readonly (number | null)[]): boolean {
  const t = thresholds[p.predicted];
  return t !== null && t !== undefined && p.probability >= t;
}

export function confidentMetrics(classes: readonly string[], predictions: readonly Prediction[], thresholds: readonly (number | null)[]): Record<string, ConfidentClassMetrics> {
  return Object.fromEntries(
    classes.map((name, k) => {
      let decided = 0;
      let correct = 0;
      let support = 0;
      for (const p of predictions) {
        if (p.actual === k) support++;
        if (p.predicted !== k || !isConfident(p, thresholds)) continue;
        decided++;
        if (p.actual === k) correct++;
      }
      return [name, { threshold: thresholds[k] ?? null, decided, precision: ratio(correct, decided), recall: ratio(correct, support) }];
    }),
  );
}

export function computeMetrics(classes: readonly string[], predictions: readonly Prediction[], thresholds: readonly (number | null)[]): Metrics {
  const K = classes.length;
  const confusion = classes.map(() => new Array<number>(K).fill(0));
  for (const p of predictions) confusion[p.actual]![p.predicted]! += 1;
  let correct = 0;
  let f1Sum = 0;
  const perClass: Record<string, ClassMetrics> = {};
  classes.forEach((name, k) => {
    const tp = confusion[k]![k]!;
    correct += tp;
    const support = confusion[k]!.reduce((a, b) => a + b, 0);
    const predicted = confusion.reduce((a, row) => a + row[k]!, 0);
    const precision = predicted === 0 ? 0 : tp / predicted;
    const recall = support === 0 ? 0 : tp / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    f1Sum += f1;
    perClass[name] = { precision: round4(precision), recall: round4(recall), f1: round4(f1), support };
  });
  const confident = predictions.filter((p) => isConfident(p, thresholds));
  return {
    examples: predictions.length,
    accuracy: ratio(correct, predictions.length),
    macroF1: round4(f1Sum / K),
    perClass,
    confusion,
    confident: {
      coverage: ratio(confident.length, predictions.length),
      accuracy: ratio(confident.filter((p) => p.actual === p.predicted).length, confident.length),
      perClass: confidentMetrics(classes, predictions, thresholds),
    },
  };
}

/** The headline figures of a subset (one language): macro F1 over the classes it has examples of. */
export interface SubsetMetrics {
  examples: number;
  accuracy: number;
  macroF1: number;
  /** Share of the subset decided alone, and the share of those decisions that were right. */
  coverage: number;
  confidentAccuracy: number;
}

export function subsetMetrics(classes: readonly string[], predictions: readonly Prediction[], thresholds: readonly (number | null)[]): SubsetMetrics {
  const m = computeMetrics(classes, predictions, thresholds);
  // A class absent from the subset would count as F1 0 and drag the mean down for nothing.
  const present = Object.values(m.perClass).filter((c) => c.support > 0);
  return {
    examples: m.examples,
    accuracy: m.accuracy,
    macroF1: round4(present.reduce((a, c) => a + c.f1, 0) / Math.max(1, present.length)),
    coverage: m.confident.coverage,
    confidentAccuracy: m.confident.accuracy,
  };
}

export interface CalibrationOptions {
  /** Folds the training data is cut into by a stable hash of each text. Default 5. */
  folds: number;
  /** Precision a class must reach on the folds before it may act alone. Default 0.95. */
  targetPrecision: number;
  /** Per-class overrides of targetPrecision (e.g. a lower bar for chitchat). Default none. */
  targetPrecisionByClass: Readonly<Record<string, number>>;
  /** Fewest fold predictions a threshold may rest on; below it the class never acts alone. Default 10. */
  minSupport: number;
  /** No threshold is set lower than this. Default 0.5. */
  minThreshold: number;
}

export const DEFAULT_CALIBRATION: CalibrationOptions = { folds: 5, targetPrecision: 0.95, targetPrecisionByClass: {}, minSupport: 10, minThreshold: 0.5 };

/**
 * For each class, the lowest threshold at which the predictions of that class reach the target
 * precision, i.e. the threshold that lets it act alone as often as possible while staying that
 * precise. Walks the class's predictions from the most probable down, and may cut only between
 * two different probabilities, and only above minThreshold. The threshold sits halfway to the
 * next probability below, floored to four decimals (so it never rises above an accepted
 * prediction), and at least minThreshold. null: no cut reaches the target with at least
 * minSupport predictions at or above minThreshold; the class never acts alone.
 */
export function calibrateThresholds(classes: readonly string[], predictions: readonly Prediction[], options: CalibrationOptions = DEFAULT_CALIBRATION): (number | null)[] {
  return classes.map((name, k) => {
    const target = options.targetPrecisionByClass[name] ?? options.targetPrecision;
    const mine = predictions
      .map((p, i) => ({ p, i }))
      .filter(({ p }) => p.predicted === k)
      .sort((a, b) => b.p.probability - a.p.probability || a.i - b.i)
      .map(({ p }) => p);
    let correct = 0;
    let cut = -1;
    for (let i = 0; i < mine.length; i++) {
      if (mine[i]!.actual === k) correct++;
      const boundary = i === mine.length - 1 || mine[i + 1]!.probability < mine[i]!.probability;
      const eligible = boundary && mine[i]!.probability >= options.minThreshold && i + 1 >= options.minSupport;
      if (eligible && correct / (i + 1) >= target) cut = i;
    }
    if (cut < 0) return null;
    // Below the last prediction the next "probability" is the least an argmax can have: 1/K.
    const below = cut + 1 < mine.length ? mine[cut + 1]!.probability : 1 / classes.length;
    const midpoint = (mine[cut]!.probability + below) / 2;
    return Math.max(options.minThreshold, Math.floor(midpoint * 10_000) / 10_000);
  });
}
