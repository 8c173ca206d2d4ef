import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from "prom-client";

/**
 * Every Prometheus metric frontdesk exports, declared once. Names follow the Prometheus
 * conventions (a `frontdesk_` prefix, base units in the name: `_seconds`, `_bytes`; counters end
 * in `_total`). Label values are always from a closed set the code knows — RPC method names from
 * the service descriptors, codes from the fixed gRPC code list, node names from the graph, model
 * roles from the role list, outcomes and escalation reasons from their enums, backend and pool
 * names — never user text, user or thread ids, or anything else unbounded.
 */

// Seconds. RPCs and turns run from milliseconds (replay, refusals) to the turn deadline (30 s).
const RPC_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
// A node is sub-millisecond (routing, copy) up to a model call's timeout.
const NODE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const MODEL_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];
const RETRIEVAL_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const COMMIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
// Bytes of one turn's checkpoint: a few KB for a new thread, bounded by the history and summary limits.
const BYTE_BUCKETS = [256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304];

/** A connection pool's occupancy, read at scrape time. */
export interface PoolStats {
  /** e.g. "main", "locks". */
  pool: string;
  /** Connections handed out. */
  inUse: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

export interface Metrics {
  /** RPCs by method and gRPC code; `_count` is the number of RPCs. */
  readonly rpcDuration: Histogram<"method" | "code">;
  /** Turns run, by outcome (answer, clarify, escalate; failed, cancelled: stopped by an error or the caller) and escalation reason (`none` otherwise). */
  readonly turns: Counter<"outcome" | "reason">;
  readonly turnDuration: Histogram<"outcome">;
  /** Attempts that did not run the graph, by kind (busy, replayed, thread_closed, request_conflict, unknown_domain). */
  readonly turnRefusals: Counter<"kind">;
  readonly nodeDuration: Histogram<"node">;
  /** Model call attempts, by role, provider and result (ok or the ModelError kind). */
  readonly modelCalls: Counter<"role" | "provider" | "result">;
  readonly modelCallDuration: Histogram<"role" | "provider">;
  /** Tokens by role, provider and type (input, output). */
  readonly modelTokens: Counter<"role" | "provider" | "type">;
  /** Retries of a model call (attempts after the first). */
  readonly modelRetries: Counter<"role" | "provider">;
  /** One retrieval, end to end. */
  readonly retrievalDuration: Histogram<"backend">;
  /** The stages of a retrieval the backend times (embedded: sparse, dense, fuse, rerank). */
  readonly retrievalStageDuration: Histogram<"stage" | "backend">;
  readonly checkpointCommitDuration: Histogram<"backend">;
  readonly checkpointCommitBytes: Histogram<"backend">;
  /** Thread locks held by this process (running turns and erasures). */
  readonly locksHeld: Gauge;
  /** ABORTED answers, by cause (turn_in_progress: a turn on a busy thread; delete_during_turn: DeleteThread on a busy thread). */
  readonly aborted: Counter<"cause">;
  /** Open watch streams (WatchThread, WatchTenant) on this process. */
  readonly watchers: Gauge;
  /** Watchers disconnected for falling behind, by reason (slow_consumer, source_interrupted). */
  readonly watchersDropped: Counter<"reason">;
  /** Registers a source of pool occupancy (the PostgreSQL pools); read at every scrape. */
  addPoolSource(source: () => readonly PoolStats[]): void;
}

export interface CreateMetricsOptions {
  /** Node.js process metrics (CPU, memory, event loop, GC, handles). Default true. */
  processMetrics?: boolean;
}

export function createMetrics(registry: Registry, options: CreateMetricsOptions = {}): Metrics {
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const poolSources: Array<() => readonly PoolStats[]> = [];
  const pools = () => poolSources.flatMap((source) => source());
  const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"] as const,
      registers,
      collect() {
        this.reset();
        for (const p of pools()) this.set({ pool: p.pool }, read(p));
      },
    });
  poolGauge("frontdesk_db_pool_in_use_connections", "PostgreSQL connections handed out, per pool.", (p) => p.inUse);
  poolGauge("frontdesk_db_pool_idle_connections", "PostgreSQL connections open and idle, per pool.", (p) => p.idle);
  poolGauge("frontdesk_db_pool_waiting_clients", "Callers waiting for a PostgreSQL connection, per pool.", (p) => p.waiting);
  poolGauge("frontdesk_db_pool_max_connections", "The size limit of each PostgreSQL pool.", (p) => p.max);

  return {
    rpcDuration: new Histogram({
      name: "frontdesk_rpc_duration_seconds",
      help: "Server-side duration of RPCs (streams: until the last message), by method and gRPC code.",
      labelNames: ["method", "code"] as const,
      buckets: RPC_BUCKETS,
      registers,
    }),
    turns: new Counter({
      name: "frontdesk_turns_total",
      help: "Turns run, by outcome (answer, clarify, escalate; failed or cancelled when an error or the caller stopped one) and escalation reason.",
      labelNames: ["outcome", "reason"] as const,
      registers,
    }),
    turnDuration: new Histogram({
      name: "frontdesk_turn_duration_seconds",
      help: "Duration of turns run, commit included, by outcome.",
      labelNames: ["outcome"] as const,
      buckets: RPC_BUCKETS,
      registers,
    }),
    turnRefusals: new Counter({
      name: "frontdesk_turn_refusals_total",
      help: "Turn attempts answered without running the graph, by kind.",
      labelNames: ["kind"] as const,
      registers,
    }),
    nodeDuration: new Histogram({
      name: "frontdesk_node_duration_seconds",
      help: "Duration of graph node runs, by node.",
      labelNames: ["node"] as const,
      buckets: NODE_BUCKETS,
      registers,
    }),
    modelCalls: new Counter({
      name: "frontdesk_model_calls_total",
      help: "Model call attempts, by role, provider and result (ok, or the failure kind).",
      labelNames: ["role", "provider", "result"] as const,
      registers,
    }),
    modelCallDuration: new Histogram({
      name: "frontdesk_model_call_duration_seconds",
      help: "Duration of model call attempts, by role and provider.",
      labelNames: ["role", "provider"] as const,
      buckets: MODEL_BUCKETS,
      registers,
    }),
    modelTokens: new Counter({
      name: "frontdesk_model_tokens_total",
      help: "Tokens used by model calls, by role, provider and type (input, output).",
      labelNames: ["role", "provider", "type"] as const,
      registers,
    }),
    modelRetries: new Counter({
      name: "frontdesk_model_retries_total",
      help: "Model call retries (attempts after the first), by role and provider.",
      labelNames: ["role", "provider"] as const,
      registers,
    }),
    retrievalDuration: new Histogram({
      name: "frontdesk_retrieval_duration_seconds",
      help: "Duration of one retrieval, end to end, by backend.",
      labelNames: ["backend"] as const,
      buckets: RETRIEVAL_BUCKETS,
      registers,
    }),
    retrievalStageDuration: new Histogram({
      name: "frontdesk_retrieval_stage_duration_seconds",
      help: "Duration of the stages of a retrieval that the backend times, by stage and backend.",
      labelNames: ["stage", "backend"] as const,
      buckets: RETRIEVAL_BUCKETS,
      registers,
    }),
    checkpointCommitDuration: new Histogram({
      name: "frontdesk_checkpoint_commit_duration_seconds",
      help: "Duration of a turn's checkpoint commit, by persistence backend.",
      labelNames: ["backend"] as const,
      buckets: COMMIT_BUCKETS,
      registers,
    }),
    checkpointCommitBytes: new Histogram({
      name: "frontdesk_checkpoint_commit_bytes",
      help: "Serialised size of a turn's checkpoint commit, by persistence backend.",
      labelNames: ["backend"] as const,
      buckets: BYTE_BUCKETS,
      registers,
    }),
    locksHeld: new Gauge({
      name: "frontdesk_thread_locks_held",
      help: "Thread locks held by this process (running turns and thread erasures).",
      registers,
    }),
    aborted: new Counter({
      name: "frontdesk_aborted_total",
      help: "Calls answered ABORTED, by cause.",
      labelNames: ["cause"] as const,
      registers,
    }),
    watchers: new Gauge({
      name: "frontdesk_watchers",
      help: "Open watch streams (WatchThread, WatchTenant) on this process.",
      registers,
    }),
    watchersDropped: new Counter({
      name: "frontdesk_watchers_dropped_total",
      help: "Watchers disconnected for falling behind, by reason.",
      labelNames: ["reason"] as const,
      registers,
    }),
    addPoolSource(source) {
      poolSources.push(source);
    },
  };
}
