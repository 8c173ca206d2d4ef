import { z } from "zod";

/**
 * Every environment variable frontdesk reads, each stated once: its zod schema (type, range,
 * default) and a one-line description. The validation in loadConfig (config.ts), `ENV_VARS`
 * (`frontdesk serve --help`) and the README's configuration tables (docs.ts, `npm run docs:config`)
 * all come from here; test/docs/readme.test.ts fails when the README differs from this file.
 *
 * Adding a setting:
 *   1. Add one entry to the table it belongs to below, where a reader of the README looks for it:
 *      `NAME: { schema: int(1, 100).default(10), description: "what it bounds, in one line" }`.
 *      The schema ends in `.default(value)` (the README shows the value), or in `.optional()` when
 *      unset means "none" or the loader derives the value; then `derivedDefault` says in words
 *      (markdown) what it is, e.g. "`384` local, `768` gemini". Never both: the types refuse it.
 *   2. Read it in loadConfig (config.ts) into the Config field that carries it: `e.NAME` is typed
 *      from the schema, already validated and defaulted.
 *   3. Run `npm run docs:config` to rewrite the README tables.
 * Rules between settings (one needs another, one at most half of another) go in loadConfig, with
 * a ConfigError naming the variables.
 */

/** The README tables the settings are shown in; each has markers `<!-- config:begin NAME -->` … `<!-- config:end NAME -->`. */
export type ReadmeTable = keyof typeof README_TABLES;

export type Setting =
  | {
      /** Validated and defaulted by zod; the default is shown as it is. */
      schema: z.ZodDefault;
      /** One line of markdown for the README (no `|`, no line break). */
      description: string;
      derivedDefault?: never;
    }
  | {
      schema: z.ZodOptional;
      description: string;
      /** Markdown for the README's default column when loadConfig derives the value; absent: *(none)*. */
      derivedDefault?: string;
    };

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

export const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u;

/** README, "Configuration": the service, its limits and budgets, grading, persistence, models. */
const SERVICE = {
  // Server and authentication
  FRONTDESK_HOST: { schema: z.string().min(1).default("127.0.0.1"), description: "listen address" },
  FRONTDESK_PORT: { schema: int(0, 65535).default(8080), description: "listen port (`0` picks a free one)" },
  FRONTDESK_API_KEYS: {
    schema: z.string().optional(),
    description: "`tenant:key,tenant2:key2` (keys ≥ 16 chars). Without keys: one tenant (`FRONTDESK_DEFAULT_TENANT`), loopback only",
  },
  FRONTDESK_ALLOW_PUBLIC_BIND: { schema: bool.default(false), description: "allow a non-loopback host without API keys" },
  FRONTDESK_DEFAULT_TENANT: { schema: z.string().regex(TENANT_ID).default("default"), description: "the tenant when no keys are configured" },
  FRONTDESK_TLS_CERT: { schema: z.string().min(1).optional(), description: "PEM certificate file; serve TLS instead of h2c (set together with `FRONTDESK_TLS_KEY`)" },
  FRONTDESK_TLS_KEY: { schema: z.string().min(1).optional(), description: "PEM private key file of `FRONTDESK_TLS_CERT`" },
  FRONTDESK_TURN_TIMEOUT_MS: { schema: int(100, 600_000).default(30_000), description: "server-side deadline of one turn" },
  FRONTDESK_SHUTDOWN_GRACE_MS: {
    schema: int(0, 120_000).default(5_000),
    description: "time running turns get on shutdown; then they are aborted (`UNAVAILABLE`) and the process exits, even if a model call ignores its abort",
  },
  FRONTDESK_IDLE_TIMEOUT_MS: {
    schema: int(100, 86_400_000).default(120_000),
    description:
      "a connection with no running call is closed after this long (pings do not count); a request whose body stalls this long is cut; a busy connection is pinged this often and closed if the peer does not answer",
  },

  // Limits of a request and of a thread's state
  FRONTDESK_MAX_TEXT_CHARS: { schema: int(1, 100_000).default(4_000), description: "longest user message" },
  FRONTDESK_MAX_ID_CHARS: { schema: int(8, 512).default(128), description: "longest `thread_id` / `user_id` / `request_id`" },
  FRONTDESK_HISTORY_TURNS: { schema: int(1, 100).default(6), description: "turns kept verbatim in a thread; older ones are folded into a summary" },
  FRONTDESK_SUMMARY_MAX_CHARS: { schema: int(100, 20_000).default(1_200), description: "bound of the running summary of older turns" },
  FRONTDESK_REPLAY_RECORDS: { schema: int(1, 1_000).default(20), description: "completed turns remembered per thread for `request_id` replay" },

  // Budgets of one turn (ADR)
  FRONTDESK_MAX_RETRIEVAL_ROUNDS: { schema: int(1, 5).default(2), description: "retrieval rounds per turn" },
  FRONTDESK_MAX_CLARIFY_STREAK: { schema: int(0, 5).default(2), description: "consecutive clarifying questions before escalating" },
  FRONTDESK_MAX_REGENERATIONS: { schema: int(0, 3).default(1), description: "regenerations after a failed verification" },
  FRONTDESK_MAX_MODEL_CALLS: { schema: int(1, 50).default(8), description: "model calls per turn" },

  // Retrieval
  FRONTDESK_CORPUS_DIR: {
    schema: z.string().min(1).optional(),
    derivedDefault: "`data/corpus`",
    description: "documents loaded at start-up (into every configured tenant): .md, .markdown, .txt, .html, .htm, .docx, .pdf, with `<file>.metadata.json` sidecars",
  },
  FRONTDESK_LEXICON_FILE: {
    schema: z.string().min(1).optional(),
    derivedDefault: "`data/lexicon/insurance-concepts.tsv`",
    description:
      "concept lexicon (words of both languages grouped by meaning) that retrieval and the reader match through; `none` turns it off. Re-ingest Qdrant collections after changing it",
  },
  FRONTDESK_CORPUS_SKIP_INVALID: {
    schema: bool.default(false),
    description: "`true`: serve the start-up corpus without the documents that cannot be loaded (each logged with its path and reason); `false`: they stop start-up, all listed",
  },
  FRONTDESK_TOP_K: { schema: int(1, 50).default(6), description: "chunks kept after reranking" },
  FRONTDESK_CANDIDATES: { schema: int(1, 1_000).default(30), description: "candidates per retrieval stage" },
  FRONTDESK_CONTEXT_WINDOW: { schema: int(0, 5).default(1), description: "neighbouring chunks added on each side of a hit that is not a table row" },
  FRONTDESK_TABLE_CONTEXT_ROWS: {
    schema: int(0, 1_000).default(40),
    description: "other rows of its table added to a table-row hit (the nearest ones), so a reader sees the table",
  },
  FRONTDESK_RRF_K: { schema: int(1, 1_000).default(60), description: "reciprocal-rank fusion constant" },
  FRONTDESK_PRODUCT_DIVERSITY_SLOTS: {
    schema: int(0, 50).default(1),
    description: "last places of the kept chunks given to the best chunk of a product the others missed (a question several products answer sees more than one)",
  },
  FRONTDESK_PRODUCT_DIVERSITY_SHARE: {
    schema: z.coerce.number().min(0).max(1).default(0.9),
    description: "how close to the best score such a chunk must be, as a share of it",
  },

  // Grading of retrieval and of a drafted answer
  FRONTDESK_MIN_CONFIDENCE: { schema: z.coerce.number().min(0).max(1).default(0.45), description: "below it a drafted answer escalates" },
  FRONTDESK_SUFFICIENT_SCORE: {
    schema: z.coerce.number().min(0).max(1).default(0.55),
    description: "best retrieval score that is sufficient without asking a model",
  },
  FRONTDESK_INSUFFICIENT_SCORE: {
    schema: z.coerce.number().min(0).max(1).default(0.25),
    description: "below it retrieval is insufficient without asking a model",
  },
  FRONTDESK_OUT_OF_SCOPE_COVERAGE: {
    schema: z.coerce.number().min(0).max(1).default(0.7),
    description:
      "share of the question the reader's answer must cover to answer a message the gate classifier alone read as out of scope (when the triage model settled it, any answering reading does)",
  },
  FRONTDESK_AMBIGUITY_MARGIN: { schema: z.coerce.number().min(0).max(1).default(0.12), description: "results this close to the best count as equally good" },
  FRONTDESK_MAX_CLARIFY_OPTIONS: { schema: int(2, 10).default(4), description: "options in a clarifying question" },

  // Persistence
  FRONTDESK_CHECKPOINTER: {
    schema: z.enum(["file", "memory", "postgres"]).optional(),
    derivedDefault: "`file`",
    description: "`file` (SQLite in the data dir), `memory`, or `postgres` (default when `DATABASE_URL` is set)",
  },
  FRONTDESK_DATA_DIR: { schema: z.string().min(1).default(".frontdesk"), description: "where the local checkpoint file lives" },
  DATABASE_URL: {
    schema: z.string().min(1).optional(),
    description:
      "PostgreSQL for threads, memory, locks, watch events and (embedded retriever) ingested documents, shared by every replica ([docs/persistence.md](docs/persistence.md))",
  },
  FRONTDESK_DB_MIGRATE_ON_START: {
    schema: bool.default(true),
    description: "run `frontdesk db migrate` at start-up; `false`: a missing schema stops the start",
  },
  FRONTDESK_DB_POOL_MAX: { schema: int(1, 1_000).default(10), description: "connections for reads and commits" },
  FRONTDESK_DB_LOCK_CONNECTIONS: {
    schema: int(1, 10_000).default(32),
    description: "turns running at once per replica (each holds a connection for its thread lock)",
  },
  FRONTDESK_DB_CONNECT_TIMEOUT_MS: { schema: int(100, 600_000).default(3_000), description: "waiting longer for a connection fails with `UNAVAILABLE`" },
  FRONTDESK_DB_STATEMENT_TIMEOUT_MS: { schema: int(100, 3_600_000).default(10_000), description: "a statement running longer fails with `UNAVAILABLE`" },
  FRONTDESK_THREAD_TTL_HOURS: { schema: z.coerce.number().min(0).max(87_600).default(720), description: "threads idle longer are deleted (`0`: never)" },
  FRONTDESK_THREAD_SWEEP_INTERVAL_S: { schema: int(1, 604_800).default(3_600), description: "how often a replica sweeps idle threads" },

  // Watching running turns
  FRONTDESK_WATCH_BUFFER_EVENTS: {
    schema: int(1, 1_000_000).default(256),
    description: "events queued for one watcher before it is told it fell behind and disconnected",
  },
  FRONTDESK_WATCH_MAX_WATCHERS: { schema: int(1, 1_000_000).default(1_000), description: "watch streams per replica (more are `RESOURCE_EXHAUSTED`)" },
  FRONTDESK_WATCH_PUBLISH_QUEUE: {
    schema: int(1, 1_000_000).default(10_000),
    description: "events waiting to be published to other replicas (beyond it events are dropped, never a turn slowed)",
  },
  FRONTDESK_WATCH_PAYLOAD_RETENTION_S: {
    schema: int(10, 604_800).default(600),
    description: "how long watch events too large for a NOTIFY are kept for other replicas",
  },

  // Models
  FRONTDESK_MODEL_PROVIDER: {
    schema: z.enum(["offline", "gemini"]).optional(),
    derivedDefault: "`offline`",
    description: "`offline`, or `gemini` (default when `GOOGLE_API_KEY` is set); see [docs/models.md](docs/models.md)",
  },
  GOOGLE_API_KEY: { schema: z.string().min(1).optional(), description: "the Gemini API key (model provider and Gemini embeddings)" },
  FRONTDESK_GEMINI_BASE_URL: {
    schema: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//u.test(u), "must be an http(s) URL")
      .transform((u) => u.replace(/\/+$/u, ""))
      .optional(),
    derivedDefault: "Google's endpoint",
    description: "the Generative Language API's address (a proxy, or a fake in tests)",
  },
  FRONTDESK_HANDOFF_RESERVE_MS: {
    schema: int(0, 60_000).optional(),
    derivedDefault: "`1000` (a tenth of a turn limit under 10 s)",
    description: "model calls stop this long before the turn's deadline, so a hanging model still ends in a handoff",
  },
  FRONTDESK_CLARIFY_WITH_MODEL: { schema: bool.default(false), description: "word clarifying questions with the model (options stay retrieval's)" },
  FRONTDESK_MODEL_TIMEOUT_MS: { schema: int(100, 600_000).default(15_000), description: "one model call" },
  FRONTDESK_MODEL_RETRY_ATTEMPTS: { schema: int(1, 10).default(3), description: "attempts per model call (timeouts, 5xx, 429, malformed output)" },
  FRONTDESK_MODEL_RETRY_INITIAL_MS: { schema: int(0, 60_000).default(500), description: "first delay of the exponential backoff with jitter" },
  FRONTDESK_MODEL_RETRY_MAX_MS: { schema: int(0, 120_000).default(4_000), description: "longest delay of the exponential backoff" },
  FRONTDESK_MODEL_CIRCUIT_FAILURES: {
    schema: int(1, 1_000).default(5),
    description:
      "consecutive model calls failing with a timeout, 5xx or 429 that open the provider's circuit: calls then fail at once (the turn hands off) and readiness reports `models` down",
  },
  FRONTDESK_MODEL_CIRCUIT_OPEN_MS: {
    schema: int(100, 3_600_000).default(30_000),
    description: "how long the circuit stays open before one trial call may close it again",
  },

  // The config bundle and logs
  FRONTDESK_CONFIG_DIR: {
    schema: z.string().min(1).optional(),
    derivedDefault: "`bundle/`",
    description: "the config bundle: copy, policy lists, prompts, models, the redaction policy",
  },
  FRONTDESK_LOG_LEVEL: {
    schema: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    description: "`debug`, `info`, `warn`, `error`, `silent` (JSON logs on stdout, personal data redacted)",
  },
} satisfies Record<string, Setting>;

/** README, "Documents and retrieval backends": the index, embeddings, reranker and ingestion. */
const RETRIEVAL = {
  // Where chunks are indexed
  FRONTDESK_RETRIEVER: {
    schema: z.enum(["embedded", "qdrant"]).optional(),
    derivedDefault: "`embedded` (`qdrant` when `QDRANT_URL` is set)",
    description: "where chunks are indexed",
  },
  QDRANT_URL: { schema: z.string().url().optional(), description: "the Qdrant server, e.g. `http://127.0.0.1:6333`" },
  QDRANT_API_KEY: { schema: z.string().min(1).optional(), description: "the Qdrant server's key, sent as the `api-key` header" },
  FRONTDESK_QDRANT_COLLECTION: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,255}$/u)
      .default("frontdesk_chunks"),
    description: "collection name",
  },
  FRONTDESK_QDRANT_TIMEOUT_MS: { schema: int(100, 600_000).default(10_000), description: "one Qdrant request (retried with the model retry policy)" },
  FRONTDESK_QDRANT_UPSERT_POINTS: { schema: int(1, 10_000).default(128), description: "points per upsert request" },
  FRONTDESK_QDRANT_SPARSE_AVG_LENGTH: {
    schema: z.coerce.number().positive().max(100_000).default(60),
    description: "BM25 average chunk length (terms), recorded in the collection",
  },

  // Embeddings
  FRONTDESK_EMBEDDER: {
    schema: z.enum(["local", "gemini"]).default("local"),
    description: "`local` (deterministic, no model) or `gemini` (needs `GOOGLE_API_KEY`)",
  },
  FRONTDESK_EMBEDDING_MODEL: { schema: z.string().min(1).default("gemini-embedding-001"), description: "Gemini embedding model" },
  FRONTDESK_EMBEDDING_DIMENSION: {
    schema: int(8, 8_192).optional(),
    derivedDefault: "`384` local, `768` gemini",
    description: "vector size; part of the collection schema",
  },
  FRONTDESK_EMBEDDING_BATCH_SIZE: { schema: int(1, 250).default(100), description: "texts per Gemini batch request (the API's maximum)" },

  // Reranking
  FRONTDESK_RERANKER: { schema: z.enum(["lexical", "http"]).default("lexical"), description: "`lexical` or `http` (a `/rerank` endpoint)" },
  FRONTDESK_RERANKER_URL: { schema: z.string().url().optional(), description: "the rerank service's base URL (requests go to `<url>/rerank`)" },
  FRONTDESK_RERANKER_PROTOCOL: {
    schema: z.enum(["tei", "jina"]).default("tei"),
    description: "`tei` (text-embeddings-inference) or `jina` (Jina/Cohere shape)",
  },
  FRONTDESK_RERANKER_MODEL: { schema: z.string().min(1).optional(), description: "sent as `model` (jina; required by hosted services)" },
  FRONTDESK_RERANKER_API_KEY: { schema: z.string().min(1).optional(), description: "sent as a Bearer token" },
  FRONTDESK_RERANKER_TIMEOUT_MS: { schema: int(100, 600_000).default(5_000), description: "one rerank request" },
  FRONTDESK_RERANKER_MAX_CHARS: { schema: int(100, 100_000).default(2_000), description: "text sent per candidate (cut to this length)" },

  // Documents, chunking and ingestion
  FRONTDESK_DOCUMENT_STORE: {
    schema: z.enum(["file", "memory", "postgres"]).optional(),
    derivedDefault: "`file` (`postgres` / `memory` with `FRONTDESK_CHECKPOINTER=postgres` / `memory`)",
    description:
      "embedded: where ingested documents are kept: the data directory, nowhere, or PostgreSQL (`DATABASE_URL`), shared by every replica, each replica's index following it",
  },
  FRONTDESK_DOCUMENT_POLL_MS: {
    schema: int(100, 3_600_000).default(30_000),
    description: "embedded on PostgreSQL: how often a replica checks the shared document store for changes it was not notified of (the backstop of LISTEN/NOTIFY)",
  },
  FRONTDESK_LOAD_CORPUS: {
    schema: bool.optional(),
    derivedDefault: "`true` embedded, `false` qdrant",
    description: "index `FRONTDESK_CORPUS_DIR` at start-up",
  },
  FRONTDESK_CHUNK_CHARS: {
    schema: int(100, 20_000).default(700),
    description: "chunk size: the longest text of one unit (paragraph, list item, table row); longer ones are split at sentences or cells",
  },
  FRONTDESK_MAX_CHUNK_CHARS: {
    schema: int(100, 100_000).default(1_500),
    description: "most text embedded for one chunk (title + headings + text)",
  },
  FRONTDESK_MAX_DOCUMENT_CHARS: {
    schema: int(100, 10_000_000).default(200_000),
    description: "a document's body (its Markdown: a DOCX, PDF or HTML file's is the rendering of its text)",
  },
  FRONTDESK_MAX_FILE_BYTES: {
    schema: int(1_024, 512 * 1024 * 1024).default(20 * 1024 * 1024),
    description: "largest document file (20 MiB), checked before it is parsed; DocumentService accepts requests of up to this plus 1 MiB",
  },
  FRONTDESK_MAX_TABLE_ROWS: { schema: int(1, 1_000_000).default(1_000), description: "rows indexed per table; a longer table is cut there, with a warning" },
  FRONTDESK_MAX_UNITS: { schema: int(1, 1_000_000).default(5_000), description: "chunks per document; the rest are dropped, with a warning" },
  FRONTDESK_INGEST_BATCH_DOCUMENTS: { schema: int(1, 10_000).default(64), description: "documents chunked and embedded together" },
  FRONTDESK_UPSERT_MAX_DOCUMENTS: { schema: int(1, 10_000).default(100), description: "DocumentService limit: documents in one `UpsertDocuments` call" },
  FRONTDESK_LIST_PAGE_SIZE: {
    schema: int(1, 1_000).default(100),
    description: "DocumentService limit: `ListDocuments` page size when the caller names none (callers may ask for up to 1000)",
  },
  FRONTDESK_MAX_SOURCE_CHARS: { schema: int(16, 100_000).default(1_024), description: "DocumentService limit: a document's `source` (a path or URL)" },
} satisfies Record<string, Setting>;

/** `host:port` of a listener; an IPv6 host in brackets (`[::1]:9464`). */
const LISTEN_ADDRESS = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/u;

/** An origin as browsers send it: scheme, host and optional port, nothing after. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^\*$/u;

/** README, "Operating frontdesk": probes, browsers, metrics, traces and LangSmith. */
const OPERATING = {
  // Readiness and browsers
  FRONTDESK_READY_CACHE_MS: {
    schema: int(100, 60_000).default(1_000),
    description: "how long one round of readiness probes (PostgreSQL, Qdrant, the model circuit) answers every health check, `/readyz` and `Watch`",
  },
  FRONTDESK_READY_TIMEOUT_MS: {
    schema: int(50, 60_000).default(1_000),
    description: "a dependency that does not answer its probe within this long counts as down",
  },
  FRONTDESK_CORS_ORIGINS: {
    schema: z
      .string()
      .refine(
        (v) =>
          v
            .split(",")
            .map((o) => o.trim())
            .filter((o) => o !== "")
            .every((o) => ORIGIN.test(o)),
        "must be origins such as https://app.example.com, separated by commas (or *)",
      )
      .optional(),
    description: "browser origins allowed to call the port (Connect and gRPC-Web, CORS), comma-separated, e.g. `https://app.example.com`; `*` allows any. Unset: no CORS headers",
  },
  FRONTDESK_CORS_MAX_AGE_S: { schema: int(0, 86_400).default(7_200), description: "how long a browser may cache a preflight answer" },

  // Prometheus
  FRONTDESK_METRICS_ADDR: {
    schema: z
      .string()
      .regex(LISTEN_ADDRESS, "must be host:port, e.g. 127.0.0.1:9464")
      .refine((a) => Number(a.slice(a.lastIndexOf(":") + 1)) <= 65_535, "port must be at most 65535")
      .optional(),
    description: "`host:port` of a plain HTTP listener serving Prometheus metrics (`0` as port picks a free one); unset: no metrics listener. Never the service's port",
  },
  FRONTDESK_METRICS_PATH: {
    schema: z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]*$/u, "must be a path such as /metrics")
      .default("/metrics"),
    description: "the scrape path on `FRONTDESK_METRICS_ADDR`",
  },

  // OpenTelemetry traces
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    schema: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//u.test(u), "must be an http(s) URL")
      .optional(),
    description: "OTLP/HTTP (protobuf) collector base URL; spans go to `<url>/v1/traces`. Unset: no spans are recorded or sent (log lines still carry trace ids)",
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    schema: z
      .string()
      .regex(/^\s*[^=,\s]+=[^,]*(?:,\s*[^=,\s]+=[^,]*)*\s*$/u, "must be key=value pairs separated by commas")
      .optional(),
    description: "headers sent with every export, `key=value,key2=value2` (e.g. the collector's API key)",
  },
  OTEL_SERVICE_NAME: { schema: z.string().min(1).default("frontdesk"), description: "the traces' `service.name`" },

  // LangSmith (LangChain's tracing of the graph's runs)
  LANGSMITH_TRACING: { schema: bool.default(false), description: "send every turn's graph run (nodes, inputs, outputs) to LangSmith; needs `LANGSMITH_API_KEY`" },
  LANGCHAIN_TRACING_V2: { schema: bool.optional(), description: "the older name of `LANGSMITH_TRACING` (either switches it on)" },
  LANGSMITH_API_KEY: { schema: z.string().min(1).optional(), description: "the LangSmith API key" },
  LANGSMITH_ENDPOINT: {
    schema: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/u, ""))
      .default("https://api.smith.langchain.com"),
    description: "the LangSmith API (a self-hosted one, or a fake in tests)",
  },
  LANGSMITH_PROJECT: { schema: z.string().min(1).default("frontdesk"), description: "the LangSmith project runs are filed under" },
} satisfies Record<string, Setting>;

/** Each README table's settings, in the order shown. */
export const README_TABLES = { service: SERVICE, retrieval: RETRIEVAL, operating: OPERATING } satisfies Record<string, Record<string, Setting>>;

/** Every setting by name, in README order (test/docs checks that no name is in both tables). */
export const SETTINGS = { ...SERVICE, ...RETRIEVAL, ...OPERATING };

type EnvShape = { [Name in keyof typeof SETTINGS]: (typeof SETTINGS)[Name]["schema"] };

/** The environment, validated: what loadConfig reads. */
export const EnvSchema = z.object(Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.schema])) as EnvShape);

export type Env = z.infer<typeof EnvSchema>;

/** Environment variables frontdesk reads, for documentation and `frontdesk serve --help`. */
export const ENV_VARS = Object.keys(SETTINGS);
