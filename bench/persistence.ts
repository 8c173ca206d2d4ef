/**
 * Persistence benchmark (npm run bench:persistence). Runs the real application (offline model,
 * bundled corpus) and measures, on the machine's PostgreSQL, in one run:
 *   1. rows and bytes written per turn: frontdesk's one-checkpoint-per-turn commit, against
 *      LangGraph's default per-node durability ("async") on the same graph and turns;
 *   2. bytes kept per thread after 10, 100 and 500 turns (must stay flat);
 *   3. turn latency with PostgreSQL against the in-memory saver (and the SQLite file), the
 *      stores interleaved turn by turn so machine noise hits them alike; reported as ratios.
 * Environment: FRONTDESK_TEST_DATABASE_URL (an admin connection; default the local postgres
 * database), BENCH_LATENCY_TURNS (default 300), BENCH_GROWTH_TURNS (default 500).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { settingsFromConfig, type AgentDeps } from "../src/agent/deps.js";
import { compileGraph } from "../src/agent/graph.js";
import { createPolicy } from "../src/agent/policy.js";
import { createGates } from "../src/agent/gates.js";
import { freshTurnState } from "../src/agent/state.js";
import type { TurnInput } from "../src/domain/turn.js";
import type { TurnAttempt } from "../src/service/types.js";
import { createApp, type App } from "../src/app/index.js";
import { loadBundle } from "../src/app/bundle.js";
import { loadConfig } from "../src/config/config.js";
import { silentLogger } from "../src/domain/logger.js";
import { createOfflineModelProvider } from "../src/models/offline/index.js";
import { createMemoryPersistence } from "../src/persistence/memory.js";
import { createEmbeddedRetriever, createLocalEmbedder, loadCorpusDir } from "../src/retrieval/index.js";
import { createTestDatabase, threadFootprint, type TestDatabase } from "../test/support/postgres.js";

const LATENCY_TURNS = Number(process.env["BENCH_LATENCY_TURNS"] ?? "300");
const GROWTH_TURNS = Number(process.env["BENCH_GROWTH_TURNS"] ?? "500");
const CHECKPOINTS_AT = [10, 100, 500].filter((n) => n <= GROWTH_TURNS);

/** Questions the offline model answers from the corpus; cycled (never twice in a row: that reads as frustration). */
const QUESTIONS = [
  "What is the minimum deductible for motor body insurance?",
  "Does supplementary health insurance cover my children?",
  "Is glass breakage covered by motor body insurance?",
  "حداقل فرانشیز بیمه بدنه چقدر است؟",
  "What does travel insurance cover?",
  "How do I file a claim?",
  "Is earthquake damage covered by home insurance?",
  "What are your contact hours?",
  "Hello!",
];

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}
const fmt = (n: number, digits = 1) => n.toFixed(digits);

function config(env: Record<string, string>) {
  return loadConfig({ FRONTDESK_LOG_LEVEL: "silent", ...env });
}

async function answerable(app: App): Promise<string[]> {
  const kept: string[] = [];
  for (const text of QUESTIONS) {
    const attempt = await app.turnService.runTurn({ tenantId: "default", threadId: `probe-${randomUUID()}`, userId: "bench", text, requestId: "" });
    if (attempt.kind === "completed" && attempt.result.outcome.kind === "answer") kept.push(text);
  }
  if (kept.length < 3) throw new Error(`only ${kept.length} probe questions are answered; the bench needs 3`);
  return kept;
}

function completed(attempt: TurnAttempt, where: string): void {
  if (attempt.kind !== "completed") throw new Error(`${where}: turn was ${attempt.kind}`);
  if (attempt.result.outcome.kind === "escalate") throw new Error(`${where}: turn escalated (${attempt.result.outcome.reason}), the thread closed`);
}

interface RowSnapshot {
  /** "table:key" → bytes (pg_column_size of the row). */
  rows: Map<string, number>;
}

async function snapshot(db: TestDatabase, threadKey: string): Promise<RowSnapshot> {
  const result = await db.query<{ k: string; bytes: number }>(
    `SELECT 'checkpoint:' || checkpoint_ns || ':' || checkpoint_id AS k, pg_column_size(c.*) AS bytes FROM checkpoints c WHERE thread_id = $1
     UNION ALL SELECT 'blob:' || checkpoint_ns || ':' || channel || ':' || version, pg_column_size(b.*) FROM checkpoint_blobs b WHERE thread_id = $1
     UNION ALL SELECT 'write:' || checkpoint_id || ':' || task_id || ':' || idx, pg_column_size(w.*) FROM checkpoint_writes w WHERE thread_id = $1`,
    [threadKey],
  );
  return { rows: new Map(result.map((r) => [r.k, Number(r.bytes)])) };
}

/** Rows present after and not before (written by the turn), and rows gone (pruned). */
function diff(before: RowSnapshot, after: RowSnapshot) {
  let written = 0;
  let bytes = 0;
  for (const [key, size] of after.rows) {
    if (!before.rows.has(key)) {
      written++;
      bytes += size;
    }
  }
  const deleted = [...before.rows.keys()].filter((k) => !after.rows.has(k)).length;
  return { written, bytes, deleted };
}

async function writesPerTurn(db: TestDatabase, app: App, questions: string[], turns: number) {
  const threadId = "bench-writes";
  const samples: Array<{ written: number; bytes: number; deleted: number }> = [];
  for (let i = 0; i < turns; i++) {
    const before = await snapshot(db, `default/${threadId}`);
    completed(await app.turnService.runTurn({ tenantId: "default", threadId, userId: "bench", text: questions[i % questions.length]!, requestId: `w-${i}` }), "writes");
    samples.push(diff(before, await snapshot(db, `default/${threadId}`)));
  }
  return samples;
}

/** The same graph and turns with LangGraph's default per-node durability on a plain PostgresSaver. */
async function writesPerTurnAsync(db: TestDatabase, questions: string[], turns: number) {
  const cfg = config({});
  const bundle = loadBundle(cfg.bundleDir);
  const retriever = createEmbeddedRetriever({
    embedder: createLocalEmbedder(),
    candidates: cfg.retrieval.candidates,
    rrfK: cfg.retrieval.rrfK,
    contextWindow: cfg.retrieval.contextWindow,
  });
  await retriever.add((await loadCorpusDir(cfg.retrieval.corpusDir, { tenantId: "default" })).documents);
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const saver = new PostgresSaver(pool);
  let id = 0;
  const deps: AgentDeps = {
    models: createOfflineModelProvider(),
    retriever,
    profiles: createMemoryPersistence().profiles,
    policy: createPolicy(bundle),
    gates: createGates(bundle.gates),
    bundle,
    settings: settingsFromConfig(cfg),
    now: Date.now,
    newId: () => `async-${++id}`,
    logger: silentLogger,
  };
  const graph = compileGraph(deps, saver);
  const threadKey = "default/bench-async";
  const samples: Array<{ written: number; bytes: number; deleted: number }> = [];
  for (let i = 0; i < turns; i++) {
    const before = await snapshot(db, threadKey);
    const text = questions[i % questions.length]!;
    const turn = { turnId: deps.newId(), tenantId: "default", threadId: "bench-async", userId: "bench", text, requestId: "", locale: "", domain: "", startedAtMs: Date.now() };
    await graph.invoke(freshTurnState(turn), { configurable: { thread_id: threadKey }, durability: "async" });
    samples.push(diff(before, await snapshot(db, threadKey)));
  }
  await pool.end();
  return samples;
}

async function growth(db: TestDatabase, app: App, questions: string[]) {
  const threadId = "bench-growth";
  const out: Array<{ turns: number; checkpoints: number; blobs: number; writes: number; bytes: number }> = [];
  for (let i = 1; i <= GROWTH_TURNS; i++) {
    completed(await app.turnService.runTurn({ tenantId: "default", threadId, userId: "bench", text: questions[i % questions.length]!, requestId: `g-${i}` }), `growth turn ${i}`);
    if (CHECKPOINTS_AT.includes(i)) out.push({ turns: i, ...(await threadFootprint(db, `default/${threadId}`)) });
  }
  return out;
}

async function latency(apps: Record<string, App>, questions: string[], turns: number, prefix: string) {
  const names = Object.keys(apps);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  // Threads of 10 turns, so state grows and gets trimmed as in real conversations.
  for (let i = 0; i < turns; i++) {
    const input: Omit<TurnInput, "tenantId"> = {
      threadId: `${prefix}-${Math.floor(i / 10)}`,
      userId: "bench",
      text: questions[i % questions.length]!,
      requestId: `${prefix}-${i}`,
    };
    // Rotate the order so no store always runs first.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]!;
      const started = performance.now();
      completed(await apps[name]!.turnService.runTurn({ tenantId: "default", ...input }), `latency ${name}`);
      times[name]!.push(performance.now() - started);
    }
  }
  return times;
}

async function main() {
  const db = await createTestDatabase("bench");
  const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-bench-"));
  const apps: Record<string, App> = {};
  try {
    apps["memory"] = await createApp(config({ FRONTDESK_CHECKPOINTER: "memory" }), silentLogger);
    apps["file (SQLite)"] = await createApp(config({ FRONTDESK_CHECKPOINTER: "file", FRONTDESK_DATA_DIR: dataDir }), silentLogger);
    apps["postgres"] = await createApp(config({ FRONTDESK_CHECKPOINTER: "postgres", DATABASE_URL: db.url, FRONTDESK_THREAD_TTL_HOURS: "0" }), silentLogger);
    const questions = await answerable(apps["memory"]!);
    const postgres = apps["postgres"]!;

    const exit = await writesPerTurn(db, postgres, questions, 30);
    const perNode = await writesPerTurnAsync(db, questions, 30);
    const grown = await growth(db, postgres, questions);
    // Warm-up (JIT, pools, caches) before timing.
    await latency(apps, questions, 20, "warm");
    const times = await latency(apps, questions, LATENCY_TURNS, "lat");

    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const lines: string[] = [];
    lines.push(`Run: ${new Date().toISOString()}, Node ${process.version}, PostgreSQL on 127.0.0.1, ${questions.length} questions cycled.`);
    lines.push("");
    lines.push("Checkpoint rows and bytes written per turn (30 turns on one thread; mean, first turn excluded):");
    lines.push("");
    lines.push("| durability | rows written / turn | bytes written / turn | rows deleted / turn |");
    lines.push("|---|---|---|---|");
    for (const [name, samples] of [
      ["frontdesk: one checkpoint at the end of the turn, older ones pruned", exit],
      ["LangGraph default (async, a checkpoint per node), no pruning", perNode],
    ] as const) {
      const rest = samples.slice(1);
      lines.push(`| ${name} | ${fmt(avg(rest.map((s) => s.written)))} | ${fmt(avg(rest.map((s) => s.bytes)), 0)} | ${fmt(avg(rest.map((s) => s.deleted)))} |`);
    }
    lines.push("");
    lines.push("Bytes kept per thread (checkpoints + channel values + pending writes, pg_column_size):");
    lines.push("");
    lines.push("| turns | checkpoints | channel-value rows | pending writes | bytes |");
    lines.push("|---|---|---|---|---|");
    for (const g of grown) lines.push(`| ${g.turns} | ${g.checkpoints} | ${g.blobs} | ${g.writes} | ${g.bytes} |`);
    lines.push("");
    lines.push(`Turn latency (${LATENCY_TURNS} turns per store, interleaved; ms):`);
    lines.push("");
    lines.push("| store | median | p95 | mean | median ratio to memory |");
    lines.push("|---|---|---|---|---|");
    const base = median(times["memory"]!);
    for (const [name, xs] of Object.entries(times)) {
      lines.push(`| ${name} | ${fmt(median(xs))} | ${fmt(quantile(xs, 0.95))} | ${fmt(avg(xs))} | ${fmt(median(xs) / base, 2)} |`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    for (const app of Object.values(apps)) await app.close();
    await db.drop();
  }
}

await main();
