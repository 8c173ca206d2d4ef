/**
 * The gates on the held-back split (bundle/gates/data/{en,fa}/test.jsonl), as docs/evaluation.md
 * reports them: `node --import tsx scripts/gates-report.ts`.
 *
 * 1. The classifier alone (bundle/gates/model.json), per class and language: precision and
 *    recall of its best class, and of the decisions it takes alone (at its thresholds).
 * 2. The gate as a first turn meets it (src/agent/nodes/triage.ts gateVerdict: policy lists,
 *    shouting, the classifier alone, and for an unsure reading the offline provider's triage
 *    rules settling knowledge against the rest), per class: what the service decides before any
 *    retrieval. An out-of-scope reading counts as out of scope (the service then checks it
 *    against retrieval).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createGates, type GateClass } from "../src/agent/gates.js";
import { gateVerdict, settled, type Decision } from "../src/agent/nodes/triage.js";
import { createPolicy } from "../src/agent/policy.js";
import { loadBundle } from "../src/app/bundle.js";
import { PACKAGE_ROOT } from "../src/config/config.js";
import { GATE_CLASSES, parseExamples, type Example } from "../src/learn/index.js";
import { triage } from "../src/models/offline/triage.js";
import { detectLanguage } from "../src/text/index.js";

const bundle = loadBundle(path.join(PACKAGE_ROOT, "bundle"));
const policy = createPolicy(bundle);
const gates = createGates(bundle.gates);
const classifier = bundle.gates;

const read = (lang: string): Example[] => {
  const file = path.join(PACKAGE_ROOT, "bundle/gates/data", lang, "test.jsonl");
  return parseExamples(readFileSync(file, "utf8"), file, GATE_CLASSES).examples;
};

/** The class a first-turn gate decision stands for. */
function classOf(decision: Decision): GateClass {
  const gate = decision.gate;
  switch (decision.escalation?.reason) {
    case "user_requested":
      return "handoff_request";
    case "account_specific":
      return "account";
    case "frustration":
      return "frustration";
    case "restricted_intent":
      if (gate?.kind === "restricted") return `restricted:${gate.category}`;
      if (gate?.kind === "classifier") return gate.label;
      throw new Error("a restricted handoff without its category");
    default:
      if (gate?.kind === "classifier" && gate.label === "out_of_scope") return "out_of_scope";
      return decision.intent === "chitchat" ? "chitchat" : "knowledge";
  }
}

function deployed(text: string): { label: GateClass; by: "list" | "alone" | "rules" } {
  const verdict = gateVerdict({ policy, gates, text, pendingClarify: null, history: [] });
  if (verdict.kind === "decided") return { label: classOf(verdict.decision), by: verdict.decision.gate?.kind === "classifier" ? "alone" : "list" };
  const { intent } = triage({ text, language: detectLanguage(text).language, history: [] });
  // As the triage node settles it (src/agent/nodes/triage.ts settled).
  return { label: classOf(verdict.decide(settled(verdict.reading.label, intent), intent)), by: "rules" };
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)}%`);

function scores(pairs: ReadonlyArray<{ actual: string; predicted: string | null }>, c: string): [string, string] {
  const tp = pairs.filter((p) => p.actual === c && p.predicted === c).length;
  return [pct(tp, pairs.filter((p) => p.predicted === c).length), pct(tp, pairs.filter((p) => p.actual === c).length)];
}

const languages = ["en", "fa"] as const;
const examples = Object.fromEntries(languages.map((l) => [l, read(l)])) as Record<(typeof languages)[number], Example[]>;

const rows: string[] = [];
const alone: string[] = [];
for (const c of GATE_CLASSES) {
  const cells: string[] = [c];
  const aloneCells: string[] = [c, String(classifier.thresholds[c] ?? "never")];
  for (const l of [...languages, "both"] as const) {
    const set = l === "both" ? [...examples.en, ...examples.fa] : examples[l];
    const readings = set.map((e) => ({ e, r: classifier.classify(e.text) }));
    const best = readings.map(({ e, r }) => ({ actual: e.label, predicted: r.label }));
    const decided = readings.map(({ e, r }) => ({ actual: e.label, predicted: classifier.decide(r).kind === "confident" ? r.label : null }));
    cells.push(String(set.filter((e) => e.label === c).length), ...scores(best, c));
    aloneCells.push(...scores(decided, c));
  }
  rows.push(`| ${cells.join(" | ")} |`);
  alone.push(`| ${aloneCells.join(" | ")} |`);
}
console.log("Classifier alone, best class (precision / recall), held-back split:\n");
console.log("| class | en n | en P | en R | fa n | fa P | fa R | both n | both P | both R |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
console.log(rows.join("\n"));
console.log("\nDecisions the classifier takes alone (at its threshold):\n");
console.log("| class | threshold | en P | en R | fa P | fa R | both P | both R |\n| --- | --- | --- | --- | --- | --- | --- | --- |");
console.log(alone.join("\n"));

const all = [...examples.en, ...examples.fa].map((e) => ({ e, d: deployed(e.text) }));
const pairs = all.map(({ e, d }) => ({ actual: e.label, predicted: d.label }));
console.log("\nThe gate on a first turn (lists, shouting, classifier alone, else the offline triage rules), held-back split, both languages:\n");
console.log("| class | n | precision | recall |\n| --- | --- | --- | --- |");
for (const c of GATE_CLASSES) console.log(`| ${c} | ${pairs.filter((p) => p.actual === c).length} | ${scores(pairs, c).join(" | ")} |`);
const by = (b: string) => all.filter((x) => x.d.by === b);
console.log(
  `\naccuracy ${pct(pairs.filter((p) => p.actual === p.predicted).length, pairs.length)}; decided by a list ${by("list").length} (${pct(by("list").filter((x) => x.d.label === x.e.label).length, by("list").length)} right), ` +
    `by the classifier alone ${by("alone").length} (${pct(by("alone").filter((x) => x.d.label === x.e.label).length, by("alone").length)} right), ` +
    `by the offline rules ${by("rules").length} (${pct(by("rules").filter((x) => x.d.label === x.e.label).length, by("rules").length)} right)`,
);
