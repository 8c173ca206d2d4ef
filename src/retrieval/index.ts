/**
 * The retrieval layer's public API: the contracts, and the factories that build them. Everything
 * else (the hybrid pipeline, the indexes, Qdrant's payloads and requests) is internal to
 * src/retrieval; its tests import the internal files they test.
 */

// Contracts: what is retrieved, how, and what a backend promises.
export {
  RetrievalUnavailableError,
  type Chunk,
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
export { documentFromFields, type CorpusProblem } from "./ingest/corpus.js";
export { checkDocumentSize, type DocumentRules } from "./ingest/rules.js";

// The configured stack (the composition root's one call), and where `frontdesk ingest` writes.
export {
  createIngestTarget,
  createRetrievalBackend,
  documentRules,
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
export { countDocuments, inputKind, readDocuments } from "./ingest/read.js";
export { ingestDocuments, IngestInterruptedError, type IngestOptions, type IngestProgress, type IngestReport } from "./ingest/ingest.js";

// Transitional: the internals the old index exported, at their new places.
export { analyze, analyzeWord, words, EN_STOPWORDS, FA_STOPWORDS } from "../text/analysis/index.js";
export { DOCUMENT_FIELDS, listDocumentFiles, parseDocument, type ParseOptions, type ParseResult } from "./ingest/corpus.js";
export { decodePageToken, encodePageToken } from "./document-index.js";
export { createSqliteDocumentStore, createStoreDocumentIndex } from "./embedded/document-store.js";
export { createCachedEmbedder } from "./embedding/cache.js";
export type { LoadReport } from "./embedded/local-index.js";
export type { DocumentProblem } from "./ingest/rules.js";
export type { InputKind, ReadOptions } from "./ingest/read.js";
export { searchableText } from "./hybrid/chunker.js";
export type { ChunkFilter, ScoredChunkId } from "./embedded/filter.js";
export {
  bm25Idf,
  bm25TermWeights,
  bm25TfWeight,
  candidateTermStats,
  DEFAULT_BM25,
  documentSparseVector,
  querySparseVector,
  type Bm25Parameters,
  type SparseVector,
  type TermStats,
} from "./hybrid/bm25.js";
export { createSparseIndex, type SparseIndex, type SparseIndexOptions, type SparseSearchOptions } from "./embedded/sparse-index.js";
export { embedLocal } from "./embedding/local.js";
export type { RerankProtocol } from "./rerank/http.js";
export { createDenseIndex, type DenseEntry, type DenseIndex, type DenseIndexOptions, type DenseSearchOptions } from "./embedded/dense-index.js";
export { rrf, type FusedItem } from "./hybrid/fusion.js";
export { DEFAULT_RERANK_WEIGHTS, scoreParts, type LexicalRerankWeights, type ScoreParts } from "./rerank/lexical.js";
export type { AddReport, StageRankings } from "./embedded/retriever.js";
export { fnv1a32, fmix32 } from "./embedding/hash.js";
export { chunkFromPayload, chunkPayload, pointId, type ChunkPayload } from "./qdrant/payload.js";
export { DENSE_VECTOR, PAYLOAD_INDEXES, SPARSE_SCHEME, SPARSE_VECTOR } from "./qdrant/schema.js";
export { requestFilter } from "./qdrant/filters.js";
export { queryRequest } from "./qdrant/reads.js";
