import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compose, serialize } from "../../scripts/detector-data/compose.js";
import { runTrainCli } from "../../scripts/train-classifier.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { DETECTOR_CLASSES, loadClassifier, parseExamples } from "../../src/learn/index.js";

/**
 * The shipped detector artefact (bundle/detector/model.json): its training data is what the
 * committed frames compose, the artefact is exactly what that data trains, and its held-back
 * figures (hand-written planted/ordinary sentences and every sentence of the second insurer's
 * documents) are printed and held to floors.
 */
const ROOT = PACKAGE_ROOT;
const read = (f: string) => {
  const parsed = parseExamples(readFileSync(path.join(ROOT, f), "utf8"), f, DETECTOR_CLASSES);
  expect(parsed.problems).toEqual([]);
  return parsed.examples;
};
/** Held-back floors: the committed artefact's figures, rounded down (docs/detector.md). */
const FLOOR = { instruction: { precision: 0.93, recall: 0.91 }, policy: { precision: 0.99, recall: 0.99 } };

describe("the shipped detector artefact", () => {
  it("trains on exactly what scripts/detector-data composes", () => {
    expect(readFileSync(path.join(ROOT, "bundle/detector/data/train.jsonl"), "utf8")).toBe(serialize(compose()));
  });

  it("is exactly what the committed data produces: retrained here and compared byte for byte", async () => {
    let out = "";
    let err = "";
    const code = await runTrainCli(["--preset", "detector", "--check"], { cwd: ROOT, out: (t) => (out += t), err: (t) => (err += t) });
    expect(code, err).toBe(0);
    expect(out).toContain("bundle/detector/model.json is up to date");
  }, 300_000);

  it("holds its held-back precision and recall (printed)", () => {
    const classifier = loadClassifier(readFileSync(path.join(ROOT, "bundle/detector/model.json"), "utf8"), "detector");
    const test = [...read("bundle/detector/data/test.jsonl"), ...read("bundle/detector/data/test-insurer.jsonl")];
    const predicted = test.map((e) => ({ actual: e.label, predicted: classifier.classify(e.text).label }));
    const lines: string[] = [];
    for (const c of DETECTOR_CLASSES) {
      const tp = predicted.filter((p) => p.actual === c && p.predicted === c).length;
      const precision = tp / predicted.filter((p) => p.predicted === c).length;
      const recall = tp / predicted.filter((p) => p.actual === c).length;
      lines.push(`${c}: precision ${precision.toFixed(4)}, recall ${recall.toFixed(4)} (support ${predicted.filter((p) => p.actual === c).length})`);
      expect(precision, c).toBeGreaterThanOrEqual(FLOOR[c].precision);
      expect(recall, c).toBeGreaterThanOrEqual(FLOOR[c].recall);
    }
    console.log(`detector, held back:\n  ${lines.join("\n  ")}`);
  });
});
