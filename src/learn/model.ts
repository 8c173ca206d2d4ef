import { z } from "zod";
import type { CalibrationOptions, Metrics, SubsetMetrics } from "./evaluate.js";
import { featureConfigProblems, featureFingerprint, MAX_HASH_BITS, MIN_HASH_BITS, type FeatureConfig } from "./features.js";
import { createScorer } from "./scorer.js";
import type { ExportOptions, SparseClassWeights, TrainOptions } from "./train.js";

/**
 * The classifier artefact: a committed JSON file holding everything needed to score a text and
 * to audit where the weights came from (the training data's hash, the options, the held-back
 * metrics). Validated on load with every problem listed, like the config bundle.
 */

export const ARTEFACT_FORMAT = "frontdesk.classifier";
export const ARTEFACT_VERSION = 1;

export interface ClassifierArtefact {
  format: typeof ARTEFACT_FORMAT;
  version: typeof ARTEFACT_VERSION;
  /** What the model is for ("gates", "detector"); shown in errors. */
  name: string;
  /** The feature extraction it was trained with, and the fingerprint of what that extraction produced. */
  features: FeatureConfig & { fingerprint: string };
  classes: string[];
  /** Per class: the probability at or above which it may act alone; null: never. */
  thresholds: Record<string, number | null>;
  training: {
    /** SHA-256 of the canonical training data (src/learn/data.ts), and of the test data. */
    trainingDataSha256: string;
    testDataSha256: string;
    examples: { train: number; test: number };
    classCounts: Record<string, { train: number; test: number }>;
    options: TrainOptions & ExportOptions;
    calibration: CalibrationOptions;
  };
  metrics: {
    /** On the held-back test file, with the thresholds above. */
    test: Metrics;
    testByLanguage: Partial<Record<"fa" | "en", SubsetMetrics>>;
    /** On the cross-fitted folds of the training data the thresholds were chosen on. */
    calibration: { examples: number; perClass: Metrics["confident"]["perClass"] };
    /** What pruning and rounding cost on the test set, against the same model unpruned. */
    pruning: { weightsKept: number; weightsBefore: number; labelChanges: number; maxProbabilityChange: number };
  };
  /** Aligned with classes. */
  biases: number[];
  weights: Record<string, SparseClassWeights>;
}

const finite = z.number({ error: "must be a finite number" });
const count = z.number({ error: "must be a whole number ≥ 0" }).int({ error: "must be a whole number ≥ 0" }).min(0, { error: "must be a whole number ≥ 0" });
const unit = finite.min(0, { error: "must be in [0, 1]" }).max(1, { error: "must be in [0, 1]" });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/u, { error: "must be 64 lower-case hex digits" });
const byClass = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

const classMetrics = z.strictObject({ precision: unit, recall: unit, f1: unit, support: count });
const confidentClass = z.strictObject({ threshold: unit.nullable(), decided: count, precision: unit, recall: unit });
const languageMetrics = z.strictObject({ examples: count, accuracy: unit, macroF1: unit, coverage: unit, confidentAccuracy: unit });

const ArtefactSchema = z.strictObject({
  format: z.literal(ARTEFACT_FORMAT, { error: (issue) => `expected "${ARTEFACT_FORMAT}", got ${JSON.stringify(issue.input)}` }),
  version: z.literal(ARTEFACT_VERSION, {
    error: (issue) => `expected ${ARTEFACT_VERSION}, got ${JSON.stringify(issue.input)}: this build reads version ${ARTEFACT_VERSION} artefacts; retrain`,
  }),
  name: z.string().min(1),
  features: z.strictObject({
    normalization: z.literal("fold-v1", { error: (issue) => `unsupported normalisation ${JSON.stringify(issue.input)} (this build: "fold-v1"); retrain` }),
    hash: z.literal("fnv1a32-utf16le", { error: (issue) => `unsupported hash ${JSON.stringify(issue.input)} (this build: "fnv1a32-utf16le")` }),
    hashBits: count.min(MIN_HASH_BITS).max(MAX_HASH_BITS),
    word: z.strictObject({ maxN: z.union([z.literal(1), z.literal(2)]), joinPairs: z.boolean() }).nullable(),
    char: z.strictObject({ minN: count, maxN: count }).nullable(),
    languageFeature: z.boolean(),
    symbols: z.boolean().optional(),
    terms: z.strictObject({ maxN: z.union([z.literal(1), z.literal(2)]) }).optional(),
    fingerprint: z.string().regex(/^[0-9a-f]{16}$/u, { error: "must be 16 lower-case hex digits" }),
  }),
  classes: z.array(z.string().min(1)).min(2, { error: "needs at least two classes" }),
  thresholds: byClass(unit.nullable()),
  training: z.strictObject({
    trainingDataSha256: sha256,
    testDataSha256: sha256,
    examples: z.strictObject({ train: count, test: count }),
    classCounts: byClass(z.strictObject({ train: count, test: count })),
    options: z.strictObject({
      epochs: count,
      l2: finite,
      learningRate: finite,
      seed: count,
      classWeights: z.union([z.literal("none"), z.literal("balanced"), z.record(z.string(), finite)]),
      pruneBelow: finite,
      significantDigits: count,
    }),
    calibration: z.strictObject({
      folds: count,
      targetPrecision: unit,
      targetPrecisionByClass: z.record(z.string(), unit),
      minSupport: count,
      minThreshold: unit,
    }),
  }),
  metrics: z.strictObject({
    test: z.strictObject({
      examples: count,
      accuracy: unit,
      macroF1: unit,
      perClass: byClass(classMetrics),
      confusion: z.array(z.array(count)),
      confident: z.strictObject({ coverage: unit, accuracy: unit, perClass: byClass(confidentClass) }),
    }),
    testByLanguage: z.strictObject({ fa: languageMetrics.optional(), en: languageMetrics.optional() }),
    calibration: z.strictObject({ examples: count, perClass: byClass(confidentClass) }),
    pruning: z.strictObject({ weightsKept: count, weightsBefore: count, labelChanges: count, maxProbabilityChange: unit }),
  }),
  biases: z.array(finite),
  weights: byClass(z.strictObject({ bucketGaps: z.array(count), values: z.array(finite) })),
});

export class ClassifierArtefactError extends Error {
  override readonly name = "ClassifierArtefactError";
  constructor(
    readonly problems: string[],
    label = "classifier artefact",
  ) {
    super(`${label} has ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  }
}

export type ArtefactValidation = { kind: "valid"; artefact: ClassifierArtefact } | { kind: "invalid"; problems: string[] };

const pathOf = (path: readonly PropertyKey[]) => (path.length === 0 ? "(root)" : path.map(String).join("."));

/** Keys of a per-class record must be exactly the classes. */
function classKeyProblems(where: string, record: Record<string, unknown>, classes: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(record)) if (!classes.includes(key)) problems.push(`${where}.${key}: unknown class (classes: ${classes.join(", ")})`);
  for (const name of classes) if (!(name in record)) problems.push(`${where}.${name}: missing`);
  return problems;
}

function semanticProblems(a: z.infer<typeof ArtefactSchema>): string[] {
  const problems: string[] = [];
  const { classes } = a;
  const K = classes.length;
  const duplicates = classes.filter((c, i) => classes.indexOf(c) !== i);
  if (duplicates.length > 0) problems.push(`classes: duplicate ${[...new Set(duplicates)].join(", ")}`);
  if (a.biases.length !== K) problems.push(`biases: expected ${K} (one per class), got ${a.biases.length}`);
  problems.push(...classKeyProblems("thresholds", a.thresholds, classes));
  problems.push(...classKeyProblems("weights", a.weights, classes));
  problems.push(...classKeyProblems("training.classCounts", a.training.classCounts, classes));
  problems.push(...classKeyProblems("metrics.test.perClass", a.metrics.test.perClass, classes));
  problems.push(...classKeyProblems("metrics.test.confident.perClass", a.metrics.test.confident.perClass, classes));
  problems.push(...classKeyProblems("metrics.calibration.perClass", a.metrics.calibration.perClass, classes));
  const confusion = a.metrics.test.confusion;
  if (confusion.length !== K || confusion.some((row) => row.length !== K)) problems.push(`metrics.test.confusion: expected ${K}×${K} (classes × classes)`);

  const size = 2 ** a.features.hashBits;
  for (const [name, w] of Object.entries(a.weights)) {
    if (w.bucketGaps.length !== w.values.length) {
      problems.push(`weights.${name}: ${w.bucketGaps.length} bucketGaps but ${w.values.length} values`);
      continue;
    }
    const zeroGap = w.bucketGaps.findIndex((g, i) => i > 0 && g === 0);
    if (zeroGap >= 0) problems.push(`weights.${name}.bucketGaps.${zeroGap}: gaps after the first must be > 0`);
    const last = w.bucketGaps.reduce((a, b) => a + b, 0);
    if (last >= size) problems.push(`weights.${name}.bucketGaps: bucket ${last} outside the ${size} buckets of hashBits ${a.features.hashBits}`);
  }

  const { fingerprint, ...config } = a.features;
  const configProblems = featureConfigProblems(config);
  problems.push(...configProblems);
  if (configProblems.length === 0) {
    const expected = featureFingerprint(config);
    if (expected !== fingerprint) {
      problems.push(
        `features.fingerprint: the artefact's is ${fingerprint}, this build computes ${expected}: text normalisation or feature extraction changed since training; retrain`,
      );
    }
  }
  return problems;
}

/** Validates an artefact (parsed JSON, or the JSON text) and reports every problem at once. */
export function validateArtefact(json: unknown): ArtefactValidation {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json) as unknown;
    } catch (error) {
      return { kind: "invalid", problems: [`(root): not valid JSON: ${error instanceof Error ? error.message : String(error)}`] };
    }
  }
  const parsed = ArtefactSchema.safeParse(value);
  if (!parsed.success) return { kind: "invalid", problems: parsed.error.issues.map((i) => `${pathOf(i.path)}: ${i.message}`) };
  const problems = semanticProblems(parsed.data);
  return problems.length > 0 ? { kind: "invalid", problems } : { kind: "valid", artefact: parsed.data as ClassifierArtefact };
}

export interface Classification {
  /** The most probable class. */
  label: string;
  probability: number;
  /** Every class's probability (they sum to 1). */
  scores: Record<string, number>;
}

export type Decision = { kind: "confident"; label: string; probability: number } | { kind: "unsure"; best: string; probability: number };

/** Confident when the best class has a threshold and its probability reaches it. */
export function decide(classification: Classification, thresholds: Readonly<Record<string, number | null>>): Decision {
  const threshold = thresholds[classification.label] ?? null;
  return threshold !== null && classification.probability >= threshold
    ? { kind: "confident", label: classification.label, probability: classification.probability }
    : { kind: "unsure", best: classification.label, probability: classification.probability };
}

export interface Classifier {
  readonly name: string;
  readonly classes: readonly string[];
  readonly thresholds: Readonly<Record<string, number | null>>;
  /** The validated artefact it was loaded from (metrics, provenance). */
  readonly artefact: ClassifierArtefact;
  classify(text: string): Classification;
  /** decide() with this classifier's thresholds. */
  decide(classification: Classification): Decision;
}

/** A classifier from a validated artefact. */
export function createClassifier(artefact: ClassifierArtefact): Classifier {
  const { fingerprint: _fingerprint, ...features } = artefact.features;
  const classes = artefact.classes;
  const scorer = createScorer({ features, classes, biases: artefact.biases, weights: classes.map((c) => artefact.weights[c]!) });
  return {
    name: artefact.name,
    classes,
    thresholds: artefact.thresholds,
    artefact,
    classify(text) {
      const { best, probabilities } = scorer.score(text);
      const scores: Record<string, number> = {};
      for (let k = 0; k < classes.length; k++) scores[classes[k]!] = probabilities[k]!;
      return { label: classes[best]!, probability: probabilities[best]!, scores };
    },
    decide: (classification) => decide(classification, artefact.thresholds),
  };
}

/** Validates and loads an artefact; throws ClassifierArtefactError listing every problem. */
export function loadClassifier(json: unknown, label?: string): Classifier {
  const result = validateArtefact(json);
  if (result.kind === "invalid") throw new ClassifierArtefactError(result.problems, label);
  return createClassifier(result.artefact);
}
