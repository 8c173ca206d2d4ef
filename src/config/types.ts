export type CheckpointerKind = "file" | "memory" | "postgres";
export type ModelProviderKind = "offline" | "gemini";

/*
 * The configuration's shape (imported through config.ts). What each field means, its range and default are stated once, in the
 * settings registry (registry.ts), under the variable loadConfig reads it from; the comments here
 * only add what the loader derives or why a value is what it is.
 */

/**
 * Where the embedded index keeps ingested documents. file: the frontdesk.sqlite file in the data
 * directory; memory: nowhere; postgres: frontdesk_documents, shared by every replica, whose index
 * follows it (notified, and polling every pollMs in case a notification was lost).
 */
export type DocumentStoreConfig = { kind: "file" } | { kind: "memory" } | { kind: "postgres"; databaseUrl: string; pollMs: number };

/** Where chunks are indexed and searched. */
export type RetrieverBackendConfig =
  | {
      kind: "embedded";
      documentStore: DocumentStoreConfig;
    }
  | {
      kind: "qdrant";
      url: string;
      apiKey: string | null;
      collection: string;
      timeoutMs: number;
      upsertPoints: number;
      /**
       * BM25's average chunk length (analyzer terms) used to weight sparse vectors. Qdrant applies
       * the IDF; the length normalisation is ours, and a shared collection cannot know its average
       * before it is filled, so it is a fixed, recorded value.
       */
      sparseAverageLength: number;
    };

/** How chunk and query texts become dense vectors. */
export type EmbeddingConfig =
  | { kind: "local"; dimension: number }
  | {
      kind: "gemini";
      apiKey: string;
      model: string;
      /** The model's output dimensionality. */
      dimension: number;
      batchSize: number;
    };

/** Scores the fused candidates; its score is the final relevance score. */
export type RerankerConfig =
  | { kind: "lexical" }
  | {
      kind: "http";
      /** Requests go to <url>/rerank. */
      url: string;
      protocol: "tei" | "jina";
      model: string | null;
      apiKey: string | null;
      timeoutMs: number;
      maxChars: number;
    };

export interface ApiKeyBinding {
  key: string;
  tenantId: string;
}

/**
 * The one validated configuration object. Every limit is a named value here; nothing below
 * src/config reads process.env. Paths are absolute (resolved against the working directory).
 */
export interface Config {
  server: {
    host: string;
    port: number;
    /** Without API keys, a non-loopback host is refused unless this is true. */
    allowPublicBind: boolean;
    /** h2c when null. */
    tls: { certFile: string; keyFile: string } | null;
    turnTimeoutMs: number;
    shutdownGraceMs: number;
    /**
     * 2 minutes by default: longer than the idle timeouts of the proxies usually in front (60 s
     * for an AWS ALB, 75 s for nginx), so a proxy closes its idle upstream connections before the
     * server does and never races a GOAWAY; short enough that thousands of abandoned connections
     * are reclaimed within minutes.
     */
    idleTimeoutMs: number;
    /** The probes behind grpc.health.v1 and /readyz. */
    readiness: { cacheMs: number; timeoutMs: number };
    /** Browser origins answered with CORS headers (lower-case, no trailing slash; "*" any); empty: none. */
    corsOrigins: readonly string[];
    corsMaxAgeS: number;
  };
  auth: {
    /** Empty: one default tenant, loopback only. */
    apiKeys: ApiKeyBinding[];
    defaultTenant: string;
  };
  limits: {
    maxTextChars: number;
    /** thread_id, user_id, request_id. */
    maxIdChars: number;
    historyTurns: number;
    summaryMaxChars: number;
    replayRecords: number;
  };
  /** A turn's budgets (ADR). */
  budgets: {
    retrievalRounds: number;
    clarifyStreak: number;
    regenerations: number;
    modelCalls: number;
  };
  retrieval: {
    corpusDir: string;
    /** The concept lexicon's file, or null when turned off (FRONTDESK_LEXICON_FILE=none). */
    lexiconFile: string | null;
    topK: number;
    candidates: number;
    contextWindow: number;
    rrfK: number;
    /** Places of the kept chunks given to products the best ones missed, and the share of the best score they need. */
    productDiversity: { slots: number; share: number };
    backend: RetrieverBackendConfig;
    /** Embedded: the corpus is indexed in memory at every start; Qdrant: ingest into the collection instead. */
    loadCorpus: boolean;
    /** Start-up corpus documents that cannot be loaded are logged and skipped instead of stopping start-up. */
    corpusSkipInvalid: boolean;
    /** Other rows of its table returned with a table-row hit. */
    tableContextRows: number;
    /** The longest unit text; longer units are split. */
    chunkChars: number;
  };
  embedding: EmbeddingConfig;
  reranker: RerankerConfig;
  ingest: {
    /**
     * A document that would need a longer chunk, or holds an unbroken run of characters longer
     * than chunkChars, is rejected instead of being cut mid-token.
     */
    maxChunkChars: number;
    maxDocumentChars: number;
    /** Largest document file (and UpsertDocuments content), checked before parsing. */
    maxFileBytes: number;
    /** Rows kept per table. */
    maxTableRows: number;
    /** Chunks kept per document. */
    maxUnits: number;
    batchDocuments: number;
    maxUpsertDocuments: number;
    /** When the caller names none; callers may ask for up to 1000. */
    listPageSize: number;
    maxSourceChars: number;
  };
  grading: {
    /** ADR trigger 4. */
    minConfidence: number;
    sufficientScore: number;
    insufficientScore: number;
    ambiguityMargin: number;
    outOfScopeCoverage: number;
    maxClarifyOptions: number;
  };
  persistence: {
    checkpointer: CheckpointerKind;
    /** The local checkpoint file and the document store live here. */
    dataDir: string;
    databaseUrl: string | null;
    /** Used when checkpointer is postgres. */
    postgres: PostgresSettings;
  };
  /** Watchers of running turns (WatchThread / WatchTenant). */
  watch: {
    bufferEvents: number;
    maxWatchers: number;
    publishQueue: number;
  };
  models: {
    provider: ModelProviderKind;
    googleApiKey: string | null;
    /** Null: Google's public endpoint (https://generativelanguage.googleapis.com). */
    geminiBaseUrl: string | null;
    /** False: clarify wording from the bundle's copy, no model call. */
    clarifyWithModel: boolean;
    timeoutMs: number;
    /**
     * The end of a turn's deadline kept for handing off: model calls and their retries stop this
     * long before the deadline, so that a model that hangs ends in an escalation
     * (dependency_failure) rather than DEADLINE_EXCEEDED. Always shorter than the turn timeout.
     */
    handoffReserveMs: number;
    /** jitter is fixed at 0.25. */
    retry: { maxAttempts: number; initialDelayMs: number; maxDelayMs: number; jitter: number };
    /** The provider's circuit (src/models/circuit.ts): consecutive failures that open it, and for how long. */
    circuit: { failures: number; openMs: number };
  };
  bundleDir: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  telemetry: TelemetryConfig;
}

/** Metrics, traces and LangSmith (README, "Operating frontdesk"). */
export interface TelemetryConfig {
  /** The Prometheus listener; null: none. */
  metrics: { host: string; port: number; path: string } | null;
  /** OTLP/HTTP export of spans; null: spans are neither recorded nor sent. */
  otlp: { endpoint: string; headers: Record<string, string> } | null;
  serviceName: string;
  /** LangChain tracing of graph runs to LangSmith; null: off. */
  langsmith: { apiKey: string; endpoint: string; project: string } | null;
}

export interface PostgresSettings {
  /** When false, a missing schema stops the start. */
  migrateOnStart: boolean;
  poolMax: number;
  /** Each running turn holds one connection for its thread lock. */
  lockConnections: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** 0 keeps threads forever. */
  threadTtlHours: number;
  sweepIntervalSeconds: number;
  /** Watch events over NOTIFY's 8000-byte limit are kept this long for other processes to fetch. */
  payloadRetentionSeconds: number;
}
