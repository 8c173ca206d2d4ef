/**
 * The retrieval layer's public API: the contracts, and the factories that build them. Everything
 * else (the hybrid pipeline, the indexes, Qdrant's payloads and requests) is internal to
 * src/retrieval; its tests import the internal files they test.
 */

// Contracts: what is retrieved, how, and what a backend promises.
export {
  RetrievalUnavailableError,
  type Chunk,
  type ChunkUnit,
  type Embedder,
  type Reranker,
  type RerankOptions,
  type RetrievalRequest,
  type RetrievalResult,
  type RetrievedChunk,
  type Retriever,
  type SourceDocument,
  type StageScores,
} from "./types.js";
export {
  InvalidPageTokenError,
  parseChunkId,
  type DocumentIndex,
  type DocumentPage,
  type DocumentSummary,
  type ListOptions,
  type RemoveOutcome,
  type UpsertOutcome,
  type UpsertStatus,
} from "./document-index.js";
// The rules every document is held to, whichever way it arrives (a file, JSONL, the API).
export { CorpusLoadError, type CorpusProblem } from "./corpus-error.js";
export { documentFromFields, parseDocumentContent, parseDocumentFile, type CorpusWarning, type ParseResult } from "./ingest/corpus.js";
export { checkDocument, mergeWarnings, type DocumentCheck, type DocumentRules } from "./ingest/rules.js";

// The configured stack (the composition root's one call), and where `frontdesk ingest` writes.
export {
  createIngestTarget,
  createRetrievalBackend,
  documentRules,
  fileLimits,
  type IngestTarget,
  type RetrievalBackend,
  type RetrievalBackendOptions,
} from "./backend.js";

// The backends.
export { createEmbeddedRetriever, type EmbeddedRetriever, type EmbeddedRetrieverOptions } from "./embedded/retriever.js";
export { createLocalDocumentIndex, type LocalDocumentIndex, type LocalDocumentIndexOptions } from "./embedded/local-index.js";
export { createMemoryDocumentStore, type DocumentStore } from "./embedded/document-store.js";
export { CollectionSchemaError, createQdrantIndex, type QdrantIndex, type QdrantIndexOptions } from "./qdrant/qdrant-index.js";

// Embedders, rerankers and the chunker the backends are built with.
export { createLocalEmbedder, type LocalEmbedderOptions } from "./embedding/local.js";
export { createGeminiEmbedder, type GeminiEmbedderOptions } from "./embedding/gemini.js";
export { createLexicalReranker, type LexicalRerankerOptions } from "./rerank/lexical.js";
export { createHttpReranker, type HttpRerankerOptions } from "./rerank/http.js";
export { createChunker, type Chunker, type ChunkerOptions } from "./hybrid/chunker.js";

// Documents in: the corpus directory, and ingestion from files or JSONL.
export { loadCorpusDir, type LoadCorpusOptions, type LoadedCorpus } from "./ingest/corpus.js";
export { countDocuments, inputKind, readDocuments, type ReadOptions } from "./ingest/read.js";
export { ingestDocuments, IngestInterruptedError, type IngestOptions, type IngestProgress, type IngestReport } from "./ingest/ingest.js";
export {
  countInstructionChunks,
  createIngestionCheck,
  createInstructionDetector,
  matchesInstructionPattern,
  unhide,
  withoutInstructions,
  type IngestionCheck,
  type InstructionDetector,
} from "./instructions.js";
