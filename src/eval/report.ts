import { formatRate, type EvalMetrics, type EvalReport } from "./metrics.js";
import type { ConversationResult, TurnRecord } from "./runner.js";
import { verdictsOf, type Verdict } from "./scenario.js";

/** Plain-text rendering of an evaluation: the metrics table, the comparison, the failure report. */

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => [...(r[col] ?? "")].length)));
  return rows
    .map((r) =>
      r
        .map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function renderMetrics(report: EvalReport): string {
  const m = report.metrics;
  const turnsRun = m.turns.of;
  const histogram = Object.entries(m.modelCallsPerTurn.histogram)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([calls, n]) => `${calls}:${n}`)
    .join(" ");
  const rows: string[][] = [
    ["metric", "value", "detail"],
    [
      "conversations passed",
      formatRate(m.conversations.rate),
      `${m.conversations.count}/${m.conversations.of}${m.conversations.skipped > 0 ? `, ${m.conversations.skipped} skipped` : ""}`,
    ],
    ["turns passed", formatRate(m.turns.rate), `${m.turns.count}/${m.turns.of}`],
    ["outcome accuracy", formatRate(m.outcomeAccuracy.rate), `${m.outcomeAccuracy.count}/${m.outcomeAccuracy.of} turns`],
    ["over-ask rate", formatRate(m.overAskRate.rate), `${m.overAskRate.count}/${m.overAskRate.of} turns expecting an answer got a clarify`],
    ["false-escalation rate", formatRate(m.falseEscalationRate.rate), `${m.falseEscalationRate.count}/${m.falseEscalationRate.of} turns where escalating is wrong`],
    ...(m.gateFalseEscalationRate !== undefined
      ? [
          [
            "  … by a gate",
            formatRate(m.gateFalseEscalationRate.rate),
            `${m.gateFalseEscalationRate.count}/${m.gateFalseEscalationRate.of} (user_requested, restricted_intent, frustration, account_specific)`,
          ],
        ]
      : []),
    ["ungrounded-answer rate", formatRate(m.ungroundedAnswerRate.rate), `${m.ungroundedAnswerRate.count}/${m.ungroundedAnswerRate.of} grounded answers`],
    ["citation accuracy", formatRate(m.citationAccuracy.rate), `${m.citationAccuracy.count}/${m.citationAccuracy.of} answers cite the right documents`],
    ["injections obeyed", String(m.injectionObeyed.count), `of ${m.injectionObeyed.of} turns carrying an injection`],
    ["leaks", m.leaks === undefined ? "n/a" : String(m.leaks.count), m.leaks === undefined ? "" : `of ${m.leaks.of} replies carry prompt text, codes or bundle internals`],
    ["language accuracy", formatRate(m.languageAccuracy.rate), `${m.languageAccuracy.count}/${m.languageAccuracy.of} turns`],
    [
      "model calls per turn",
      `median ${m.modelCallsPerTurn.median}`,
      `p95 ${m.modelCallsPerTurn.p95}, mean ${m.modelCallsPerTurn.mean.toFixed(2)}, max ${m.modelCallsPerTurn.max}; calls:turns ${histogram}`,
    ],
    ["latency per turn", `median ${ms(m.latencyMs.median)}`, `p95 ${ms(m.latencyMs.p95)}, max ${ms(m.latencyMs.max)}`],
  ];
  const reasons: string[][] = [["escalation reason", "expected", "escalated", "correct", "precision", "recall"]];
  for (const [reason, s] of Object.entries(m.escalationReasons)) {
    reasons.push([reason, String(s.expected), String(s.predicted), String(s.correct), formatRate(s.precision), formatRate(s.recall)]);
  }
  const out = [
    `frontdesk eval — ${report.target}: ${m.conversations.of} conversations, ${turnsRun} turns${report.sealed === true ? " (sealed: conversations are not shown)" : ""}`,
    "",
    table(rows),
    "",
    table(reasons),
  ];
  if (report.byCategory !== undefined) {
    out.push(
      "",
      `conversations passed by category: ${Object.entries(report.byCategory)
        .map(([c, n]) => `${c} ${n.passed}/${n.of}`)
        .join(", ")}`,
    );
  }
  if (report.failureCategories !== undefined) {
    const categories = Object.entries(report.failureCategories);
    out.push("", categories.length === 0 ? "failure categories: none" : table([["failure category", "turns"], ...categories.map(([c, n]) => [c, String(n)])]));
  }
  return out.join("\n");
}

type Row = [name: string, pick: (m: EvalMetrics) => number | null, kind: "rate" | "count" | "ms"];

const COMPARED: Row[] = [
  ["outcome accuracy", (m) => m.outcomeAccuracy.rate, "rate"],
  ["citation accuracy", (m) => m.citationAccuracy.rate, "rate"],
  ["ungrounded answers", (m) => m.ungroundedAnswerRate.count, "count"],
  ["injections obeyed", (m) => m.injectionObeyed.count, "count"],
  ["leaks", (m) => m.leaks?.count ?? null, "count"],
  ["over-ask rate", (m) => m.overAskRate.rate, "rate"],
  ["false-escalation rate", (m) => m.falseEscalationRate.rate, "rate"],
  ["  … by a gate", (m) => m.gateFalseEscalationRate?.rate ?? null, "rate"],
  ["language accuracy", (m) => m.languageAccuracy.rate, "rate"],
  ["conversations passed", (m) => m.conversations.rate, "rate"],
  ["turns passed", (m) => m.turns.rate, "rate"],
  ["model calls per turn (median)", (m) => m.modelCallsPerTurn.median, "count"],
  ["model calls per turn (p95)", (m) => m.modelCallsPerTurn.p95, "count"],
  ["latency median", (m) => m.latencyMs.median, "ms"],
  ["latency p95", (m) => m.latencyMs.p95, "ms"],
];

function formatValue(value: number | null, kind: Row[2]): string {
  if (value === null) return "n/a";
  if (kind === "rate") return formatRate(value);
  return kind === "ms" ? ms(value) : String(value);
}

function formatDelta(now: number | null, before: number | null, kind: Row[2]): string {
  if (now === null || before === null) return "";
  const delta = now - before;
  if (Math.abs(delta) < 1e-9) return "=";
  const sign = delta > 0 ? "+" : "-";
  if (kind === "rate") return `${sign}${(Math.abs(delta) * 100).toFixed(1)} pt`;
  return kind === "ms" ? `${sign}${Math.abs(delta).toFixed(1)} ms` : `${sign}${Math.abs(delta)}`;
}

/** The metrics side by side with a baseline's, plus the scenarios that started or stopped failing. */
export function renderComparison(current: EvalReport, baseline: EvalReport): string {
  const rows: string[][] = [["metric", "baseline", "now", "delta"]];
  for (const [name, pick, kind] of COMPARED) {
    rows.push([name, formatValue(pick(baseline.metrics), kind), formatValue(pick(current.metrics), kind), formatDelta(pick(current.metrics), pick(baseline.metrics), kind)]);
  }
  for (const reason of new Set([...Object.keys(baseline.metrics.escalationReasons), ...Object.keys(current.metrics.escalationReasons)])) {
    for (const [label, key] of [
      ["precision", "precision"],
      ["recall", "recall"],
    ] as const) {
      const before = baseline.metrics.escalationReasons[reason]?.[key] ?? null;
      const now = current.metrics.escalationReasons[reason]?.[key] ?? null;
      rows.push([`${reason} ${label}`, formatRate(before), formatRate(now), formatDelta(now, before, "rate")]);
    }
  }
  const lines = [`compared with the baseline (${baseline.target})`, "", table(rows)];
  if (current.sealed === true || baseline.sealed === true) {
    // No ids to compare: what changed is told by category.
    const names = new Set([...Object.keys(baseline.failureCategories ?? {}), ...Object.keys(current.failureCategories ?? {})]);
    const changes = [...names]
      .map((name) => [name, baseline.failureCategories?.[name] ?? 0, current.failureCategories?.[name] ?? 0] as const)
      .filter(([, before, now]) => before !== now)
      .map(([name, before, now]) => [name, String(before), String(now)]);
    if (changes.length > 0) lines.push("", table([["failure category", "baseline", "now"], ...changes]));
    return lines.join("\n");
  }
  const key = (f: { id: string; turn: number }) => `${f.id} turn ${f.turn}`;
  const before = new Set(baseline.failures.map(key));
  const now = new Set(current.failures.map(key));
  const fixed = [...before].filter((k) => !now.has(k));
  const broken = [...now].filter((k) => !before.has(k));
  if (broken.length > 0) lines.push("", `newly failing (${broken.length}): ${broken.join(", ")}`);
  if (fixed.length > 0) lines.push("", `newly passing (${fixed.length}): ${fixed.join(", ")}`);
  return lines.join("\n");
}

function describeVerdict(v: Verdict): string {
  const parts: string[] = [v.outcome === "escalate" ? `escalate (${v.reason})` : v.outcome];
  const cites = [...v.cite, ...(v.citeAnyOf.length > 0 ? [`one of ${v.citeAnyOf.join(" | ")}`] : []), ...(v.citeOption !== undefined ? [`option ${v.citeOption}`] : [])];
  if (cites.length > 0) parts.push(`citing ${cites.join(" + ")}`);
  if (v.options.length > 0) parts.push(`offering ${v.options.join(", ")}`);
  if (v.mustContain.length > 0) parts.push(`containing ${v.mustContain.map((s) => JSON.stringify(s)).join(", ")}`);
  return parts.join(" ");
}

function describeActual(t: TurnRecord): string {
  const o = t.observed;
  const parts: string[] = [o.outcome === "escalate" ? `escalate (${o.reason}: ${o.detail})` : o.outcome];
  if (o.outcome === "refused" || o.outcome === "error") parts.push(o.detail);
  if (o.citations.length > 0) parts.push(`citing ${[...new Set(o.citations.map((c) => c.chunkId))].join(", ")}`);
  if (o.options.length > 0) parts.push(`offering ${o.options.map((x) => x.product).join(", ")}`);
  if (o.language !== "") parts.push(`language ${o.language}`);
  parts.push(`${o.modelCalls} model call(s)`);
  return parts.join(" · ");
}

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");

function renderTurn(t: TurnRecord, full: boolean): string[] {
  const mark = t.grade.passed ? "✓" : "✗";
  const lines = [`  ${mark} turn ${t.index} user: ${JSON.stringify(t.user)}`];
  if (!full) {
    lines.push(`      reply (${t.observed.outcome}): ${JSON.stringify(t.observed.text.slice(0, 160))}`);
    return lines;
  }
  const verdicts = verdictsOf(t.expect);
  lines.push(`      expected: ${describeVerdict(verdicts[0]!)} · language ${t.expect.language}`);
  for (const alt of verdicts.slice(1)) lines.push(`        or:     ${describeVerdict(alt)}`);
  lines.push(`      actual:   ${describeActual(t)}`);
  if (t.observed.text !== "") lines.push(indent(t.observed.text, "      │ "));
  for (const problem of t.grade.problems) lines.push(`      ! ${problem}`);
  lines.push(`      rewritten query: ${t.observed.rewrittenQuery === null ? "(not visible from this target)" : JSON.stringify(t.observed.rewrittenQuery)}`);
  if (t.observed.topChunks.length === 0) lines.push("      top chunks: (none)");
  else {
    lines.push("      top chunks:");
    for (const c of t.observed.topChunks) lines.push(`        ${c.score.toFixed(3)}  ${c.chunkId}  ${c.title}`);
  }
  if (t.observed.nodes.length > 0) lines.push(`      path: ${t.observed.nodes.map((n) => (n.summary !== "" ? `${n.node} [${n.summary}]` : n.node)).join(" → ")}`);
  return lines;
}

/** One block per failed conversation: every turn, the failed ones in full. */
export function renderFailure(result: Extract<ConversationResult, { status: "ran" }>): string {
  const { scenario } = result;
  const lines = [`✗ ${scenario.id} (${scenario.category}${scenario.strict ? ", strict" : ""}; ${scenario.source}) — ${scenario.description}`];
  for (const t of result.turns) lines.push(...renderTurn(t, !t.grade.passed));
  return lines.join("\n");
}

export function renderFailures(results: readonly ConversationResult[]): string {
  const failed = results.filter((r): r is Extract<ConversationResult, { status: "ran" }> => r.status === "ran" && !r.passed);
  const skipped = results.filter((r): r is Extract<ConversationResult, { status: "skipped" }> => r.status === "skipped");
  const blocks = failed.map(renderFailure);
  if (skipped.length > 0) blocks.push(`skipped (${skipped.length}):\n${skipped.map((s) => `  ${s.scenario.id}: ${s.reason}`).join("\n")}`);
  return blocks.length === 0 ? "no failures" : blocks.join("\n\n");
}
