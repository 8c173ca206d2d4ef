import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { EnvSchema, TENANT_ID, type Env } from "./registry.js";
import type {
  ApiKeyBinding,
  CheckpointerKind,
  Config,
  DocumentStoreConfig,
  EmbeddingConfig,
  ModelProviderKind,
  RerankerConfig,
  RetrieverBackendConfig,
  TelemetryConfig,
} from "./types.js";

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

export type {
  ApiKeyBinding,
  CheckpointerKind,
  Config,
  DocumentStoreConfig,
  EmbeddingConfig,
  ModelProviderKind,
  PostgresSettings,
  RerankerConfig,
  RetrieverBackendConfig,
  TelemetryConfig,
} from "./types.js";
export { ENV_VARS } from "./registry.js";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

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
      throw new ConfigError(`FRONTDESK_API_KEYS: entry ${bindings.length + 1} must be "tenant:key" with a tenant of [A-Za-z0-9._-] and a key of at least 16 characters`);
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
 * names). Reports every invalid variable at once, by name. Each variable's range and default come
 * from the settings registry (registry.ts); what is decided here are the rules between variables
 * and the defaults that depend on another one (the registry's `derivedDefault` states them in words).
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
  if (e.FRONTDESK_MAX_CHUNK_CHARS < e.FRONTDESK_CHUNK_CHARS) {
    throw new ConfigError("FRONTDESK_MAX_CHUNK_CHARS must be at least FRONTDESK_CHUNK_CHARS");
  }
  return {
    server: {
      host: e.FRONTDESK_HOST,
      port: e.FRONTDESK_PORT,
      allowPublicBind: e.FRONTDESK_ALLOW_PUBLIC_BIND,
      tls: e.FRONTDESK_TLS_CERT !== undefined && e.FRONTDESK_TLS_KEY !== undefined ? { certFile: resolve(e.FRONTDESK_TLS_CERT), keyFile: resolve(e.FRONTDESK_TLS_KEY) } : null,
      turnTimeoutMs: e.FRONTDESK_TURN_TIMEOUT_MS,
      shutdownGraceMs: e.FRONTDESK_SHUTDOWN_GRACE_MS,
      idleTimeoutMs: e.FRONTDESK_IDLE_TIMEOUT_MS,
      readiness: { cacheMs: e.FRONTDESK_READY_CACHE_MS, timeoutMs: e.FRONTDESK_READY_TIMEOUT_MS },
      corsOrigins: [
        ...new Set(
          (e.FRONTDESK_CORS_ORIGINS ?? "")
            .split(",")
            .map((o) => o.trim().toLowerCase())
            .filter((o) => o !== ""),
        ),
      ],
      corsMaxAgeS: e.FRONTDESK_CORS_MAX_AGE_S,
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
      lexiconFile:
        e.FRONTDESK_LEXICON_FILE === undefined
          ? path.join(PACKAGE_ROOT, "data/lexicon/insurance-concepts.tsv")
          : e.FRONTDESK_LEXICON_FILE === "none"
            ? null
            : resolve(e.FRONTDESK_LEXICON_FILE),
      topK: e.FRONTDESK_TOP_K,
      candidates: e.FRONTDESK_CANDIDATES,
      contextWindow: e.FRONTDESK_CONTEXT_WINDOW,
      rrfK: e.FRONTDESK_RRF_K,
      productDiversity: { slots: e.FRONTDESK_PRODUCT_DIVERSITY_SLOTS, share: e.FRONTDESK_PRODUCT_DIVERSITY_SHARE },
      backend,
      loadCorpus: e.FRONTDESK_LOAD_CORPUS ?? backend.kind === "embedded",
      corpusSkipInvalid: e.FRONTDESK_CORPUS_SKIP_INVALID,
      tableContextRows: e.FRONTDESK_TABLE_CONTEXT_ROWS,
      chunkChars: e.FRONTDESK_CHUNK_CHARS,
    },
    embedding: embeddingConfig(e),
    reranker: rerankerConfig(e),
    ingest: {
      maxChunkChars: e.FRONTDESK_MAX_CHUNK_CHARS,
      maxDocumentChars: e.FRONTDESK_MAX_DOCUMENT_CHARS,
      maxFileBytes: e.FRONTDESK_MAX_FILE_BYTES,
      maxTableRows: e.FRONTDESK_MAX_TABLE_ROWS,
      maxUnits: e.FRONTDESK_MAX_UNITS,
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
      outOfScopeCoverage: e.FRONTDESK_OUT_OF_SCOPE_COVERAGE,
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
      circuit: { failures: e.FRONTDESK_MODEL_CIRCUIT_FAILURES, openMs: e.FRONTDESK_MODEL_CIRCUIT_OPEN_MS },
    },
    bundleDir: resolveBundleDir(env, cwd),
    logLevel: e.FRONTDESK_LOG_LEVEL,
    telemetry: telemetryConfig(e),
  };
}

/** `host:port` (IPv6 in brackets) as the listener's host and port; the registry checked the form. */
function listenAddress(address: string): { host: string; port: number } {
  const sep = address.lastIndexOf(":");
  return { host: address.slice(0, sep).replace(/^\[(.*)\]$/u, "$1"), port: Number(address.slice(sep + 1)) };
}

/** `key=value,key2=value2` (OTLP's header format; values may be percent-encoded). */
function parseHeaderList(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const sep = pair.indexOf("=");
    if (sep <= 0) continue;
    const value = pair.slice(sep + 1).trim();
    try {
      headers[pair.slice(0, sep).trim()] = decodeURIComponent(value);
    } catch {
      throw new ConfigError("OTEL_EXPORTER_OTLP_HEADERS: a value is not valid percent-encoding");
    }
  }
  return headers;
}

function telemetryConfig(e: Env): TelemetryConfig {
  const langsmithOn = e.LANGSMITH_TRACING || e.LANGCHAIN_TRACING_V2 === true;
  if (langsmithOn && e.LANGSMITH_API_KEY === undefined) {
    throw new ConfigError("LANGSMITH_TRACING (or LANGCHAIN_TRACING_V2) needs LANGSMITH_API_KEY");
  }
  return {
    metrics: e.FRONTDESK_METRICS_ADDR === undefined ? null : { ...listenAddress(e.FRONTDESK_METRICS_ADDR), path: e.FRONTDESK_METRICS_PATH },
    otlp: e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? null : { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, headers: parseHeaderList(e.OTEL_EXPORTER_OTLP_HEADERS) },
    serviceName: e.OTEL_SERVICE_NAME,
    langsmith: langsmithOn && e.LANGSMITH_API_KEY !== undefined ? { apiKey: e.LANGSMITH_API_KEY, endpoint: e.LANGSMITH_ENDPOINT, project: e.LANGSMITH_PROJECT } : null,
  };
}

function retrieverBackend(kind: "embedded" | "qdrant", e: Env, checkpointer: CheckpointerKind): RetrieverBackendConfig {
  switch (kind) {
    case "embedded":
      return { kind, documentStore: documentStore(e, checkpointer) };
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

function documentStore(e: Env, checkpointer: CheckpointerKind): DocumentStoreConfig {
  const kind = e.FRONTDESK_DOCUMENT_STORE ?? checkpointer;
  switch (kind) {
    case "file":
    case "memory":
      return { kind };
    case "postgres":
      if (e.DATABASE_URL === undefined) throw new ConfigError("FRONTDESK_DOCUMENT_STORE=postgres needs DATABASE_URL");
      return { kind, databaseUrl: e.DATABASE_URL, pollMs: e.FRONTDESK_DOCUMENT_POLL_MS };
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown document store ${String(unreachable)}`);
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
