import { detectLanguage, type Language } from "../text/index.js";
import type { Example } from "./data.js";
import { subsetMetrics, type Prediction, type SubsetMetrics } from "./evaluate.js";
import type { Classifier } from "./model.js";
import { trainClassifier, type TrainClassifierOptions, type TrainedClassifier } from "./pipeline.js";

/**
 * One bilingual model or one per language? Both are trained on the same data with the same
 * options and measured on the same test examples, language by language, so the choice rests on
 * numbers (`train-classifier --compare-per-language`).
 */

export interface LanguageComparison {
  language: Language;
  /** Test examples of this language. */
  examples: number;
  bilingual: SubsetMetrics;
  /** null when a per-language model could not be trained (the reason is in `note`). */
  perLanguage: SubsetMetrics | null;
  note?: string;
}

const languageOf = (e: Example) => detectLanguage(e.text).language;

function summarize(classifier: Classifier, test: readonly Example[]): SubsetMetrics {
  const classes = classifier.classes;
  const predictions: Prediction[] = test.map((e) => {
    const c = classifier.classify(e.text);
    return { actual: classes.indexOf(e.label), predicted: classes.indexOf(c.label), probability: c.probability };
  });
  return subsetMetrics(
    classes,
    predictions,
    classes.map((c) => classifier.thresholds[c] ?? null),
  );
}

export function comparePerLanguage(options: TrainClassifierOptions, bilingual: TrainedClassifier): LanguageComparison[] {
  const out: LanguageComparison[] = [];
  for (const language of ["fa", "en"] as const) {
    const test = options.test.filter((e) => languageOf(e) === language);
    if (test.length === 0) continue;
    const train = options.train.filter((e) => languageOf(e) === language);
    const row: LanguageComparison = { language, examples: test.length, bilingual: summarize(bilingual.classifier, test), perLanguage: null };
    // A class the language has no training examples of cannot be predicted by its own model.
    const present = (options.classes ?? bilingual.artefact.classes).filter((c) => train.some((e) => e.label === c));
    const missing = bilingual.artefact.classes.filter((c) => !present.includes(c));
    try {
      const own = trainClassifier({ ...options, name: `${options.name}-${language}`, classes: present, train, test: test.filter((e) => present.includes(e.label)) });
      row.perLanguage = summarize(
        own.classifier,
        test.filter((e) => present.includes(e.label)),
      );
      if (missing.length > 0) row.note = `no ${language} training examples of ${missing.join(", ")}; their test examples are left out of the per-language figures`;
    } catch (error) {
      row.note = error instanceof Error ? error.message : String(error);
    }
    out.push(row);
  }
  return out;
}
