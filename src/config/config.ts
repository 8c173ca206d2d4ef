import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";

/**
 * The package root: defaults for bundled data (corpus, config bundle) resolve against it. The
 * nearest directory above this file that holds package.json, so the same code finds it from
 * src/config (tests, tools) and from dist/src/config (the compiled service).
 */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "../..");
  }
}

export type CheckpointerKind = "file" | "memory" | "postgres";
export type ModelProviderKind = "offline" | "gemini";

/** Where chunks are indexed and searched. */
export type RetrieverBackendConfig =
  | {
      kind: "embedded";
      /**
       * FRONTDESK_DOCUMENT_STORE: where ingested documents are kept so they are indexed again after a
       * restart. file (default): the frontdesk.sqlite file in the data directory; memory (default when
       * FRONTDESK_CHECKPOINTER=memory): nothing is written to disk.
       */
      documentStore: "file" | "memory";
    }
  | {
      kind: "qdrant";
      /** QDRANT_URL, e.g. http://127.0.0.1:6333. */
      url: string;
      /** QDRANT_API_KEY; sent as the api-key header. */
      apiKey: string | null;
      /** FRONTDESK_QDRANT_COLLECTION, default "frontdesk_chunks". */
      collection: string;
      /** FRONTDESK_QDRANT_TIMEOUT_MS, default 10000: one Qdrant request. */
      timeoutMs: number;
      /** FRONTDESK_QDRANT_UPSERT_POINTS, default 128: points per upsert request. */
      upsertPoints: number;
      /**
       * FRONTDESK_QDRANT_SPARSE_AVG_LENGTH, default 60: BM25's average chunk length (analyzer terms)
       * used to weight sparse vectors. Qdrant applies the IDF; the length normalisation is ours, and a
       * shared collection cannot know its average before it is filled, so it is a fixed, recorded value.
       */
      sparseAverageLength: number;
    };

/** How chunk and query texts become dense vectors. */
export type EmbeddingConfig =
  | {
      kind: "local";
      /** FRONTDESK_EMBEDDING_DIMENSION, default 384. */
      dimension: number;
    }
  | {
      kind: "gemini";
      /** GOOGLE_API_KEY. */
      apiKey: string;
      /** FRONTDESK_EMBEDDING_MODEL, default "gemini-embedding-001". */
      model: string;
      /** FRONTDESK_EMBEDDING_DIMENSION, default 768 (the model's output dimensionality). */
      dimension: number;
      /** FRONTDESK_EMBEDDING_BATCH_SIZE, default 100 (the API's maximum per batch request). */
      batchSize: number;
    };

/** Scores the fused candidates; its score is the final relevance score. */
export type RerankerConfig =
  | { kind: "lexical" }
  | {
      kind: "http";
      /** FRONTDESK_RERANKER_URL: the service's base URL; requests go to <url>/rerank. */
      url: string;
      /** FRONTDESK_RERANKER_PROTOCOL: tei (default: text-embeddings-inference) or jina (Jina/Cohere-style). */
      protocol: "tei" | "jina";
      /** FRONTDESK_RERANKER_MODEL: sent as "model" (jina protocol; required by hosted services). */
      model: string | null;
      /** FRONTDESK_RERANKER_API_KEY: sent as a Bearer token. */
      apiKey: string | null;
      /** FRONTDESK_RERANKER_TIMEOUT_MS, default 5000: one rerank request. */
      timeoutMs: number;
      /** FRONTDESK_RERANKER_MAX_CHARS, default 2000: each candidate's text is cut to this before sending. */
      maxChars: number;
    };

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
    /** FRONTDESK_RETRIEVER: embedded (default) or qdrant (default when QDRANT_URL is set). */
    backend: RetrieverBackendConfig;
    /**
     * FRONTDESK_LOAD_CORPUS: index the corpus directory at start-up. Default true with the embedded
     * retriever (in memory, every start), false with Qdrant (ingest into the collection instead).
     */
    loadCorpus: boolean;
    /** FRONTDESK_CHUNK_CHARS, default 700: the chunker's target size of a chunk's text. */
    chunkChars: number;
    /** FRONTDESK_CHUNK_OVERLAP_CHARS, default 150: longest sentence repeated at the start of the next chunk. */
    chunkOverlapChars: number;
  };
  embedding: EmbeddingConfig;
  reranker: RerankerConfig;
  ingest: {
    /**
     * FRONTDESK_MAX_CHUNK_CHARS, default 1500: the most text embedded for one chunk (title, heading
     * path and text). A document that would need a longer chunk, or holds an unbroken run of
     * characters longer than FRONTDESK_CHUNK_CHARS, is rejected instead of being cut mid-token.
     */
    maxChunkChars: number;
    /** FRONTDESK_MAX_DOCUMENT_CHARS, default 200000: a document's body. */
    maxDocumentChars: number;
    /** FRONTDESK_INGEST_BATCH_DOCUMENTS, default 64: documents chunked and embedded together. */
    batchDocuments: number;
    /** FRONTDESK_UPSERT_MAX_DOCUMENTS, default 100: documents in one UpsertDocuments call. */
    maxUpsertDocuments: number;
    /** FRONTDESK_LIST_PAGE_SIZE, default 100: ListDocuments' page size when the caller names none (callers may ask for up to 1000). */
    listPageSize: number;
    /** FRONTDESK_MAX_SOURCE_CHARS, default 1024: a document's `source` (a path or URL). */
    maxSourceChars: number;
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
  FRONTDESK_RETRIEVER: z.enum(["embedded", "qdrant"]).optional(),
  FRONTDESK_DOCUMENT_STORE: z.enum(["file", "memory"]).optional(),
  FRONTDESK_LOAD_CORPUS: bool.optional(),
  FRONTDESK_CHUNK_CHARS: int(100, 20_000).default(700),
  FRONTDESK_CHUNK_OVERLAP_CHARS: int(0, 10_000).default(150),
  QDRANT_URL: z.string().url().optional(),
  QDRANT_API_KEY: z.string().min(1).optional(),
  FRONTDESK_QDRANT_COLLECTION: z.string().regex(/^[A-Za-z0-9_-]{1,255}$/u).default("frontdesk_chunks"),
  FRONTDESK_QDRANT_TIMEOUT_MS: int(100, 600_000).default(10_000),
  FRONTDESK_QDRANT_UPSERT_POINTS: int(1, 10_000).default(128),
  FRONTDESK_QDRANT_SPARSE_AVG_LENGTH: z.coerce.number().positive().max(100_000).default(60),
  FRONTDESK_EMBEDDER: z.enum(["local", "gemini"]).default("local"),
  FRONTDESK_EMBEDDING_MODEL: z.string().min(1).default("gemini-embedding-001"),
  FRONTDESK_EMBEDDING_DIMENSION: int(8, 8_192).optional(),
  FRONTDESK_EMBEDDING_BATCH_SIZE: int(1, 250).default(100),
  FRONTDESK_RERANKER: z.enum(["lexical", "http"]).default("lexical"),
  FRONTDESK_RERANKER_URL: z.string().url().optional(),
  FRONTDESK_RERANKER_PROTOCOL: z.enum(["tei", "jina"]).default("tei"),
  FRONTDESK_RERANKER_MODEL: z.string().min(1).optional(),
  FRONTDESK_RERANKER_API_KEY: z.string().min(1).optional(),
  FRONTDESK_RERANKER_TIMEOUT_MS: int(100, 600_000).default(5_000),
  FRONTDESK_RERANKER_MAX_CHARS: int(100, 100_000).default(2_000),
  FRONTDESK_MAX_CHUNK_CHARS: int(100, 100_000).default(1_500),
  FRONTDESK_MAX_DOCUMENT_CHARS: int(100, 10_000_000).default(200_000),
  FRONTDESK_INGEST_BATCH_DOCUMENTS: int(1, 10_000).default(64),
  FRONTDESK_UPSERT_MAX_DOCUMENTS: int(1, 10_000).default(100),
  FRONTDESK_LIST_PAGE_SIZE: int(1, 1_000).default(100),
  FRONTDESK_MAX_SOURCE_CHARS: int(16, 100_000).default(1_024),
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
  const retriever = e.FRONTDESK_RETRIEVER ?? (e.QDRANT_URL !== undefined ? "qdrant" : "embedded");
  const backend = retrieverBackend(retriever, e, checkpointer);
  if (e.FRONTDESK_CHUNK_OVERLAP_CHARS * 2 > e.FRONTDESK_CHUNK_CHARS) {
    throw new ConfigError("FRONTDESK_CHUNK_OVERLAP_CHARS must be at most half of FRONTDESK_CHUNK_CHARS");
  }
  if (e.FRONTDESK_MAX_CHUNK_CHARS < e.FRONTDESK_CHUNK_CHARS) {
    throw new ConfigError("FRONTDESK_MAX_CHUNK_CHARS must be at least FRONTDESK_CHUNK_CHARS");
  }
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
      backend,
      loadCorpus: e.FRONTDESK_LOAD_CORPUS ?? backend.kind === "embedded",
      chunkChars: e.FRONTDESK_CHUNK_CHARS,
      chunkOverlapChars: e.FRONTDESK_CHUNK_OVERLAP_CHARS,
    },
    embedding: embeddingConfig(e),
    reranker: rerankerConfig(e),
    ingest: {
      maxChunkChars: e.FRONTDESK_MAX_CHUNK_CHARS,
      maxDocumentChars: e.FRONTDESK_MAX_DOCUMENT_CHARS,
      batchDocuments: e.FRONTDESK_INGEST_BATCH_DOCUMENTS,
      maxUpsertDocuments: e.FRONTDESK_UPSERT_MAX_DOCUMENTS,
      listPageSize: e.FRONTDESK_LIST_PAGE_SIZE,
      maxSourceChars: e.FRONTDESK_MAX_SOURCE_CHARS,
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

type Env = z.infer<typeof EnvSchema>;

function retrieverBackend(kind: "embedded" | "qdrant", e: Env, checkpointer: CheckpointerKind): RetrieverBackendConfig {
  switch (kind) {
    case "embedded":
      return { kind, documentStore: e.FRONTDESK_DOCUMENT_STORE ?? (checkpointer === "memory" ? "memory" : "file") };
    case "qdrant":
      if (e.QDRANT_URL === undefined) throw new ConfigError("FRONTDESK_RETRIEVER=qdrant needs QDRANT_URL");
      return {
        kind,
        url: e.QDRANT_URL,
        apiKey: e.QDRANT_API_KEY ?? null,
        collection: e.FRONTDESK_QDRANT_COLLECTION,
        timeoutMs: e.FRONTDESK_QDRANT_TIMEOUT_MS,
        upsertPoints: e.FRONTDESK_QDRANT_UPSERT_POINTS,
        sparseAverageLength: e.FRONTDESK_QDRANT_SPARSE_AVG_LENGTH,
      };
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown retriever ${String(unreachable)}`);
    }
  }
}

function embeddingConfig(e: Env): EmbeddingConfig {
  const kind = e.FRONTDESK_EMBEDDER;
  switch (kind) {
    case "local":
      return { kind, dimension: e.FRONTDESK_EMBEDDING_DIMENSION ?? 384 };
    case "gemini":
      if (e.GOOGLE_API_KEY === undefined) throw new ConfigError("FRONTDESK_EMBEDDER=gemini needs GOOGLE_API_KEY");
      if (e.FRONTDESK_EMBEDDING_BATCH_SIZE > 100) throw new ConfigError("FRONTDESK_EMBEDDING_BATCH_SIZE: the Gemini API takes at most 100 texts per batch");
      return {
        kind,
        apiKey: e.GOOGLE_API_KEY,
        model: e.FRONTDESK_EMBEDDING_MODEL,
        dimension: e.FRONTDESK_EMBEDDING_DIMENSION ?? 768,
        batchSize: e.FRONTDESK_EMBEDDING_BATCH_SIZE,
      };
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown embedder ${String(unreachable)}`);
    }
  }
}

function rerankerConfig(e: Env): RerankerConfig {
  const kind = e.FRONTDESK_RERANKER;
  switch (kind) {
    case "lexical":
      return { kind };
    case "http":
      if (e.FRONTDESK_RERANKER_URL === undefined) throw new ConfigError("FRONTDESK_RERANKER=http needs FRONTDESK_RERANKER_URL");
      return {
        kind,
        url: e.FRONTDESK_RERANKER_URL,
        protocol: e.FRONTDESK_RERANKER_PROTOCOL,
        model: e.FRONTDESK_RERANKER_MODEL ?? null,
        apiKey: e.FRONTDESK_RERANKER_API_KEY ?? null,
        timeoutMs: e.FRONTDESK_RERANKER_TIMEOUT_MS,
        maxChars: e.FRONTDESK_RERANKER_MAX_CHARS,
      };
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown reranker ${String(unreachable)}`);
    }
  }
}
