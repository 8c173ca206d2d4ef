/**
 * src/learn: a small, deterministic, in-process text classifier (hashed word and character
 * n-grams, softmax regression) for the intent gates and the planted-instruction detector.
 * A leaf module: it imports only src/text.
 */
export { canonicalize, datasetSha256, foldOf, parseExamples, type Example, type ParsedExamples } from "./data.js";
export {
  calibrateThresholds,
  computeMetrics,
  DEFAULT_CALIBRATION,
  type CalibrationOptions,
  type ClassMetrics,
  type Metrics,
  type Prediction,
  type SubsetMetrics,
} from "./evaluate.js";
export { createFeaturizer, DEFAULT_FEATURES, featureFingerprint, fnv1a32, isShouting, type FeatureConfig, type Featurizer, type SparseVector } from "./features.js";
export { serializeArtefact } from "./json.js";
export {
  ARTEFACT_VERSION,
  ClassifierArtefactError,
  createClassifier,
  decide,
  loadClassifier,
  validateArtefact,
  type ArtefactValidation,
  type Classification,
  type Classifier,
  type ClassifierArtefact,
  type Decision,
} from "./model.js";
export { trainClassifier, TrainingDataError, type TrainClassifierOptions, type TrainedClassifier } from "./pipeline.js";
export { DETECTOR_CLASSES, GATE_CLASSES, type DetectorClass, type GateClass } from "./presets.js";
export { DEFAULT_EXPORT, DEFAULT_TRAINING, type ExportOptions, type TrainOptions } from "./train.js";
export { comparePerLanguage, type LanguageComparison } from "./compare.js";
