import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, ENV_VARS, isLoopbackHost, loadConfig, PACKAGE_ROOT } from "../../src/config/config.js";

describe("loadConfig", () => {
  it("gives the embedded default with no environment", () => {
    const config = loadConfig({}, "/srv/app");
    expect(config.server).toMatchObject({ host: "127.0.0.1", port: 8080, allowPublicBind: false, tls: null, turnTimeoutMs: 30_000 });
    expect(config.persistence).toMatchObject({ checkpointer: "file", dataDir: "/srv/app/.frontdesk", databaseUrl: null });
    expect(config.persistence.postgres).toEqual({
      migrateOnStart: true,
      poolMax: 10,
      lockConnections: 32,
      connectTimeoutMs: 3_000,
      statementTimeoutMs: 10_000,
      threadTtlHours: 720,
      sweepIntervalSeconds: 3_600,
      payloadRetentionSeconds: 600,
    });
    expect(config.watch).toEqual({ bufferEvents: 256, maxWatchers: 1_000, publishQueue: 10_000 });
    expect(config.models.provider).toBe("offline");
    expect(config.limits.maxTextChars).toBe(4_000);
    expect(config.budgets).toEqual({ retrievalRounds: 2, clarifyStreak: 2, regenerations: 1, modelCalls: 8 });
    expect(config.retrieval.corpusDir).toBe(path.join(PACKAGE_ROOT, "data/corpus"));
    expect(config.auth).toEqual({ apiKeys: [], defaultTenant: "default" });
  });

  it("reads limits and budgets from their variables", () => {
    const config = loadConfig({ FRONTDESK_MAX_TEXT_CHARS: "100", FRONTDESK_MAX_MODEL_CALLS: "3", FRONTDESK_PORT: "0" });
    expect(config.limits.maxTextChars).toBe(100);
    expect(config.budgets.modelCalls).toBe(3);
    expect(config.server.port).toBe(0);
  });

  it("reports every invalid variable by name at once", () => {
    try {
      loadConfig({ FRONTDESK_PORT: "70000", FRONTDESK_MAX_TEXT_CHARS: "zero", FRONTDESK_CHECKPOINTER: "redis" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain("FRONTDESK_PORT");
      expect(message).toContain("FRONTDESK_MAX_TEXT_CHARS");
      expect(message).toContain("FRONTDESK_CHECKPOINTER");
    }
  });

  it("parses API keys bound to tenants and never echoes a key in errors", () => {
    const config = loadConfig({ FRONTDESK_API_KEYS: "acme:0123456789abcdef0123, globex:fedcba9876543210fedc" });
    expect(config.auth.apiKeys).toEqual([
      { tenantId: "acme", key: "0123456789abcdef0123" },
      { tenantId: "globex", key: "fedcba9876543210fedc" },
    ]);
    expect(() => loadConfig({ FRONTDESK_API_KEYS: "acme:short-secret" })).toThrow(/at least 16 characters/u);
    expect(() => loadConfig({ FRONTDESK_API_KEYS: "acme:short-secret" })).not.toThrow(/short-secret/u);
    expect(() => loadConfig({ FRONTDESK_API_KEYS: "a:0123456789abcdef,b:0123456789abcdef" })).toThrow(/bound twice/u);
  });

  it("selects Postgres with DATABASE_URL and Gemini with GOOGLE_API_KEY", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://127.0.0.1/x", GOOGLE_API_KEY: "k" });
    expect(config.persistence.checkpointer).toBe("postgres");
    expect(config.models.provider).toBe("gemini");
    expect(() => loadConfig({ FRONTDESK_CHECKPOINTER: "postgres" })).toThrow(/DATABASE_URL/u);
    const tuned = loadConfig({ DATABASE_URL: "postgres://127.0.0.1/x", FRONTDESK_DB_MIGRATE_ON_START: "false", FRONTDESK_THREAD_TTL_HOURS: "0.5" });
    expect(tuned.persistence.postgres).toMatchObject({ migrateOnStart: false, threadTtlHours: 0.5 });
    expect(() => loadConfig({ FRONTDESK_WATCH_BUFFER_EVENTS: "0" })).toThrow(/FRONTDESK_WATCH_BUFFER_EVENTS/u);
    expect(() => loadConfig({ FRONTDESK_PRODUCT_DIVERSITY_SHARE: "1.5" })).toThrow(/FRONTDESK_PRODUCT_DIVERSITY_SHARE/u);
    expect(loadConfig({ FRONTDESK_PRODUCT_DIVERSITY_SLOTS: "0" }).retrieval.productDiversity).toEqual({ slots: 0, share: 0.9 });
    expect(() => loadConfig({ FRONTDESK_MODEL_PROVIDER: "gemini" })).toThrow(/GOOGLE_API_KEY/u);
  });

  it("points Gemini at a configurable base URL and keeps a hand-off reserve inside the turn deadline", () => {
    const config = loadConfig({ GOOGLE_API_KEY: "k", FRONTDESK_GEMINI_BASE_URL: "http://127.0.0.1:9999/" });
    expect(config.models.geminiBaseUrl).toBe("http://127.0.0.1:9999");
    expect(config.models.handoffReserveMs).toBe(1_000);
    expect(loadConfig({}).models.geminiBaseUrl).toBeNull();
    expect(() => loadConfig({ FRONTDESK_GEMINI_BASE_URL: "ftp://example.com" })).toThrow(/FRONTDESK_GEMINI_BASE_URL/u);
    expect(() => loadConfig({ FRONTDESK_GEMINI_BASE_URL: "not a url" })).toThrow(/FRONTDESK_GEMINI_BASE_URL/u);
    expect(() => loadConfig({ FRONTDESK_TURN_TIMEOUT_MS: "1000", FRONTDESK_HANDOFF_RESERVE_MS: "1000" })).toThrow(/FRONTDESK_HANDOFF_RESERVE_MS must be shorter/u);
    expect(loadConfig({ FRONTDESK_TURN_TIMEOUT_MS: "300" }).models.handoffReserveMs).toBe(30);
    expect(loadConfig({ FRONTDESK_TURN_TIMEOUT_MS: "300", FRONTDESK_HANDOFF_RESERVE_MS: "0" }).models.handoffReserveMs).toBe(0);
  });

  it("needs TLS certificate and key together", () => {
    expect(() => loadConfig({ FRONTDESK_TLS_CERT: "cert.pem" })).toThrow(/together/u);
    expect(loadConfig({ FRONTDESK_TLS_CERT: "c.pem", FRONTDESK_TLS_KEY: "k.pem" }, "/x").server.tls).toEqual({ certFile: "/x/c.pem", keyFile: "/x/k.pem" });
  });

  it("readiness, CORS and the model circuit: defaults, and origins trimmed, lower-cased and deduplicated", () => {
    const defaults = loadConfig({});
    expect(defaults.server).toMatchObject({ readiness: { cacheMs: 1_000, timeoutMs: 1_000 }, corsOrigins: [], corsMaxAgeS: 7_200 });
    expect(defaults.models.circuit).toEqual({ failures: 5, openMs: 30_000 });
    const config = loadConfig({ FRONTDESK_CORS_ORIGINS: " https://App.example.com ,http://localhost:5173,,https://app.example.com" });
    expect(config.server.corsOrigins).toEqual(["https://app.example.com", "http://localhost:5173"]);
    expect(loadConfig({ FRONTDESK_CORS_ORIGINS: "*" }).server.corsOrigins).toEqual(["*"]);
  });

  it.each(["https://app.example.com/", "app.example.com", "https://app.example.com/path", "ftp://x.example"])("refuses %j as a CORS origin, naming the variable", (origin) => {
    expect(() => loadConfig({ FRONTDESK_CORS_ORIGINS: origin })).toThrow(/FRONTDESK_CORS_ORIGINS: must be origins/u);
  });

  it("lists the variables it reads", () => {
    expect(ENV_VARS).toContain("FRONTDESK_MAX_TEXT_CHARS");
    expect(ENV_VARS).toContain("DATABASE_URL");
  });
});

describe("isLoopbackHost", () => {
  it("accepts only loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "example.com"]) expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("loadConfig: retrieval backends, embeddings, reranker, ingestion limits", () => {
  it("defaults to the embedded retriever with a file document store, the local embedder and the lexical reranker", () => {
    const config = loadConfig({}, "/srv/app");
    expect(config.retrieval.backend).toEqual({ kind: "embedded", documentStore: { kind: "file" } });
    expect(config.retrieval.loadCorpus).toBe(true);
    expect([config.retrieval.chunkChars, config.retrieval.tableContextRows, config.retrieval.corpusSkipInvalid]).toEqual([700, 40, false]);
    expect(config.embedding).toEqual({ kind: "local", dimension: 384 });
    expect(config.reranker).toEqual({ kind: "lexical" });
    expect(config.ingest).toEqual({
      maxChunkChars: 1_500,
      maxDocumentChars: 200_000,
      maxFileBytes: 20 * 1024 * 1024,
      maxTableRows: 1_000,
      maxUnits: 5_000,
      batchDocuments: 64,
      maxUpsertDocuments: 100,
      listPageSize: 100,
      maxSourceChars: 1_024,
    });
    // A memory checkpointer means nothing on disk: the document store follows.
    expect(loadConfig({ FRONTDESK_CHECKPOINTER: "memory" }).retrieval.backend).toEqual({ kind: "embedded", documentStore: { kind: "memory" } });
  });

  it("keeps documents in PostgreSQL, shared by the replicas, when the checkpointer is there, polling every FRONTDESK_DOCUMENT_POLL_MS", () => {
    const url = "postgres://db/frontdesk";
    expect(loadConfig({ DATABASE_URL: url }).retrieval.backend).toEqual({ kind: "embedded", documentStore: { kind: "postgres", databaseUrl: url, pollMs: 30_000 } });
    expect(loadConfig({ DATABASE_URL: url, FRONTDESK_DOCUMENT_POLL_MS: "500" }).retrieval.backend).toEqual({
      kind: "embedded",
      documentStore: { kind: "postgres", databaseUrl: url, pollMs: 500 },
    });
    // Either can be chosen on its own: a file store beside a Postgres checkpointer is one replica's choice.
    expect(loadConfig({ DATABASE_URL: url, FRONTDESK_DOCUMENT_STORE: "file" }).retrieval.backend).toEqual({ kind: "embedded", documentStore: { kind: "file" } });
    expect(loadConfig({ FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_DOCUMENT_STORE: "postgres", DATABASE_URL: url }).retrieval.backend).toEqual({
      kind: "embedded",
      documentStore: { kind: "postgres", databaseUrl: url, pollMs: 30_000 },
    });
    expect(() => loadConfig({ FRONTDESK_DOCUMENT_STORE: "postgres" })).toThrow("FRONTDESK_DOCUMENT_STORE=postgres needs DATABASE_URL");
    expect(() => loadConfig({ DATABASE_URL: url, FRONTDESK_DOCUMENT_POLL_MS: "10" })).toThrow("FRONTDESK_DOCUMENT_POLL_MS");
  });

  it("selects Qdrant with QDRANT_URL, where the corpus is not loaded at start-up by default", () => {
    const config = loadConfig({ QDRANT_URL: "http://127.0.0.1:6333", QDRANT_API_KEY: "k" });
    expect(config.retrieval.backend).toEqual({
      kind: "qdrant",
      url: "http://127.0.0.1:6333",
      apiKey: "k",
      collection: "frontdesk_chunks",
      timeoutMs: 10_000,
      upsertPoints: 128,
      sparseAverageLength: 60,
    });
    expect(config.retrieval.loadCorpus).toBe(false);
    expect(loadConfig({ QDRANT_URL: "http://q:6333", FRONTDESK_LOAD_CORPUS: "true" }).retrieval.loadCorpus).toBe(true);
    expect(loadConfig({ QDRANT_URL: "http://q:6333", FRONTDESK_RETRIEVER: "embedded" }).retrieval.backend.kind).toBe("embedded");
    expect(() => loadConfig({ FRONTDESK_RETRIEVER: "qdrant" })).toThrow(/QDRANT_URL/u);
    expect(() => loadConfig({ QDRANT_URL: "not a url" })).toThrow(/QDRANT_URL/u);
  });

  it("configures Gemini embeddings and the HTTP reranker, naming what is missing", () => {
    expect(loadConfig({ FRONTDESK_EMBEDDER: "gemini", GOOGLE_API_KEY: "g" }).embedding).toEqual({
      kind: "gemini",
      apiKey: "g",
      model: "gemini-embedding-001",
      dimension: 768,
      batchSize: 100,
    });
    expect(() => loadConfig({ FRONTDESK_EMBEDDER: "gemini" })).toThrow(/GOOGLE_API_KEY/u);
    expect(() => loadConfig({ FRONTDESK_EMBEDDER: "gemini", GOOGLE_API_KEY: "g", FRONTDESK_EMBEDDING_BATCH_SIZE: "200" })).toThrow(/at most 100/u);
    expect(loadConfig({ FRONTDESK_RERANKER: "http", FRONTDESK_RERANKER_URL: "http://127.0.0.1:8081", FRONTDESK_RERANKER_PROTOCOL: "jina" }).reranker).toEqual({
      kind: "http",
      url: "http://127.0.0.1:8081",
      protocol: "jina",
      model: null,
      apiKey: null,
      timeoutMs: 5_000,
      maxChars: 2_000,
    });
    expect(() => loadConfig({ FRONTDESK_RERANKER: "http" })).toThrow(/FRONTDESK_RERANKER_URL/u);
  });

  it("refuses chunk sizes that cannot work together", () => {
    // Units do not overlap: the old overlap setting is gone.
    expect(() => loadConfig({ FRONTDESK_CHUNK_OVERLAP_CHARS: "150" })).not.toThrow();
    expect(() => loadConfig({ FRONTDESK_CHUNK_CHARS: "2000" })).toThrow(/FRONTDESK_MAX_CHUNK_CHARS/u);
  });
});
