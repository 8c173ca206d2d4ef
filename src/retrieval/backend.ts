import type Database from "better-sqlite3";
import { ConfigError, type Config } from "../config/config.js";
import type { SharedDocumentStore } from "../domain/documents.js";
import type { Logger } from "../domain/logger.js";
import type { DocumentIndex } from "./document-index.js";
import { createStoreDocumentIndex } from "./embedded/document-store.js";
import { openStore } from "./embedded/stores.js";
import { createFollowingDocumentIndex } from "./embedded/followed-index.js";
import { createLocalDocumentIndex, type LocalDocumentIndex } from "./embedded/local-index.js";
import { createSharedStoreDocumentIndex } from "./embedded/shared-store-index.js";
import { createEmbeddedRetriever } from "./embedded/retriever.js";
import { createCachedEmbedder } from "./embedding/cache.js";
import { createGeminiEmbedder } from "./embedding/gemini.js";
import { createLocalEmbedder } from "./embedding/local.js";
import { createChunker } from "./hybrid/chunker.js";
import { readFileSync } from "node:fs";
import { EMPTY_LEXICON, LexiconError, parseConceptLexicon, type ConceptLexicon } from "../text/concepts.js";
import { CorpusLoadError, type CorpusProblem } from "./corpus-error.js";
import { loadCorpusDir } from "./ingest/corpus.js";
import { checkDocument, mergeWarnings, type DocumentRules } from "./ingest/rules.js";
import { CollectionSchemaError, createQdrantIndex, type QdrantIndex } from "./qdrant/qdrant-index.js";
import { pingQdrant } from "./qdrant/health.js";
import { createHttpReranker } from "./rerank/http.js";
import { createIngestionCheck, type IngestionCheck, type InstructionDetector } from "./instructions.js";
import type { Chunk, Embedder, Reranker, Retriever, SourceDocument } from "./types.js";

/** The configured retrieval stack: what the graph searches and what ingestion writes to. */
export interface RetrievalBackend {
  retriever: Retriever;
  documents: DocumentIndex;
  /** The size limits documents are checked against before they are written. */
  rules: DocumentRules;
  embedder: Embedder;
  /** The embedded index's synchronous chunk lookup (evaluation uses it); null with Qdrant. */
  chunkLookup: ((tenantId: string, chunkId: string) => Chunk | undefined) | null;
  /** The concept lexicon retrieval matches through; the reader uses the same one. */
  lexicon: ConceptLexicon;
  /** Readiness of a remote index (Qdrant); absent for the embedded one, which lives in the process. */
  ping?: (signal: AbortSignal) => Promise<void>;
  close(): Promise<void>;
}

export interface RetrievalBackendOptions {
  logger: Logger;
  /** Tenants the start-up corpus is loaded for. */
  tenants: readonly string[];
  /** Opens the data directory's SQLite file (the embedded default's document store). */
  openDatabase: () => Database.Database;
  /**
   * Opens the document store every replica shares (FRONTDESK_DOCUMENT_STORE=postgres); the
   * backend closes it. Absent: that store cannot be chosen (a ConfigError says so).
   */
  openSharedStore?: () => Promise<SharedDocumentStore>;
  /**
   * Directories loaded after the start-up corpus for every tenant, whatever FRONTDESK_LOAD_CORPUS
   * says: test-only documents (the evaluation's fixtures) that must never ship in the bundled corpus.
   */
  extraCorpusDirs?: readonly string[];
  /**
   * Run over every chunk indexed (the bundle's, src/retrieval/instructions.ts): listings count a
   * document's flagged chunks and ingestion warns of them. Absent: documents are not checked.
   */
  detector?: InstructionDetector;
}

/** Where `frontdesk ingest` writes: documents and the rules they are checked against. */
export interface IngestTarget {
  documents: DocumentIndex;
  rules: DocumentRules;
  /** e.g. "the document store in /srv/.frontdesk" or "Qdrant collection frontdesk_chunks at http://…". */
  description: string;
  close(): Promise<void>;
}

export function createEmbedder(config: Config, logger: Logger): Embedder {
  const embedding = config.embedding;
  switch (embedding.kind) {
    case "local":
      return createLocalEmbedder({ dimension: embedding.dimension });
    case "gemini":
      return createGeminiEmbedder({
        apiKey: embedding.apiKey,
        model: embedding.model,
        dimension: embedding.dimension,
        batchSize: embedding.batchSize,
        retry: config.models.retry,
        timeoutMs: config.models.timeoutMs,
        ...(config.models.geminiBaseUrl === null ? {} : { baseUrl: config.models.geminiBaseUrl }),
        onRetry: (error, attempt) => logger.warn({ err: error, attempt }, "embedding request failed, retrying"),
      });
    default: {
      const unreachable: never = embedding;
      throw new ConfigError(`unknown embedder ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The configured reranker; undefined means each backend's lexical default. */
export function createConfiguredReranker(config: Config, logger: Logger): Reranker | undefined {
  const reranker = config.reranker;
  switch (reranker.kind) {
    case "lexical":
      return undefined;
    case "http":
      return createHttpReranker({
        url: reranker.url,
        protocol: reranker.protocol,
        ...(reranker.model === null ? {} : { model: reranker.model }),
        ...(reranker.apiKey === null ? {} : { apiKey: reranker.apiKey }),
        timeoutMs: reranker.timeoutMs,
        maxChars: reranker.maxChars,
        retry: config.models.retry,
        onRetry: (error, attempt) => logger.warn({ err: error, attempt }, "rerank request failed, retrying"),
      });
    default: {
      const unreachable: never = reranker;
      throw new ConfigError(`unknown reranker ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Builds the retrieval backend from configuration. With the embedded retriever, the start-up
 * corpus is indexed in memory on every start and ingested documents come from the data directory,
 * or from PostgreSQL, which every replica's index then follows;
 * with Qdrant, the collection is created or checked (a schema mismatch is a ConfigError) and the
 * start-up corpus is upserted only when FRONTDESK_LOAD_CORPUS=true.
 */
export async function createRetrievalBackend(config: Config, options: RetrievalBackendOptions): Promise<RetrievalBackend> {
  const { logger } = options;
  const lexicon = loadLexicon(config);
  const embedder = createEmbedder(config, logger);
  const reranker = createConfiguredReranker(config, logger);
  const rules = documentRules(config);
  const { chunker } = rules;
  const loadCorpus = config.retrieval.loadCorpus;
  const backend = config.retrieval.backend;
  const instructions = ingestionCheck(options);

  switch (backend.kind) {
    case "embedded": {
      if (backend.documentStore.kind !== "postgres" && config.persistence.checkpointer === "postgres") {
        logger.warn(
          { documentStore: backend.documentStore.kind },
          "threads are shared on PostgreSQL but ingested documents are not: other replicas will not see documents ingested through this one (FRONTDESK_DOCUMENT_STORE=postgres shares them)",
        );
      }
      const { store, database, close } = await openStore(backend.documentStore, options);
      // A remote model's passage vectors are cached next to the documents, so a restart's
      // re-indexing does not embed unchanged chunks again; the local embedder is cheaper than a lookup.
      const indexEmbedder = database !== null && config.embedding.kind !== "local" ? createCachedEmbedder(embedder, database) : embedder;
      const retriever = createEmbeddedRetriever({
        embedder: indexEmbedder,
        ...(reranker === undefined ? {} : { reranker }),
        candidates: config.retrieval.candidates,
        rrfK: config.retrieval.rrfK,
        productDiversity: config.retrieval.productDiversity,
        contextWindow: config.retrieval.contextWindow,
        tableContextRows: config.retrieval.tableContextRows,
        chunker,
        lexicon,
        ...(instructions === undefined ? {} : { instructions }),
      });
      let documents: LocalDocumentIndex;
      let closeAll = close;
      if (store.kind === "shared") {
        const following = createFollowingDocumentIndex({
          retriever,
          store: store.store,
          chunker,
          pageSize: config.ingest.batchDocuments,
          pollMs: store.pollMs,
          logger,
        });
        documents = following;
        closeAll = async () => {
          await following.close();
          await close();
        };
      } else {
        documents = createLocalDocumentIndex({ retriever, store: store.store });
      }
      try {
        const corpus = await startupCorpus(config, options, loadCorpus);
        const loaded = await documents.load(corpus);
        logger.info(
          { chunks: retriever.size, corpusDocuments: loaded.corpus, ingestedDocuments: loaded.stored, documentStore: backend.documentStore.kind, tenants: options.tenants },
          "embedded index ready",
        );
      } catch (error) {
        await closeAll();
        throw error;
      }
      return { retriever, documents, rules, embedder, chunkLookup: (tenantId, chunkId) => retriever.getChunk(tenantId, chunkId), lexicon, close: closeAll };
    }
    case "qdrant": {
      const index = await openQdrant(config, backend, embedder, reranker, logger, lexicon, instructions);
      const corpus = await startupCorpus(config, options, loadCorpus);
      if (corpus.length > 0) {
        for (let i = 0; i < corpus.length; i += config.ingest.batchDocuments) await index.upsert(corpus.slice(i, i + config.ingest.batchDocuments));
        logger.info({ documents: corpus.length, collection: backend.collection }, "start-up corpus upserted into qdrant");
      }
      const ping = (signal: AbortSignal) => pingQdrant(backend, signal);
      return { retriever: index, documents: index, rules, embedder, chunkLookup: null, lexicon, ping, close: async () => {} };
    }
    default: {
      const unreachable: never = backend;
      throw new ConfigError(`unknown retriever ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Where `frontdesk ingest` writes. With the embedded retriever: the document store only (the
 * data directory's SQLite file); a server indexes the documents at its next start, so the CLI
 * does not embed anything. With Qdrant: the collection, through the full pipeline (chunk, embed,
 * upsert), so running replicas serve the documents at once.
 */
export async function createIngestTarget(
  config: Config,
  options: Pick<RetrievalBackendOptions, "logger" | "openDatabase" | "openSharedStore" | "detector">,
): Promise<IngestTarget> {
  const rules = documentRules(config);
  const instructions = ingestionCheck(options);
  const checked = instructions === undefined ? {} : { instructions };
  const backend = config.retrieval.backend;
  switch (backend.kind) {
    case "embedded": {
      if (backend.documentStore.kind === "memory") {
        throw new ConfigError("FRONTDESK_DOCUMENT_STORE=memory keeps nothing: frontdesk ingest needs the file or postgres store (or Qdrant)");
      }
      const { store, close } = await openStore(backend.documentStore, options);
      if (store.kind === "shared") {
        return {
          documents: createSharedStoreDocumentIndex({ store: store.store, chunker: rules.chunker, ...checked }),
          rules,
          description: "the shared document store in PostgreSQL",
          close,
        };
      }
      return {
        documents: createStoreDocumentIndex({ store: store.store, chunker: rules.chunker, ...checked }),
        rules,
        description: `the document store in ${config.persistence.dataDir}`,
        close,
      };
    }
    case "qdrant": {
      const embedder = createEmbedder(config, options.logger);
      const index = await openQdrant(config, backend, embedder, undefined, options.logger, loadLexicon(config), instructions);
      return { documents: index, rules, description: `Qdrant collection ${backend.collection} at ${backend.url}`, close: async () => {} };
    }
    default: {
      const unreachable: never = backend;
      throw new ConfigError(`unknown retriever ${JSON.stringify(unreachable)}`);
    }
  }
}

function ingestionCheck(options: Pick<RetrievalBackendOptions, "logger" | "detector">): IngestionCheck | undefined {
  return options.detector === undefined ? undefined : createIngestionCheck(options.detector, options.logger);
}

/**
 * The configured concept lexicon (FRONTDESK_LEXICON_FILE; none when turned off). An unreadable or
 * malformed file is a ConfigError naming it and its problems.
 */
export function loadLexicon(config: Config): ConceptLexicon {
  const file = config.retrieval.lexiconFile;
  if (file === null) return EMPTY_LEXICON;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`FRONTDESK_LEXICON_FILE: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return parseConceptLexicon(text, file);
  } catch (error) {
    if (error instanceof LexiconError) throw new ConfigError(`FRONTDESK_LEXICON_FILE: ${error.problems.join("; ")}`);
    throw error;
  }
}

export function documentRules(config: Config): DocumentRules {
  const chunker = createChunker({ maxChars: config.retrieval.chunkChars, maxTableRows: config.ingest.maxTableRows, maxUnits: config.ingest.maxUnits });
  return {
    chunker,
    maxChunkChars: config.ingest.maxChunkChars,
    maxDocumentChars: config.ingest.maxDocumentChars,
    maxFileBytes: config.ingest.maxFileBytes,
    maxIdChars: config.limits.maxIdChars,
  };
}

/** The parse limits of files and uploads under `rules`. */
export function fileLimits(rules: DocumentRules): { maxFileBytes: number; maxTableRows: number; maxIdChars: number } {
  return { maxFileBytes: rules.maxFileBytes, maxTableRows: rules.chunker.maxTableRows, maxIdChars: rules.maxIdChars };
}

async function openQdrant(
  config: Config,
  backend: Extract<Config["retrieval"]["backend"], { kind: "qdrant" }>,
  embedder: Embedder,
  reranker: Reranker | undefined,
  logger: Logger,
  lexicon: ConceptLexicon,
  instructions: IngestionCheck | undefined,
): Promise<QdrantIndex> {
  const index = createQdrantIndex({
    url: backend.url,
    ...(backend.apiKey === null ? {} : { apiKey: backend.apiKey }),
    collection: backend.collection,
    embedder,
    ...(reranker === undefined ? {} : { reranker }),
    candidates: config.retrieval.candidates,
    rrfK: config.retrieval.rrfK,
    productDiversity: config.retrieval.productDiversity,
    contextWindow: config.retrieval.contextWindow,
    tableContextRows: config.retrieval.tableContextRows,
    chunker: documentRules(config).chunker,
    lexicon,
    ...(instructions === undefined ? {} : { instructions }),
    sparseAverageLength: backend.sparseAverageLength,
    upsertPoints: backend.upsertPoints,
    timeoutMs: backend.timeoutMs,
    retry: config.models.retry,
  });
  try {
    const state = await index.ensureCollection();
    logger.info({ collection: backend.collection, state, embedder: embedder.id }, "qdrant collection ready");
  } catch (error) {
    if (error instanceof CollectionSchemaError) throw new ConfigError(error.message);
    throw error;
  }
  const outdated = await index.countOutdated();
  if (outdated > 0) {
    logger.warn(
      { collection: backend.collection, points: outdated },
      "qdrant collection holds points written by an older frontdesk (payload version 1): they are not served until their documents are ingested again (frontdesk ingest)",
    );
  }
  return index;
}

/**
 * The start-up corpus for every tenant: the corpus directory (when `includeConfigured`), then the
 * extra directories, each read once and held to the same rules as ingested documents. Every
 * document that cannot be loaded stops start-up (a CorpusLoadError listing all of them) unless
 * FRONTDESK_CORPUS_SKIP_INVALID=true, which logs each one and serves the rest; what was repaired
 * in a loaded document is logged as a warning. An empty or unreadable directory is a ConfigError.
 */
async function startupCorpus(config: Config, options: RetrievalBackendOptions, includeConfigured: boolean): Promise<SourceDocument[]> {
  const dirs = [...(includeConfigured ? [config.retrieval.corpusDir] : []), ...(options.extraCorpusDirs ?? [])];
  const rules = documentRules(config);
  const documents: SourceDocument[] = [];
  const problems: CorpusProblem[] = [];
  for (const dir of dirs) {
    let corpus: Awaited<ReturnType<typeof loadCorpusDir>>;
    try {
      corpus = await loadCorpusDir(dir, { tenantId: "", limits: fileLimits(rules) });
    } catch (error) {
      throw new ConfigError(`FRONTDESK_CORPUS_DIR: cannot read ${dir} (${error instanceof Error ? error.message : String(error)})`);
    }
    const before = problems.length;
    problems.push(...corpus.problems);
    const loaded: SourceDocument[] = [];
    for (const document of corpus.documents) {
      const source = document.source ?? document.id;
      const check = checkDocument(document, rules);
      if (check.kind === "invalid") {
        problems.push({ source, field: check.field, reason: check.reason });
        continue;
      }
      const parsed = corpus.warnings.filter((warning) => warning.source === source);
      for (const warning of mergeWarnings(parsed, check.warnings)) options.logger.warn({ source, code: warning.code, reason: warning.message }, "corpus document repaired");
      loaded.push(document);
    }
    // A folder whose every document is bad is listed by the CorpusLoadError below, unless skipping.
    if (loaded.length === 0 && (problems.length === before || config.retrieval.corpusSkipInvalid)) throw new ConfigError(`no documents could be loaded from ${dir}`);
    for (const tenantId of options.tenants) documents.push(...loaded.map((document) => ({ ...document, tenantId })));
  }
  if (problems.length > 0) {
    if (!config.retrieval.corpusSkipInvalid) throw new CorpusLoadError(problems);
    for (const problem of problems) options.logger.warn({ source: problem.source, reason: problem.reason }, "corpus document skipped (FRONTDESK_CORPUS_SKIP_INVALID=true)");
  }
  return documents;
}
