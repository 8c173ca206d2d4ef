import { describe, expect, it } from "vitest";
import { calibrateThresholds, computeMetrics, DEFAULT_CALIBRATION, type Prediction } from "../../src/learn/evaluate.js";

const p = (actual: number, predicted: number, probability: number): Prediction => ({ actual, predicted, probability });

describe("computeMetrics", () => {
  const predictions = [p(0, 0, 0.9), p(0, 0, 0.6), p(0, 1, 0.7), p(1, 1, 0.8), p(1, 0, 0.55), p(2, 2, 0.95), p(2, 1, 0.4)];

  it("gives per-class precision, recall, F1, support, the confusion matrix, accuracy and macro F1", () => {
    const m = computeMetrics(["a", "b", "c"], predictions, [0.8, null, 0.9]);
    expect(m.examples).toBe(7);
    expect(m.accuracy).toBe(0.5714);
    expect(m.macroF1).toBe(0.5778);
    expect(m.confusion).toEqual([
      [2, 1, 0],
      [1, 1, 0],
      [0, 1, 1],
    ]);
    expect(m.perClass).toEqual({
      a: { precision: 0.6667, recall: 0.6667, f1: 0.6667, support: 3 },
      b: { precision: 0.3333, recall: 0.5, f1: 0.4, support: 2 },
      c: { precision: 1, recall: 0.5, f1: 0.6667, support: 2 },
    });
  });

  it("counts a decision as confident only at or above its class's threshold, never for a null one", () => {
    const m = computeMetrics(["a", "b", "c"], predictions, [0.8, null, 0.9]);
    expect(m.confident).toEqual({
      coverage: 0.2857,
      accuracy: 1,
      perClass: {
        a: { threshold: 0.8, decided: 1, precision: 1, recall: 0.3333 },
        b: { threshold: null, decided: 0, precision: 0, recall: 0 },
        c: { threshold: 0.9, decided: 1, precision: 1, recall: 0.5 },
      },
    });
    expect(computeMetrics(["a", "b", "c"], predictions, [0.6, null, null]).confident.perClass.a).toEqual({ threshold: 0.6, decided: 2, precision: 1, recall: 0.6667 });
  });

  it("gives zeros, not NaN, for an empty set", () => {
    const m = computeMetrics(["a", "b"], [], [0.5, 0.5]);
    expect([m.accuracy, m.macroF1, m.confident.coverage, m.confident.accuracy]).toEqual([0, 0, 0, 0]);
  });
});

describe("calibrateThresholds", () => {
  // Class 0's predictions, most probable first (two tie at 0.95): right, right, wrong, right, right, wrong, wrong.
  const mine = [p(0, 0, 0.99), p(0, 0, 0.95), p(1, 0, 0.95), p(0, 0, 0.9), p(0, 0, 0.8), p(1, 0, 0.7), p(1, 0, 0.6)];
  const options = { ...DEFAULT_CALIBRATION, minSupport: 2, minThreshold: 0.5 };

  it("picks the lowest cut that keeps the target precision, halfway to the next probability", () => {
    // Cuts: after 0.9 (3/4 = 0.75) and after 0.8 (4/5 = 0.8) reach 0.75; the lower one wins.
    expect(calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.75 })).toEqual([0.75, null]);
  });

  it("never cuts between equal probabilities, and needs minSupport predictions", () => {
    // 0.99 alone would be 100% precise but is one prediction; the cut inside the 0.95 tie is not allowed.
    expect(calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.9 })).toEqual([null, null]);
    expect(calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.9, minSupport: 1 })).toEqual([0.97, null]);
  });

  it("cuts only above minThreshold and never sets a threshold below it", () => {
    expect(calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.75, minThreshold: 0.85 })).toEqual([0.85, null]);
    expect(calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.75, minThreshold: 0.995 })).toEqual([null, null]);
  });

  it("floors the threshold to four decimals, and uses 1/K below the last prediction", () => {
    const close = [p(1, 1, 0.61237), p(1, 1, 0.61231)];
    expect(calibrateThresholds(["x", "y"], close, { ...options, targetPrecision: 0.5, minSupport: 1, minThreshold: 0 })).toEqual([null, 0.5561]);
  });

  it("takes per-class targets over the default", () => {
    const thresholds = calibrateThresholds(["x", "y"], mine, { ...options, targetPrecision: 0.99, targetPrecisionByClass: { x: 0.75 } });
    expect(thresholds).toEqual([0.75, null]);
  });
});
