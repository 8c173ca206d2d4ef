/**
 * `npm run bench:gates` — what the deterministic gates cost per turn, with the shipped bundle
 * (policy lists and gates/model.json), measured in one run so the figures are comparable:
 *   1. the policy lists alone (policy.evaluate): the baseline, what every turn paid before;
 *   2. classify + decide with the gate classifier;
 *   3. the whole gate verdict of a turn (triage's steps before any model call: lists, classifier,
 *      conversation signals over a three-turn history, shouting), on first turns and on turns
 *      with history.
 * Texts: the user messages of every evaluation scenario (bundled and the second insurer's dev
 * half), cycled. Reported as p50/p90/p99 of wall time per turn, the mean CPU time per turn (which a
 * busy machine does not inflate), and as ratios against the baseline. Benchmarks report, never
 * assert. Options: --calls N (default 20000).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createGates } from "../src/agent/gates.js";
import { gateVerdict } from "../src/agent/nodes/triage.js";
import { createPolicy } from "../src/agent/policy.js";
import type { HistoryEntry } from "../src/agent/state.js";
import { loadBundle } from "../src/app/bundle.js";
import { summarize, table, type Summary } from "./stats.js";

const { values } = parseArgs({ options: { calls: { type: "string", default: "20000" } } });
const CALLS = Number(values.calls);
const ROOT = path.join(import.meta.dirname, "..");

function scenarioTexts(): string[] {
  const files = [
    ...readdirSync(path.join(ROOT, "eval/scenarios")).map((f) => path.join(ROOT, "eval/scenarios", f)),
    path.join(ROOT, "eval/insurers/sadaf-assurance/scenarios/dev.jsonl"),
  ].filter((f) => f.endsWith(".jsonl"));
  return files.flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .flatMap((l) => (JSON.parse(l) as { turns: Array<{ user: string }> }).turns.map((t) => t.user)),
  );
}

/** Per-call wall time in µs after a warm-up, and the mean CPU time per call (blind to the process waiting for a CPU). */
function time(n: number, call: (i: number) => unknown): Summary & { cpuMean: number } {
  let sink = 0;
  for (let i = 0; i < 2000; i++) sink += call(i) === undefined ? 0 : 1;
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    sink += call(i) === undefined ? 0 : 1;
    samples.push((performance.now() - start) * 1000);
  }
  const used = process.cpuUsage(cpu);
  if (sink < 0) console.log(sink);
  return { ...summarize(samples), cpuMean: (used.user + used.system) / n };
}

const us = (x: number) => `${x.toFixed(1)} µs`;
const ratio = (x: number, base: number) => `${(x / base).toFixed(1)}×`;

async function main() {
  const started = performance.now();
  const bundle = loadBundle(path.join(ROOT, "bundle"));
  const loadMs = performance.now() - started;
  const policy = createPolicy(bundle);
  const gates = createGates(bundle.gates);
  const texts = scenarioTexts();
  const entry = (user: string): HistoryEntry => ({ user, reply: "…", outcome: "answer", language: "en", turnId: "", requestId: "", completedAt: "" });
  const histories = texts.map((_, i) => [1, 2, 3].map((k) => entry(texts[(i + texts.length - k) % texts.length]!)).reverse());

  const base = time(CALLS, (i) => policy.evaluate({ text: texts[i % texts.length]!, pendingOptions: null }));
  const classify = time(CALLS, (i) => gates.read(texts[i % texts.length]!));
  const first = time(CALLS, (i) => gateVerdict({ policy, gates, text: texts[i % texts.length]!, pendingClarify: null, history: [] }));
  const later = time(CALLS, (i) => gateVerdict({ policy, gates, text: texts[i % texts.length]!, pendingClarify: null, history: histories[i % texts.length]! }));
  const row = (name: string, s: Summary & { cpuMean: number }) => [name, us(s.p50), us(s.p90), us(s.p99), us(s.cpuMean), ratio(s.p50, base.p50), ratio(s.p99, base.p99)];
  const size = Buffer.byteLength(readFileSync(path.join(ROOT, "bundle/gates/model.json")));
  console.log(
    `Gate cost per turn, ${CALLS} calls each over the ${texts.length} user messages of the evaluation scenarios (mean ${Math.round(texts.join("").length / texts.length)} chars).`,
  );
  console.log(`Bundle load with the gates artefact (${(size / 1024).toFixed(0)} KiB): ${loadMs.toFixed(0)} ms.\n`);
  console.log(
    table(
      ["per turn", "p50", "p90", "p99", "CPU mean", "p50 vs baseline", "p99 vs baseline"],
      [
        row("policy lists alone (baseline)", base),
        row("classifier: classify + decide", classify),
        row("gate verdict, first turn", first),
        row("gate verdict, 3 turns of history", later),
      ],
    ),
  );
}

await main();
