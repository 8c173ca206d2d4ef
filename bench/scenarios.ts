import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { TurnService } from "../src/service/types.js";

/**
 * Runs conversations through a TurnService in-process and reports how many model calls each
 * turn made. Reads JSONL scenario files: one conversation per line, `{"id", "kind"?, "turns"}`
 * where a turn is a string or an object with `text` (or `user` / `message`) and optional
 * `domain` / `locale`. A line with a top-level `text` is a one-turn conversation. Lenient on
 * purpose, so the evaluation set (eval/scenarios/*.jsonl) can be read as it is.
 */

export interface ScenarioTurn {
  text: string;
  domain?: string;
  locale?: string;
}

export interface Scenario {
  id: string;
  kind: string;
  turns: ScenarioTurn[];
}

function turnOf(raw: unknown, where: string): ScenarioTurn {
  if (typeof raw === "string") return { text: raw };
  if (typeof raw === "object" && raw !== null) {
    const r = raw as Record<string, unknown>;
    const text = [r["text"], r["user"], r["message"]].find((v): v is string => typeof v === "string");
    if (text !== undefined) {
      const turn: ScenarioTurn = { text };
      if (typeof r["domain"] === "string") turn.domain = r["domain"];
      if (typeof r["locale"] === "string") turn.locale = r["locale"];
      return turn;
    }
  }
  throw new Error(`${where}: a turn must be a string or an object with "text"`);
}

export function parseScenarios(jsonl: string, source: string): Scenario[] {
  const scenarios: Scenario[] = [];
  jsonl.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${source}:${index + 1}`;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const turns = Array.isArray(raw["turns"]) ? raw["turns"].map((t, i) => turnOf(t, `${where} turn ${i + 1}`)) : [turnOf(raw, where)];
    if (turns.length === 0) throw new Error(`${where}: no turns`);
    const id = typeof raw["id"] === "string" ? raw["id"] : `${path.basename(source)}#${index + 1}`;
    const kind = [raw["kind"], raw["category"], raw["type"]].find((v): v is string => typeof v === "string") ?? "unlabelled";
    scenarios.push({ id, kind, turns });
  });
  return scenarios;
}

/** Every scenario in the given .jsonl files and directories (recursively), in path order. */
export function loadScenarios(paths: readonly string[]): Scenario[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const entry of readdirSync(p).sort()) walk(path.join(p, entry));
    else if (p.endsWith(".jsonl")) files.push(p);
  };
  for (const p of paths) walk(p);
  return files.flatMap((file) => parseScenarios(readFileSync(file, "utf8"), file));
}

export interface TurnRecord {
  scenario: string;
  kind: string;
  turn: number;
  text: string;
  /** answer / clarify / escalate, or how the service refused the turn (thread_closed after an escalation, ...). */
  outcome: string;
  reason?: string;
  /** Model calls the turn made (attempts, as the budget counts them); 0 for a refused turn. */
  modelCalls: number;
  roles: Record<string, number>;
  inputTokens: number;
  outputTokens: number;
  /** Wall-clock time of the turn in this process. */
  ms: number;
  /** False when the service did not run the graph (the turn is left out of the distribution). */
  ran: boolean;
}

export interface RunOptions {
  tenantId?: string;
  /** Prefix of thread ids, so several runs on one service do not share threads. */
  threadPrefix?: string;
  onTurn?: (record: TurnRecord) => void;
}

/** Runs every scenario's turns in order, each scenario on its own thread. */
export async function runScenarios(service: TurnService, scenarios: readonly Scenario[], options: RunOptions = {}): Promise<TurnRecord[]> {
  const tenantId = options.tenantId ?? "default";
  const records: TurnRecord[] = [];
  for (const [n, scenario] of scenarios.entries()) {
    const threadId = `${options.threadPrefix ?? "scenario"}-${n}-${scenario.id}`.slice(0, 120);
    for (const [index, t] of scenario.turns.entries()) {
      const started = performance.now();
      const attempt = await service.runTurn({
        tenantId,
        threadId,
        userId: `user-${n}`,
        text: t.text,
        requestId: "",
        ...(t.domain !== undefined ? { domain: t.domain } : {}),
        ...(t.locale !== undefined ? { locale: t.locale } : {}),
      });
      const ms = performance.now() - started;
      const base = { scenario: scenario.id, kind: scenario.kind, turn: index + 1, text: t.text, ms };
      let record: TurnRecord;
      if (attempt.kind === "completed" || attempt.kind === "replayed") {
        const { outcome, stats } = attempt.result;
        const roles = Object.fromEntries(Object.entries(stats.roles).map(([role, usage]) => [role, usage.calls]));
        const tokens = Object.values(stats.roles);
        record = {
          ...base,
          outcome: outcome.kind,
          ...(outcome.kind === "escalate" ? { reason: outcome.reason } : {}),
          modelCalls: stats.modelCalls,
          roles,
          inputTokens: tokens.reduce((sum, u) => sum + u.inputTokens, 0),
          outputTokens: tokens.reduce((sum, u) => sum + u.outputTokens, 0),
          ran: true,
        };
      } else {
        record = { ...base, outcome: attempt.kind, modelCalls: 0, roles: {}, inputTokens: 0, outputTokens: 0, ran: false };
      }
      records.push(record);
      options.onTurn?.(record);
    }
  }
  return records;
}

/** The value at quantile q of sorted values, nearest-rank (an actual observation, never interpolated). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export interface CallDistribution {
  turns: number;
  /** Turns the service refused without running (e.g. after the thread escalated). */
  refused: number;
  median: number;
  p95: number;
  mean: number;
  max: number;
  /** Turns by number of model calls, 0..max. */
  histogram: Array<{ calls: number; turns: number }>;
  /** Total calls per role. */
  byRole: Record<string, number>;
  /** Median calls per scenario kind, with its turn count. */
  byKind: Record<string, { turns: number; median: number }>;
  inputTokens: number;
  outputTokens: number;
}

export function distribution(records: readonly TurnRecord[]): CallDistribution {
  const ran = records.filter((r) => r.ran);
  const calls = ran.map((r) => r.modelCalls).sort((a, b) => a - b);
  const max = calls.at(-1) ?? 0;
  const histogram = Array.from({ length: max + 1 }, (_, n) => ({ calls: n, turns: calls.filter((c) => c === n).length }));
  const byRole: Record<string, number> = {};
  for (const r of ran) for (const [role, n] of Object.entries(r.roles)) byRole[role] = (byRole[role] ?? 0) + n;
  const byKind: CallDistribution["byKind"] = {};
  for (const kind of [...new Set(ran.map((r) => r.kind))].sort()) {
    const sorted = ran
      .filter((r) => r.kind === kind)
      .map((r) => r.modelCalls)
      .sort((a, b) => a - b);
    byKind[kind] = { turns: sorted.length, median: quantile(sorted, 0.5) };
  }
  return {
    turns: ran.length,
    refused: records.length - ran.length,
    median: quantile(calls, 0.5),
    p95: quantile(calls, 0.95),
    mean: calls.length === 0 ? Number.NaN : calls.reduce((a, b) => a + b, 0) / calls.length,
    max,
    histogram,
    byRole,
    byKind,
    inputTokens: ran.reduce((sum, r) => sum + r.inputTokens, 0),
    outputTokens: ran.reduce((sum, r) => sum + r.outputTokens, 0),
  };
}

export function formatDistribution(title: string, d: CallDistribution): string {
  const widest = Math.max(1, ...d.histogram.map((h) => h.turns));
  const lines = [
    `${title}: ${d.turns} turns${d.refused > 0 ? ` (+${d.refused} refused, not counted)` : ""}`,
    `  model calls per turn: median ${d.median}, p95 ${d.p95}, mean ${d.mean.toFixed(2)}, max ${d.max}`,
    "  histogram (calls: turns):",
    ...d.histogram.map((h) => `    ${String(h.calls).padStart(2)}: ${String(h.turns).padStart(4)} ${"#".repeat(Math.round((h.turns / widest) * 40))}`),
    `  calls by role: ${
      Object.entries(d.byRole)
        .map(([role, n]) => `${role} ${n}`)
        .join(", ") || "none"
    }`,
    `  median by kind: ${Object.entries(d.byKind)
      .map(([kind, k]) => `${kind} ${k.median} (${k.turns})`)
      .join(", ")}`,
    `  tokens: ${d.inputTokens} in, ${d.outputTokens} out`,
  ];
  return lines.join("\n");
}
