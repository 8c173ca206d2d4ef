import { detectLanguage, type Language } from "../text/index.js";
import { canonicalize, conflictingLabels, datasetSha256, foldOf, overlap, type Example } from "./data.js";
import { calibrateThresholds, computeMetrics, confidentMetrics, DEFAULT_CALIBRATION, round4, subsetMetrics, type CalibrationOptions, type Prediction } from "./evaluate.js";
import { createFeaturizer, DEFAULT_FEATURES, featureConfigProblems, featureFingerprint, type FeatureConfig } from "./features.js";
import { ARTEFACT_FORMAT, ARTEFACT_VERSION, createClassifier, type Classifier, type ClassifierArtefact } from "./model.js";
import { createScorer } from "./scorer.js";
import { DEFAULT_EXPORT, DEFAULT_TRAINING, exportWeights, trainSoftmax, type ExportOptions, type TrainOptions } from "./train.js";

/**
 * Training data in, a complete artefact out: checks the data, calibrates thresholds on
 * cross-fitted folds of the training data (each fold scored by a model trained on the others,
 * pruned and rounded exactly as the artefact will be), trains the final model on all of it,
 * and measures that model, as loaded from the artefact, on the held-back test set.
 */

export interface TrainClassifierOptions {
  /** What the model is for ("gates", "detector"). */
  name: string;
  train: readonly Example[];
  /** The held-back split: scored, never trained or calibrated on. */
  test: readonly Example[];
  /** The closed class list, in artefact order. Default: the training labels, sorted. */
  classes?: readonly string[];
  features?: Partial<FeatureConfig>;
  training?: Partial<TrainOptions>;
  export?: Partial<ExportOptions>;
  calibration?: Partial<CalibrationOptions>;
  /** Accept test texts that also occur in the training data (reported as a warning). Default false. */
  allowOverlap?: boolean;
}

export interface TrainedClassifier {
  artefact: ClassifierArtefact;
  classifier: Classifier;
  /** Not fatal, but worth reading: classes that never act alone, missing test support. */
  warnings: string[];
}

export class TrainingDataError extends Error {
  override readonly name = "TrainingDataError";
  constructor(readonly problems: string[]) {
    super(`training data has ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  }
}

function dataProblems(options: TrainClassifierOptions, classes: readonly string[]): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (options.train.length === 0) problems.push("train: no examples");
  if (options.test.length === 0) problems.push("test: no examples (a held-back split is required)");
  for (const [split, examples] of [
    ["train", options.train],
    ["test", options.test],
  ] as const) {
    const unknown = [...new Set(examples.map((e) => e.label).filter((l) => !classes.includes(l)))].sort();
    if (unknown.length > 0) problems.push(`${split}: unknown labels ${unknown.join(", ")} (classes: ${classes.join(", ")})`);
  }
  for (const name of classes) {
    if (!options.train.some((e) => e.label === name)) problems.push(`train: no examples of class ${name}`);
    else if (!options.test.some((e) => e.label === name)) warnings.push(`test: no examples of class ${name}: its precision and recall are not measured`);
  }
  for (const conflict of conflictingLabels(options.train)) problems.push(`train: ${conflict}`);
  const shared = overlap(options.train, options.test);
  if (shared.length > 0) {
    const list = `${shared.length} test text(s) also in the training data: ${shared
      .slice(0, 5)
      .map((t) => `"${t}"`)
      .join(", ")}${shared.length > 5 ? ", …" : ""}`;
    if (options.allowOverlap) warnings.push(`test: ${list}`);
    else problems.push(`test: ${list} (a held-back split must be unseen; pass allowOverlap to accept)`);
  }
  return { problems, warnings };
}

function optionProblems(features: FeatureConfig, training: TrainOptions, exporting: ExportOptions, calibration: CalibrationOptions): string[] {
  const problems = featureConfigProblems(features);
  if (!Number.isInteger(training.seed) || training.seed < 0) problems.push(`training.seed: must be a whole number ≥ 0, got ${training.seed}`);
  if (!Number.isInteger(exporting.significantDigits) || exporting.significantDigits < 1 || exporting.significantDigits > 17) {
    problems.push(`export.significantDigits: must be an integer in [1, 17], got ${exporting.significantDigits}`);
  }
  if (!(exporting.pruneBelow >= 0)) problems.push(`export.pruneBelow: must be ≥ 0, got ${exporting.pruneBelow}`);
  if (!Number.isInteger(calibration.folds) || calibration.folds < 2) problems.push(`calibration.folds: must be an integer ≥ 2, got ${calibration.folds}`);
  for (const [key, value] of [
    ["minThreshold", calibration.minThreshold],
    ["targetPrecision", calibration.targetPrecision],
    ...Object.entries(calibration.targetPrecisionByClass),
  ] as const) {
    if (!(value >= 0 && value <= 1)) problems.push(`calibration.${key}: must be in [0, 1], got ${value}`);
  }
  return problems;
}

export function trainClassifier(options: TrainClassifierOptions): TrainedClassifier {
  const classes = options.classes ?? [...new Set(options.train.map((e) => e.label))].sort();
  const features: FeatureConfig = { ...DEFAULT_FEATURES, ...options.features };
  const training: TrainOptions = { ...DEFAULT_TRAINING, ...options.training };
  const exporting: ExportOptions = { ...DEFAULT_EXPORT, ...options.export };
  const calibration: CalibrationOptions = { ...DEFAULT_CALIBRATION, ...options.calibration };
  const { problems, warnings } = dataProblems(options, classes);
  problems.push(...optionProblems(features, training, exporting, calibration));
  if (problems.length > 0) throw new TrainingDataError(problems);

  const train = canonicalize(options.train);
  const test = canonicalize(options.test);
  const featurizer = createFeaturizer(features);
  const vectors = train.map((e) => featurizer.featurize(e.text));
  const labels = Int32Array.from(train, (e) => classes.indexOf(e.label));
  const trainOn = (rows: readonly number[]) => trainSoftmax({ vectors: rows.map((i) => vectors[i]!), labels: rows.map((i) => labels[i]!) }, classes, training);
  const fit = (rows: readonly number[]) => exportWeights(trainOn(rows), exporting);

  // Cross-fitting: every training example is scored once, by the model that did not see it.
  const folds = train.map((e) => foldOf(e.text, calibration.folds));
  const validation: Prediction[] = [];
  for (let f = 0; f < calibration.folds; f++) {
    const held = folds.flatMap((g, i) => (g === f ? [i] : []));
    if (held.length === 0) continue;
    const rest = folds.flatMap((g, i) => (g !== f ? [i] : []));
    if (rest.length === 0) continue;
    const scorer = createScorer({ features, classes, ...fit(rest) });
    for (const i of held) {
      const { best, probabilities } = scorer.score(train[i]!.text);
      validation.push({ actual: labels[i]!, predicted: best, probability: probabilities[best]! });
    }
  }
  const thresholds = calibrateThresholds(classes, validation, calibration);
  thresholds.forEach((t, k) => {
    const target = calibration.targetPrecisionByClass[classes[k]!] ?? calibration.targetPrecision;
    if (t === null) warnings.push(`thresholds: ${classes[k]} never reaches precision ${target} on the folds: it will never act alone`);
  });

  const finalModel = trainOn(train.map((_, i) => i));
  const final = exportWeights(finalModel, exporting);
  // The same model without pruning or rounding: what pruning costs, measured on the test set.
  const unprunedWeights = exportWeights(finalModel, { pruneBelow: 0, significantDigits: 17 });
  const unpruned = createScorer({ features, classes, ...unprunedWeights });
  const countWeights = (w: readonly { values: readonly number[] }[]) => w.reduce((a, c) => a + c.values.length, 0);
  const perClass = <T>(value: (name: string, k: number) => T) => Object.fromEntries(classes.map((name, k) => [name, value(name, k)]));
  const artefact: ClassifierArtefact = {
    format: ARTEFACT_FORMAT,
    version: ARTEFACT_VERSION,
    name: options.name,
    features: { ...features, fingerprint: featureFingerprint(features) },
    classes: [...classes],
    thresholds: perClass((_, k) => thresholds[k]!),
    training: {
      trainingDataSha256: datasetSha256(train),
      testDataSha256: datasetSha256(test),
      examples: { train: train.length, test: test.length },
      classCounts: perClass((name) => ({ train: train.filter((e) => e.label === name).length, test: test.filter((e) => e.label === name).length })),
      options: { ...training, ...exporting },
      calibration,
    },
    metrics: {
      test: computeMetrics(classes, [], thresholds),
      testByLanguage: {},
      calibration: { examples: validation.length, perClass: confidentMetrics(classes, validation, thresholds) },
      pruning: { weightsKept: countWeights(final.weights), weightsBefore: countWeights(unprunedWeights.weights), labelChanges: 0, maxProbabilityChange: 0 },
    },
    biases: final.biases,
    weights: perClass((_, k) => final.weights[k]!),
  };

  // Measured with the artefact's own classifier: what the service will run.
  const classifier = createClassifier(artefact);
  const predictions: Prediction[] = [];
  const byLanguage: Record<Language, Prediction[]> = { fa: [], en: [] };
  const pruning = artefact.metrics.pruning;
  for (const e of test) {
    const c = classifier.classify(e.text);
    const p = { actual: classes.indexOf(e.label), predicted: classes.indexOf(c.label), probability: c.probability };
    predictions.push(p);
    byLanguage[detectLanguage(e.text).language].push(p);
    const full = unpruned.score(e.text);
    if (full.best !== p.predicted) pruning.labelChanges++;
    classes.forEach((name, k) => {
      pruning.maxProbabilityChange = Math.max(pruning.maxProbabilityChange, Math.abs(full.probabilities[k]! - c.scores[name]!));
    });
  }
  pruning.maxProbabilityChange = round4(pruning.maxProbabilityChange);
  artefact.metrics.test = computeMetrics(classes, predictions, thresholds);
  for (const language of ["fa", "en"] as const) {
    if (byLanguage[language].length > 0) artefact.metrics.testByLanguage[language] = subsetMetrics(classes, byLanguage[language], thresholds);
  }
  return { artefact, classifier, warnings };
}
