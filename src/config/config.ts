import { isIP } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";

/** The package root: defaults for bundled data (corpus, config bundle) resolve against it. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type CheckpointerKind = "file" | "memory" | "postgres";
export type ModelProviderKind = "offline" | "gemini";

export interface ApiKeyBinding {
  key: string;
  tenantId: string;
}

/**
 * The one validated configuration object. Every limit is a named value here with its default;
 * nothing below src/config reads process.env.
 */
export interface Config {
  server: {
    /** FRONTDESK_HOST, default 127.0.0.1. */
    host: string;
    /** FRONTDESK_PORT, default 8080 (0 picks a free port). */
    port: number;
    /** FRONTDESK_ALLOW_PUBLIC_BIND, default false: without API keys, refuse non-loopback hosts. */
    allowPublicBind: boolean;
    /** FRONTDESK_TLS_CERT / FRONTDESK_TLS_KEY: PEM files; h2c when unset. */
    tls: { certFile: string; keyFile: string } | null;
    /** FRONTDESK_TURN_TIMEOUT_MS, default 30000: a turn's server-side deadline. */
    turnTimeoutMs: number;
    /** FRONTDESK_SHUTDOWN_GRACE_MS, default 5000: time for running turns to finish on shutdown. */
    shutdownGraceMs: number;
  };
  auth: {
    /** FRONTDESK_API_KEYS="tenant:key,tenant2:key2". Empty: one default tenant, loopback only. */
    apiKeys: ApiKeyBinding[];
    /** FRONTDESK_DEFAULT_TENANT, default "default": the tenant when no keys are configured. */
    defaultTenant: string;
  };
  limits: {
    /** FRONTDESK_MAX_TEXT_CHARS, default 4000. */
    maxTextChars: number;
    /** FRONTDESK_MAX_ID_CHARS, default 128: thread_id, user_id, request_id. */
    maxIdChars: number;
    /** FRONTDESK_HISTORY_TURNS, default 6: turns kept verbatim in state. */
    historyTurns: number;
    /** FRONTDESK_SUMMARY_MAX_CHARS, default 1200: the running summary of older turns. */
    summaryMaxChars: number;
    /** FRONTDESK_REPLAY_RECORDS, default 20: completed turns remembered for request_id replay. */
    replayRecords: number;
  };
  budgets: {
    /** FRONTDESK_MAX_RETRIEVAL_ROUNDS, default 2 (ADR). */
    retrievalRounds: number;
    /** FRONTDESK_MAX_CLARIFY_STREAK, default 2 consecutive clarifying questions (ADR). */
    clarifyStreak: number;
    /** FRONTDESK_MAX_REGENERATIONS, default 1 (ADR). */
    regenerations: number;
    /** FRONTDESK_MAX_MODEL_CALLS, default 8 per turn (ADR). */
    modelCalls: number;
  };
  retrieval: {
    /** FRONTDESK_CORPUS_DIR, default the bundled data/corpus. */
    corpusDir: string;
    /** FRONTDESK_TOP_K, default 6: chunks passed on after reranking. */
    topK: number;
    /** FRONTDESK_CANDIDATES, default 30: candidates per stage before fusion. */
    candidates: number;
    /** FRONTDESK_CONTEXT_WINDOW, default 1: neighbouring chunks on each side. */
    contextWindow: number;
    /** FRONTDESK_RRF_K, default 60. */
    rrfK: number;
  };
  grading: {
    /** FRONTDESK_MIN_CONFIDENCE, default 0.45: below it, a drafted answer escalates (ADR trigger 4). */
    minConfidence: number;
    /** FRONTDESK_SUFFICIENT_SCORE, default 0.55: best retrieval score at or above it is sufficient without a model call. */
    sufficientScore: number;
    /** FRONTDESK_INSUFFICIENT_SCORE, default 0.25: best score below it is insufficient without a model call. */
    insufficientScore: number;
    /** FRONTDESK_AMBIGUITY_MARGIN, default 0.12: results this close to the best are equally good (ambiguity). */
    ambiguityMargin: number;
    /** FRONTDESK_MAX_CLARIFY_OPTIONS, default 4. */
    maxClarifyOptions: number;
  };
  persistence: {
    /** FRONTDESK_CHECKPOINTER: file (default), memory, or postgres (default when DATABASE_URL is set). */
    checkpointer: CheckpointerKind;
    /** FRONTDESK_DATA_DIR, default ./.frontdesk: the local checkpoint file and index live here. */
    dataDir: string;
    /** DATABASE_URL. */
    databaseUrl: string | null;
    /** Settings of the PostgreSQL persistence (used when checkpointer is postgres). */
    postgres: PostgresSettings;
  };
  /** Watchers of running turns (WatchThread / WatchTenant). */
  watch: {
    /** FRONTDESK_WATCH_BUFFER_EVENTS, default 256: events queued for one watcher before it is told it fell behind and is disconnected. */
    bufferEvents: number;
    /** FRONTDESK_WATCH_MAX_WATCHERS, default 1000: open watch streams per process; more are RESOURCE_EXHAUSTED. */
    maxWatchers: number;
    /** FRONTDESK_WATCH_PUBLISH_QUEUE, default 10000: events waiting to be sent to other processes; beyond it events are dropped, never a turn slowed. */
    publishQueue: number;
  };
  models: {
    /** FRONTDESK_MODEL_PROVIDER: offline (default) or gemini (default when GOOGLE_API_KEY is set). */
    provider: ModelProviderKind;
    googleApiKey: string | null;
    /**
     * FRONTDESK_GEMINI_BASE_URL: the Generative Language API's address, for a proxy or a test
     * fake. Default null: Google's public endpoint (https://generativelanguage.googleapis.com).
     */
    geminiBaseUrl: string | null;
    /** FRONTDESK_CLARIFY_WITH_MODEL, default false: clarify wording from the bundle's copy, no model call. */
    clarifyWithModel: boolean;
    /** FRONTDESK_MODEL_TIMEOUT_MS, default 15000: one model call. */
    timeoutMs: number;
    /**
     * FRONTDESK_HANDOFF_RESERVE_MS, default 1000 (or a tenth of FRONTDESK_TURN_TIMEOUT_MS when
     * that is under 10 s): the end of a turn's deadline kept for handing off. Model calls and their retries stop this long before the deadline, so that a model
     * that hangs ends in an escalation (dependency_failure) rather than DEADLINE_EXCEEDED.
     */
    handoffReserveMs: number;
    /** FRONTDESK_MODEL_RETRY_ATTEMPTS (3), FRONTDESK_MODEL_RETRY_INITIAL_MS (500), FRONTDESK_MODEL_RETRY_MAX_MS (4000). */
    retry: { maxAttempts: number; initialDelayMs: number; maxDelayMs: number; jitter: number };
  };
  /** FRONTDESK_CONFIG_DIR, default the bundled bundle/ directory. */
  bundleDir: string;
  /** FRONTDESK_LOG_LEVEL, default info. */
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
}

export interface PostgresSettings {
  /** FRONTDESK_DB_MIGRATE_ON_START, default true: run `frontdesk db migrate` at start-up; when false a missing schema stops the start. */
  migrateOnStart: boolean;
  /** FRONTDESK_DB_POOL_MAX, default 10: connections for reads and commits. */
  poolMax: number;
  /** FRONTDESK_DB_LOCK_CONNECTIONS, default 32: turns running at once per process (each holds one connection for its thread lock). */
  lockConnections: number;
  /** FRONTDESK_DB_CONNECT_TIMEOUT_MS, default 3000: waiting for a connection longer than this is UNAVAILABLE. */
  connectTimeoutMs: number;
  /** FRONTDESK_DB_STATEMENT_TIMEOUT_MS, default 10000: one statement; longer is UNAVAILABLE. */
  statementTimeoutMs: number;
  /** FRONTDESK_THREAD_TTL_HOURS, default 720 (30 days): threads idle longer are deleted by the sweep; 0 keeps threads forever. */
  threadTtlHours: number;
  /** FRONTDESK_THREAD_SWEEP_INTERVAL_S, default 3600: how often a process sweeps idle threads. */
  sweepIntervalSeconds: number;
  /** FRONTDESK_WATCH_PAYLOAD_RETENTION_S, default 600: large watch events (over NOTIFY's 8000-byte limit) are kept this long for other processes to fetch. */
  payloadRetentionSeconds: number;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u;

const EnvSchema = z.object({
  FRONTDESK_HOST: z.string().min(1).default("127.0.0.1"),
  FRONTDESK_PORT: int(0, 65535).default(8080),
  FRONTDESK_ALLOW_PUBLIC_BIND: bool.default(false),
  FRONTDESK_TLS_CERT: z.string().min(1).optional(),
  FRONTDESK_TLS_KEY: z.string().min(1).optional(),
  FRONTDESK_TURN_TIMEOUT_MS: int(100, 600_000).default(30_000),
  FRONTDESK_SHUTDOWN_GRACE_MS: int(0, 120_000).default(5_000),
  FRONTDESK_API_KEYS: z.string().optional(),
  FRONTDESK_DEFAULT_TENANT: z.string().regex(TENANT_ID).default("default"),
  FRONTDESK_MAX_TEXT_CHARS: int(1, 100_000).default(4_000),
  FRONTDESK_MAX_ID_CHARS: int(8, 512).default(128),
  FRONTDESK_HISTORY_TURNS: int(1, 100).default(6),
  FRONTDESK_SUMMARY_MAX_CHARS: int(100, 20_000).default(1_200),
  FRONTDESK_REPLAY_RECORDS: int(1, 1_000).default(20),
  FRONTDESK_MAX_RETRIEVAL_ROUNDS: int(1, 5).default(2),
  FRONTDESK_MAX_CLARIFY_STREAK: int(0, 5).default(2),
  FRONTDESK_MAX_REGENERATIONS: int(0, 3).default(1),
  FRONTDESK_MAX_MODEL_CALLS: int(1, 50).default(8),
  FRONTDESK_CORPUS_DIR: z.string().min(1).optional(),
  FRONTDESK_TOP_K: int(1, 50).default(6),
  FRONTDESK_CANDIDATES: int(1, 1_000).default(30),
  FRONTDESK_CONTEXT_WINDOW: int(0, 5).default(1),
  FRONTDESK_RRF_K: int(1, 1_000).default(60),
  FRONTDESK_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.45),
  FRONTDESK_SUFFICIENT_SCORE: z.coerce.number().min(0).max(1).default(0.55),
  FRONTDESK_INSUFFICIENT_SCORE: z.coerce.number().min(0).max(1).default(0.25),
  FRONTDESK_AMBIGUITY_MARGIN: z.coerce.number().min(0).max(1).default(0.12),
  FRONTDESK_MAX_CLARIFY_OPTIONS: int(2, 10).default(4),
  FRONTDESK_CHECKPOINTER: z.enum(["file", "memory", "postgres"]).optional(),
  FRONTDESK_DATA_DIR: z.string().min(1).default(".frontdesk"),
  DATABASE_URL: z.string().min(1).optional(),
  FRONTDESK_DB_MIGRATE_ON_START: bool.default(true),
  FRONTDESK_DB_POOL_MAX: int(1, 1_000).default(10),
  FRONTDESK_DB_LOCK_CONNECTIONS: int(1, 10_000).default(32),
  FRONTDESK_DB_CONNECT_TIMEOUT_MS: int(100, 600_000).default(3_000),
  FRONTDESK_DB_STATEMENT_TIMEOUT_MS: int(100, 3_600_000).default(10_000),
  FRONTDESK_THREAD_TTL_HOURS: z.coerce.number().min(0).max(87_600).default(720),
  FRONTDESK_THREAD_SWEEP_INTERVAL_S: int(1, 604_800).default(3_600),
  FRONTDESK_WATCH_PAYLOAD_RETENTION_S: int(10, 604_800).default(600),
  FRONTDESK_WATCH_BUFFER_EVENTS: int(1, 1_000_000).default(256),
  FRONTDESK_WATCH_MAX_WATCHERS: int(1, 1_000_000).default(1_000),
  FRONTDESK_WATCH_PUBLISH_QUEUE: int(1, 1_000_000).default(10_000),
  FRONTDESK_MODEL_PROVIDER: z.enum(["offline", "gemini"]).optional(),
  GOOGLE_API_KEY: z.string().min(1).optional(),
  FRONTDESK_CLARIFY_WITH_MODEL: bool.default(false),
  FRONTDESK_GEMINI_BASE_URL: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//u.test(u), "must be an http(s) URL")
    .transform((u) => u.replace(/\/+$/u, ""))
    .optional(),
  FRONTDESK_MODEL_TIMEOUT_MS: int(100, 600_000).default(15_000),
  FRONTDESK_HANDOFF_RESERVE_MS: int(0, 60_000).optional(),
  FRONTDESK_MODEL_RETRY_ATTEMPTS: int(1, 10).default(3),
  FRONTDESK_MODEL_RETRY_INITIAL_MS: int(0, 60_000).default(500),
  FRONTDESK_MODEL_RETRY_MAX_MS: int(0, 120_000).default(4_000),
  FRONTDESK_CONFIG_DIR: z.string().min(1).optional(),
  FRONTDESK_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

/** Environment variables frontdesk reads, for documentation and `frontdesk serve --help`. */
export const ENV_VARS = Object.keys(EnvSchema.shape);

function parseApiKeys(raw: string | undefined): ApiKeyBinding[] {
  if (raw === undefined || raw.trim() === "") return [];
  const bindings: ApiKeyBinding[] = [];
  for (const entry of raw.split(",")) {
    const trimmed = entry.trim();
    if (trimmed === "") continue;
    const sep = trimmed.indexOf(":");
    const tenantId = sep > 0 ? trimmed.slice(0, sep) : "";
    const key = sep > 0 ? trimmed.slice(sep + 1) : "";
    if (!TENANT_ID.test(tenantId) || key.length < 16) {
      // Never echo the key itself: the message may end up in logs.
      throw new ConfigError(
        `FRONTDESK_API_KEYS: entry ${bindings.length + 1} must be "tenant:key" with a tenant of [A-Za-z0-9._-] and a key of at least 16 characters`,
      );
    }
    bindings.push({ tenantId, key });
  }
  const keys = new Set(bindings.map((b) => b.key));
  if (keys.size !== bindings.length) throw new ConfigError("FRONTDESK_API_KEYS: the same key is bound twice");
  return bindings;
}

export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1";
  return false;
}

/**
 * The config bundle's directory: FRONTDESK_CONFIG_DIR (relative to `cwd`), or the bundle shipped
 * in the package. On its own for `frontdesk config validate`, which checks the bundle in use
 * whatever else the environment holds.
 */
export function resolveBundleDir(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): string {
  const dir = env["FRONTDESK_CONFIG_DIR"];
  return dir !== undefined && dir !== "" ? path.resolve(cwd, dir) : path.join(PACKAGE_ROOT, "bundle");
}

/**
 * Builds the configuration from environment variables (and CLI overrides, which use the same
 * names). Reports every invalid variable at once, by name.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  if ((e.FRONTDESK_TLS_CERT === undefined) !== (e.FRONTDESK_TLS_KEY === undefined)) {
    throw new ConfigError("FRONTDESK_TLS_CERT and FRONTDESK_TLS_KEY must be set together");
  }
  const checkpointer: CheckpointerKind = e.FRONTDESK_CHECKPOINTER ?? (e.DATABASE_URL !== undefined ? "postgres" : "file");
  if (checkpointer === "postgres" && e.DATABASE_URL === undefined) {
    throw new ConfigError("FRONTDESK_CHECKPOINTER=postgres needs DATABASE_URL");
  }
  const provider: ModelProviderKind = e.FRONTDESK_MODEL_PROVIDER ?? (e.GOOGLE_API_KEY !== undefined ? "gemini" : "offline");
  if (provider === "gemini" && e.GOOGLE_API_KEY === undefined) {
    throw new ConfigError("FRONTDESK_MODEL_PROVIDER=gemini needs GOOGLE_API_KEY");
  }
  const handoffReserveMs = e.FRONTDESK_HANDOFF_RESERVE_MS ?? Math.min(1_000, Math.floor(e.FRONTDESK_TURN_TIMEOUT_MS / 10));
  if (handoffReserveMs >= e.FRONTDESK_TURN_TIMEOUT_MS) {
    throw new ConfigError("FRONTDESK_HANDOFF_RESERVE_MS must be shorter than FRONTDESK_TURN_TIMEOUT_MS");
  }
  const resolve = (p: string) => path.resolve(cwd, p);
  return {
    server: {
      host: e.FRONTDESK_HOST,
      port: e.FRONTDESK_PORT,
      allowPublicBind: e.FRONTDESK_ALLOW_PUBLIC_BIND,
      tls:
        e.FRONTDESK_TLS_CERT !== undefined && e.FRONTDESK_TLS_KEY !== undefined
          ? { certFile: resolve(e.FRONTDESK_TLS_CERT), keyFile: resolve(e.FRONTDESK_TLS_KEY) }
          : null,
      turnTimeoutMs: e.FRONTDESK_TURN_TIMEOUT_MS,
      shutdownGraceMs: e.FRONTDESK_SHUTDOWN_GRACE_MS,
    },
    auth: { apiKeys: parseApiKeys(e.FRONTDESK_API_KEYS), defaultTenant: e.FRONTDESK_DEFAULT_TENANT },
    limits: {
      maxTextChars: e.FRONTDESK_MAX_TEXT_CHARS,
      maxIdChars: e.FRONTDESK_MAX_ID_CHARS,
      historyTurns: e.FRONTDESK_HISTORY_TURNS,
      summaryMaxChars: e.FRONTDESK_SUMMARY_MAX_CHARS,
      replayRecords: e.FRONTDESK_REPLAY_RECORDS,
    },
    budgets: {
      retrievalRounds: e.FRONTDESK_MAX_RETRIEVAL_ROUNDS,
      clarifyStreak: e.FRONTDESK_MAX_CLARIFY_STREAK,
      regenerations: e.FRONTDESK_MAX_REGENERATIONS,
      modelCalls: e.FRONTDESK_MAX_MODEL_CALLS,
    },
    retrieval: {
      corpusDir: e.FRONTDESK_CORPUS_DIR !== undefined ? resolve(e.FRONTDESK_CORPUS_DIR) : path.join(PACKAGE_ROOT, "data/corpus"),
      topK: e.FRONTDESK_TOP_K,
      candidates: e.FRONTDESK_CANDIDATES,
      contextWindow: e.FRONTDESK_CONTEXT_WINDOW,
      rrfK: e.FRONTDESK_RRF_K,
    },
    grading: {
      minConfidence: e.FRONTDESK_MIN_CONFIDENCE,
      sufficientScore: e.FRONTDESK_SUFFICIENT_SCORE,
      insufficientScore: e.FRONTDESK_INSUFFICIENT_SCORE,
      ambiguityMargin: e.FRONTDESK_AMBIGUITY_MARGIN,
      maxClarifyOptions: e.FRONTDESK_MAX_CLARIFY_OPTIONS,
    },
    persistence: {
      checkpointer,
      dataDir: resolve(e.FRONTDESK_DATA_DIR),
      databaseUrl: e.DATABASE_URL ?? null,
      postgres: {
        migrateOnStart: e.FRONTDESK_DB_MIGRATE_ON_START,
        poolMax: e.FRONTDESK_DB_POOL_MAX,
        lockConnections: e.FRONTDESK_DB_LOCK_CONNECTIONS,
        connectTimeoutMs: e.FRONTDESK_DB_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: e.FRONTDESK_DB_STATEMENT_TIMEOUT_MS,
        threadTtlHours: e.FRONTDESK_THREAD_TTL_HOURS,
        sweepIntervalSeconds: e.FRONTDESK_THREAD_SWEEP_INTERVAL_S,
        payloadRetentionSeconds: e.FRONTDESK_WATCH_PAYLOAD_RETENTION_S,
      },
    },
    watch: { bufferEvents: e.FRONTDESK_WATCH_BUFFER_EVENTS, maxWatchers: e.FRONTDESK_WATCH_MAX_WATCHERS, publishQueue: e.FRONTDESK_WATCH_PUBLISH_QUEUE },
    models: {
      provider,
      googleApiKey: e.GOOGLE_API_KEY ?? null,
      geminiBaseUrl: e.FRONTDESK_GEMINI_BASE_URL ?? null,
      clarifyWithModel: e.FRONTDESK_CLARIFY_WITH_MODEL,
      timeoutMs: e.FRONTDESK_MODEL_TIMEOUT_MS,
      handoffReserveMs,
      retry: {
        maxAttempts: e.FRONTDESK_MODEL_RETRY_ATTEMPTS,
        initialDelayMs: e.FRONTDESK_MODEL_RETRY_INITIAL_MS,
        maxDelayMs: e.FRONTDESK_MODEL_RETRY_MAX_MS,
        jitter: 0.25,
      },
    },
    bundleDir: resolveBundleDir(env, cwd),
    logLevel: e.FRONTDESK_LOG_LEVEL,
  };
}
