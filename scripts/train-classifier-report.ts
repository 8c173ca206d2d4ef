/** What train-classifier prints: markdown tables, so a run pastes straight into a review. */
import type { ClassifierArtefact, LanguageComparison } from "../src/learn/index.js";

const table = (headers: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>) =>
  [headers, headers.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatReport(a: ClassifierArtefact, run: { bytes: number; seconds: number; out: string }): string {
  const m = a.metrics.test;
  const rows = a.classes.map((c) => {
    const p = m.perClass[c]!;
    const conf = m.confident.perClass[c]!;
    const cal = a.metrics.calibration.perClass[c]!;
    return [
      c,
      p.support,
      pct(p.precision),
      pct(p.recall),
      pct(p.f1),
      a.thresholds[c] ?? "never",
      `${pct(conf.precision)} / ${pct(conf.recall)}`,
      `${pct(cal.precision)} / ${pct(cal.recall)}`,
    ];
  });
  const languages = Object.entries(a.metrics.testByLanguage).map(
    ([lang, l]) => `${lang}: ${l.examples} examples, accuracy ${pct(l.accuracy)}, macro F1 ${pct(l.macroF1)}, alone on ${pct(l.coverage)} (${pct(l.confidentAccuracy)} right)`,
  );
  const pr = a.metrics.pruning;
  return [
    `${a.name}: ${a.training.examples.train} training and ${a.training.examples.test} held-back examples, ${a.classes.length} classes, trained in ${run.seconds.toFixed(1)} s`,
    `training data sha256 ${a.training.trainingDataSha256}`,
    `test data sha256     ${a.training.testDataSha256}`,
    "",
    table(["class", "test support", "precision", "recall", "F1", "threshold", "alone: precision / recall (test)", "alone: precision / recall (folds)"], rows),
    "",
    `accuracy ${pct(m.accuracy)}, macro F1 ${pct(m.macroF1)}; acting alone on ${pct(m.confident.coverage)} of the test set, ${pct(m.confident.accuracy)} of those right`,
    ...languages,
    `weights: ${pr.weightsKept} kept of ${pr.weightsBefore}; pruning changed ${pr.labelChanges} test label(s), probabilities by at most ${pr.maxProbabilityChange}`,
    `artefact: ${run.out}, ${(run.bytes / 1024).toFixed(0)} KiB`,
    "",
  ].join("\n");
}

export function formatComparison(rows: readonly LanguageComparison[]): string {
  const cells = (s: LanguageComparison["bilingual"] | null) => (s ? [pct(s.accuracy), pct(s.macroF1), `${pct(s.coverage)} @ ${pct(s.confidentAccuracy)}`] : ["–", "–", "–"]);
  return [
    "one bilingual model against one model per language, on the same test examples:",
    "",
    table(
      ["language", "test examples", "bilingual accuracy", "bilingual macro F1", "bilingual alone", "per-language accuracy", "per-language macro F1", "per-language alone"],
      rows.map((r) => [r.language, r.examples, ...cells(r.bilingual), ...cells(r.perLanguage)]),
    ),
    ...rows.filter((r) => r.note).map((r) => `${r.language}: ${r.note}`),
    "",
  ].join("\n");
}
