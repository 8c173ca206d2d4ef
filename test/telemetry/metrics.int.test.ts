import http2 from "node:http2";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { createApp } from "../../src/app/index.js";
import { runServe, type RunningServe } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/config.js";
import { ModelError } from "../../src/models/errors.js";
import { createOfflineModelProvider } from "../../src/models/offline/index.js";
import type { ModelProvider } from "../../src/models/provider.js";
import { threadKey } from "../../src/persistence/index.js";
import { advisoryKey } from "../../src/persistence/postgres/connection.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

/**
 * `frontdesk serve` as it runs in production (runServe, PostgreSQL, FRONTDESK_METRICS_ADDR) after
 * a few turns: a Prometheus scrape shows every metric family with the values those turns imply,
 * and no label carries a thread id, a user id or the user's text.
 */

/** Terse words the shipped gate classifier is unsure of, so the (flaky) triage model is asked. */
const ADDRESS_TEXT = "minimum deductible motor body";
const THREADS = { answer: "mx-answer-7f3a", human: "mx-human-7f3a", busy: "mx-busy-7f3a", watched: "mx-watched-7f3a" };
const USER = "mx-user-5521";

/** The offline provider, except that the first triage call times out once (a retry to count). */
function flakyOffline(): ModelProvider {
  const offline = createOfflineModelProvider();
  let failed = false;
  return {
    id: offline.id,
    async invoke(role, input, options) {
      if (role === "triage" && !failed) {
        failed = true;
        throw new ModelError("timeout", role, "simulated timeout");
      }
      return offline.invoke(role, input, options);
    },
  };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format's samples (HELP/TYPE lines give the families). */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/u.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/u.exec(line);
    if (!match) throw new Error(`unparsable sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/gu)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

let db: TestDatabase;
let running: RunningServe;
let client: Client<typeof AgentService>;

beforeAll(async () => {
  db = await createTestDatabase("metrics");
  const config = loadConfig({
    DATABASE_URL: db.url,
    FRONTDESK_PORT: "0",
    FRONTDESK_METRICS_ADDR: "127.0.0.1:0",
    FRONTDESK_LOG_LEVEL: "silent",
    FRONTDESK_MODEL_RETRY_INITIAL_MS: "1",
    FRONTDESK_DB_POOL_MAX: "7",
    FRONTDESK_DB_LOCK_CONNECTIONS: "9",
  });
  running = await runServe(config, pino({ level: "silent" }), (c, l) => createApp(c, l, { models: flakyOffline() }));
  client = createClient(AgentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${running.port}` }));
}, 60_000);

afterAll(async () => {
  await running?.close();
  await db?.drop();
});

const turn = (threadId: string, text: string) => create(TurnRequestSchema, { threadId, userId: USER, text });

async function scrape(): Promise<{ text: string; contentType: string | null } & ReturnType<typeof parse>> {
  const response = await fetch(running.metricsUrl!);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, contentType: response.headers.get("content-type"), ...parse(text) };
}

function value(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length === 0) throw new Error(`no sample ${name}${JSON.stringify(labels)}`);
  return found.reduce((sum, s) => sum + s.value, 0);
}

async function code(p: Promise<unknown>): Promise<Code> {
  try {
    await p;
  } catch (error) {
    return ConnectError.from(error).code;
  }
  throw new Error("expected the call to fail");
}

describe("a Prometheus scrape after a few turns", () => {
  it("shows every family with the values the turns imply", async () => {
    // Two answered turns, a handoff, one turn and one erasure on a thread whose lock someone else holds.
    expect((await client.turn(turn(THREADS.answer, ADDRESS_TEXT))).result?.outcome.case).toBe("answer");
    expect((await client.turn(turn(THREADS.answer, "And for third-party motor insurance?"))).result?.outcome.case).toBeDefined();
    expect((await client.turn(turn(THREADS.human, "I want to talk to a human."))).result?.outcome.case).toBe("escalate");
    const lock = advisoryKey(`thread:${threadKey("default", THREADS.busy)}`);
    await db.query("SELECT pg_advisory_lock($1::bigint)", [lock]);
    expect(await code(client.turn(turn(THREADS.busy, ADDRESS_TEXT)))).toBe(Code.Aborted);
    expect(await code(client.deleteThread({ threadId: THREADS.busy }))).toBe(Code.Aborted);
    await db.query("SELECT pg_advisory_unlock($1::bigint)", [lock]);

    // A watcher that is open during the scrape.
    const controller = new AbortController();
    const stream = client.watchThread({ threadId: THREADS.watched }, { signal: controller.signal })[Symbol.asyncIterator]();
    expect((await stream.next()).value?.event?.event.case).toBe("started");

    const { samples, types, contentType, text } = await scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/u);

    // RPCs by method and code.
    expect(types.get("frontdesk_rpc_duration_seconds")).toBe("histogram");
    expect(value(samples, "frontdesk_rpc_duration_seconds_count", { method: "frontdesk.v1.AgentService/Turn", code: "OK" })).toBe(3);
    expect(value(samples, "frontdesk_rpc_duration_seconds_count", { method: "frontdesk.v1.AgentService/Turn", code: "ABORTED" })).toBe(1);
    expect(value(samples, "frontdesk_rpc_duration_seconds_count", { method: "frontdesk.v1.AgentService/DeleteThread", code: "ABORTED" })).toBe(1);
    const rpcSum = value(samples, "frontdesk_rpc_duration_seconds_sum", { method: "frontdesk.v1.AgentService/Turn", code: "OK" });
    expect(rpcSum).toBeGreaterThan(0);
    expect(rpcSum).toBeLessThan(30);
    expect(value(samples, "frontdesk_rpc_duration_seconds_bucket", { method: "frontdesk.v1.AgentService/Turn", code: "OK", le: "+Inf" })).toBe(3);

    // Turns by outcome and escalation reason.
    expect(value(samples, "frontdesk_turns_total", { outcome: "answer", reason: "none" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "frontdesk_turns_total", { outcome: "escalate", reason: "user_requested" })).toBe(1);
    expect(value(samples, "frontdesk_turns_total")).toBe(3);
    expect(value(samples, "frontdesk_turn_duration_seconds_count")).toBe(3);
    expect(value(samples, "frontdesk_turn_refusals_total", { kind: "busy" })).toBe(1);

    // Node durations, by node: every turn loads memory, triages and records itself.
    for (const node of ["load_memory", "triage", "record_turn"]) expect(value(samples, "frontdesk_node_duration_seconds_count", { node })).toBe(3);
    expect(value(samples, "frontdesk_node_duration_seconds_count", { node: "retrieve" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "frontdesk_node_duration_seconds_sum", { node: "triage" })).toBeGreaterThan(0);

    // Model calls, tokens and retries by role and provider: the first triage timed out once.
    expect(value(samples, "frontdesk_model_calls_total", { role: "triage", provider: "offline", result: "timeout" })).toBe(1);
    expect(value(samples, "frontdesk_model_calls_total", { role: "triage", provider: "offline", result: "ok" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "frontdesk_model_calls_total", { role: "generate", provider: "offline", result: "ok" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "frontdesk_model_retries_total", { role: "triage", provider: "offline" })).toBe(1);
    expect(value(samples, "frontdesk_model_tokens_total", { role: "generate", provider: "offline", type: "input" })).toBeGreaterThan(0);
    expect(value(samples, "frontdesk_model_tokens_total", { role: "generate", provider: "offline", type: "output" })).toBeGreaterThan(0);
    expect(value(samples, "frontdesk_model_call_duration_seconds_count", { role: "triage", provider: "offline" })).toBe(
      value(samples, "frontdesk_model_calls_total", { role: "triage" }),
    );

    // Retrieval latency by backend, and by stage.
    const retrievals = value(samples, "frontdesk_retrieval_duration_seconds_count", { backend: "embedded" });
    expect(retrievals).toBeGreaterThanOrEqual(1);
    for (const stage of ["sparse", "dense", "fuse", "rerank"]) {
      expect(value(samples, "frontdesk_retrieval_stage_duration_seconds_count", { stage, backend: "embedded" })).toBe(retrievals);
    }
    expect(value(samples, "frontdesk_retrieval_duration_seconds_sum", { backend: "embedded" })).toBeLessThan(5 * retrievals);

    // Checkpoint commits: one per completed turn, a few KB each, on PostgreSQL.
    expect(value(samples, "frontdesk_checkpoint_commit_duration_seconds_count", { backend: "postgres" })).toBe(3);
    const bytes = value(samples, "frontdesk_checkpoint_commit_bytes_sum", { backend: "postgres" });
    expect(bytes / 3).toBeGreaterThan(500);
    expect(bytes / 3).toBeLessThan(1_000_000);

    // Locks (none held between turns) and ABORTED by cause.
    expect(value(samples, "frontdesk_thread_locks_held")).toBe(0);
    expect(value(samples, "frontdesk_aborted_total", { cause: "turn_in_progress" })).toBe(1);
    expect(value(samples, "frontdesk_aborted_total", { cause: "delete_during_turn" })).toBe(1);

    // Watchers: the open one.
    expect(value(samples, "frontdesk_watchers")).toBe(1);
    expect(types.get("frontdesk_watchers_dropped_total")).toBe("counter");

    // Pools, per pool.
    expect(value(samples, "frontdesk_db_pool_max_connections", { pool: "main" })).toBe(7);
    expect(value(samples, "frontdesk_db_pool_max_connections", { pool: "locks" })).toBe(9);
    for (const pool of ["main", "locks"]) {
      expect(value(samples, "frontdesk_db_pool_in_use_connections", { pool })).toBeGreaterThanOrEqual(0);
      expect(value(samples, "frontdesk_db_pool_in_use_connections", { pool })).toBeLessThanOrEqual(pool === "main" ? 7 : 9);
      expect(value(samples, "frontdesk_db_pool_waiting_clients", { pool })).toBe(0);
      expect(value(samples, "frontdesk_db_pool_idle_connections", { pool })).toBeGreaterThanOrEqual(0);
    }
    // The main pool has served the turns' reads and kept some connections open.
    expect(value(samples, "frontdesk_db_pool_idle_connections", { pool: "main" }) + value(samples, "frontdesk_db_pool_in_use_connections", { pool: "main" })).toBeGreaterThan(0);

    // Process metrics.
    expect(value(samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(value(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");

    // No label value is an id or the user's text.
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    for (const secret of [...Object.values(THREADS), USER, "deductible", "human"]) {
      expect(labelValues.filter((v) => v.includes(secret))).toEqual([]);
      expect(text).not.toContain(secret);
    }
    // Every frontdesk family follows the conventions: counters end in _total, units in the name.
    for (const [name, type] of types) {
      if (!name.startsWith("frontdesk_")) continue;
      if (type === "counter") expect(name).toMatch(/_total$/u);
      if (type === "histogram") expect(name).toMatch(/_(seconds|bytes)$/u);
    }

    // The watcher is dropped when its event source is lost (the LISTEN connection cut).
    await db.terminateConnections("frontdesk-listen");
    for (;;) {
      const next = await stream.next();
      if (next.done === true || next.value?.event?.event.case === "fellBehind") break;
    }
    controller.abort();
    await stream.return?.();
    const after = (await scrape()).samples;
    expect(value(after, "frontdesk_watchers_dropped_total", { reason: "source_interrupted" })).toBe(1);
    expect(value(after, "frontdesk_watchers")).toBe(0);
    expect(value(after, "frontdesk_rpc_duration_seconds_count", { method: "frontdesk.v1.AgentService/WatchThread" })).toBe(1);
  }, 60_000);

  it("is served on its own listener only, never on the service's port", async () => {
    expect(new URL(running.metricsUrl!).port).not.toBe(String(running.port));
    const session = http2.connect(`http://127.0.0.1:${running.port}`);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = session.request({ ":path": "/metrics", ":method": "GET" });
        request.on("response", (headers) => resolve(Number(headers[":status"])));
        request.on("error", reject);
        request.end();
      });
      expect(status).toBe(404);
    } finally {
      session.close();
    }
    expect((await fetch(new URL("/other", running.metricsUrl!))).status).toBe(404);
    expect((await fetch(running.metricsUrl!, { method: "POST" })).status).toBe(405);
  });
});
