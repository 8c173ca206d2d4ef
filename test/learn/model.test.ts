import { describe, expect, it } from "vitest";
import {
  ClassifierArtefactError,
  decide,
  loadClassifier,
  serializeArtefact,
  trainClassifier,
  validateArtefact,
  type Classification,
  type ClassifierArtefact,
} from "../../src/learn/index.js";
import { TINY_OPTIONS, TINY_TEST } from "./fixtures.js";

const trained = trainClassifier(TINY_OPTIONS);
const json = serializeArtefact(trained.artefact);
const CLASSES = "chitchat, handoff_request, knowledge, restricted:cancellation, restricted:complaint";

/** A deep copy of the artefact, changed by `edit`. */
function corrupt(edit: (a: ClassifierArtefact & Record<string, unknown>) => void): ClassifierArtefact {
  const copy = JSON.parse(json) as ClassifierArtefact & Record<string, unknown>;
  edit(copy);
  return copy;
}
const problemsOf = (value: unknown) => {
  const result = validateArtefact(value);
  return result.kind === "invalid" ? result.problems : [];
};

describe("loadClassifier", () => {
  it("loads what training wrote, and serialising it again gives the same bytes", () => {
    const validation = validateArtefact(json);
    expect(validation.kind).toBe("valid");
    if (validation.kind === "valid") expect(serializeArtefact(validation.artefact)).toBe(json);
    expect(json.endsWith("}\n")).toBe(true);
  });

  it("classifies exactly as the trained classifier did", () => {
    const loaded = loadClassifier(json);
    for (const e of TINY_TEST) expect(loaded.classify(e.text)).toEqual(trained.classifier.classify(e.text));
  });

  it("gives every class's probability, summing to 1, and the best as label", () => {
    const c = loadClassifier(json).classify("I want to cancel my policy");
    expect(Object.keys(c.scores)).toEqual(CLASSES.split(", "));
    expect(Object.values(c.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(c.label).toBe("restricted:cancellation");
    expect(c.probability).toBe(Math.max(...Object.values(c.scores)));
  });

  it("rejects a wrong format or version", () => {
    expect(problemsOf(corrupt((a) => ((a as { version: number }).version = 2)))).toEqual(["version: expected 1, got 2: this build reads version 1 artefacts; retrain"]);
    expect(problemsOf(corrupt((a) => ((a as { format: string }).format = "other")))).toEqual(['format: expected "frontdesk.classifier", got "other"']);
  });

  it("rejects NaN and infinite numbers, naming where", () => {
    const bad = corrupt((a) => {
      a.weights.chitchat!.values[0] = Number.NaN;
      a.biases[1] = Number.POSITIVE_INFINITY;
    });
    expect(problemsOf(bad)).toEqual(["biases.1: must be a finite number", "weights.chitchat.values.0: must be a finite number"]);
  });

  it("rejects unknown and missing classes in every per-class record", () => {
    const bad = corrupt((a) => {
      a.thresholds["restricted:payout"] = 0.9;
      delete a.weights.knowledge;
    });
    expect(problemsOf(bad)).toEqual([`thresholds.restricted:payout: unknown class (classes: ${CLASSES})`, "weights.knowledge: missing"]);
    expect(problemsOf(corrupt((a) => a.classes.push("chitchat")))).toContain("classes: duplicate chitchat");
  });

  it("rejects weights that do not line up with the classes and the hash space", () => {
    const bad = corrupt((a) => {
      a.weights.chitchat!.values.pop();
      a.weights.knowledge!.bucketGaps[1] = 0;
      a.weights.handoff_request!.bucketGaps[0]! += 2 ** 20;
      a.biases.pop();
    });
    const n = trained.artefact.weights.chitchat!.bucketGaps.length;
    const last = trained.artefact.weights.handoff_request!.bucketGaps.reduce((x, y) => x + y, 0) + 2 ** 20;
    expect(problemsOf(bad)).toEqual([
      "biases: expected 5 (one per class), got 4",
      `weights.chitchat: ${n} bucketGaps but ${n - 1} values`,
      `weights.handoff_request.bucketGaps: bucket ${last} outside the 1048576 buckets of hashBits 20`,
      "weights.knowledge.bucketGaps.1: gaps after the first must be > 0",
    ]);
  });

  it("reports structural problems first: the cross-checks need a well-formed artefact", () => {
    const bad = corrupt((a) => {
      a.biases.pop();
      a.thresholds.chitchat = 1.5;
    });
    expect(problemsOf(bad)).toEqual(["thresholds.chitchat: must be in [0, 1]"]);
  });

  it("rejects an artefact whose features this build computes differently (normalisation changed: retrain)", () => {
    expect(problemsOf(corrupt((a) => (a.features.fingerprint = "0123456789abcdef")))).toEqual([
      `features.fingerprint: the artefact's is 0123456789abcdef, this build computes ${trained.artefact.features.fingerprint}: text normalisation or feature extraction changed since training; retrain`,
    ]);
    expect(problemsOf(corrupt((a) => ((a.features as { normalization: string }).normalization = "fold-v0")))).toEqual([
      'features.normalization: unsupported normalisation "fold-v0" (this build: "fold-v1"); retrain',
    ]);
  });

  it("rejects unknown keys and text that is not JSON", () => {
    expect(problemsOf(corrupt((a) => (a.comment = "hand-edited")))).toEqual(['(root): Unrecognized key: "comment"']);
    expect(problemsOf("{ not json")[0]).toMatch(/^\(root\): not valid JSON: /u);
  });

  it("throws one error listing every problem, labelled with where the artefact came from", () => {
    const bad = corrupt((a) => {
      (a as { version: number }).version = 3;
      a.biases[0] = Number.NaN;
    });
    expect(() => loadClassifier(bad, "bundle/gates/model.json")).toThrow(
      new ClassifierArtefactError(["version: expected 1, got 3: this build reads version 1 artefacts; retrain", "biases.0: must be a finite number"], "bundle/gates/model.json"),
    );
    try {
      loadClassifier(bad, "bundle/gates/model.json");
    } catch (error) {
      expect((error as Error).message).toBe(
        "bundle/gates/model.json has 2 problem(s):\n  version: expected 1, got 3: this build reads version 1 artefacts; retrain\n  biases.0: must be a finite number",
      );
    }
  });
});

describe("decide", () => {
  const classification = (label: string, probability: number): Classification => ({ label, probability, scores: { [label]: probability } });
  const thresholds = { a: 0.8, b: null };

  it("is confident at or above the label's threshold, unsure below it", () => {
    expect(decide(classification("a", 0.8), thresholds)).toEqual({ kind: "confident", label: "a", probability: 0.8 });
    expect(decide(classification("a", 0.95), thresholds)).toEqual({ kind: "confident", label: "a", probability: 0.95 });
    expect(decide(classification("a", 0.7999), thresholds)).toEqual({ kind: "unsure", best: "a", probability: 0.7999 });
  });

  it("is never confident for a class without a threshold, or one the thresholds do not know", () => {
    expect(decide(classification("b", 0.999), thresholds)).toEqual({ kind: "unsure", best: "b", probability: 0.999 });
    expect(decide(classification("c", 0.999), thresholds)).toEqual({ kind: "unsure", best: "c", probability: 0.999 });
  });

  it("uses the artefact's thresholds on a loaded classifier", () => {
    const classifier = loadClassifier(json);
    for (const e of TINY_TEST) {
      const c = classifier.classify(e.text);
      const t = classifier.thresholds[c.label] ?? null;
      expect(classifier.decide(c).kind).toBe(t !== null && c.probability >= t ? "confident" : "unsure");
    }
  });
});
