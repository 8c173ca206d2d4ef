/** The retrieval layer's public API. */
export * from "./types.js";
export { analyze, analyzeWord, words, EN_STOPWORDS, FA_STOPWORDS } from "../text/analysis/index.js";
export {
  documentFromFields,
  DOCUMENT_FIELDS,
  listDocumentFiles,
  loadCorpusDir,
  parseDocument,
  type CorpusProblem,
  type LoadCorpusOptions,
  type LoadedCorpus,
  type ParseOptions,
  type ParseResult,
} from "./corpus.js";
export {
  decodePageToken,
  encodePageToken,
  InvalidPageTokenError,
  parseChunkId,
  type DocumentIndex,
  type DocumentPage,
  type ListOptions,
  type RemoveOutcome,
  type UpsertOutcome,
  type UpsertStatus,
} from "./document-index.js";
export { createMemoryDocumentStore, createSqliteDocumentStore, createStoreDocumentIndex, type DocumentStore } from "./document-store.js";
export { createCachedEmbedder } from "./embedding-cache.js";
export { createLocalDocumentIndex, type LoadReport, type LocalDocumentIndex, type LocalDocumentIndexOptions } from "./local-index.js";
export {
  checkDocumentSize,
  countDocuments,
  ingestDocuments,
  IngestInterruptedError,
  inputKind,
  readDocuments,
  type DocumentProblem,
  type DocumentRules,
  type IngestOptions,
  type IngestProgress,
  type IngestReport,
  type InputKind,
  type ReadOptions,
} from "./ingest.js";
export { createChunker, searchableText, type Chunker, type ChunkerOptions } from "./chunker.js";
export type { ChunkFilter, ScoredChunkId } from "./filter.js";
export {
  bm25Idf,
  bm25TermWeights,
  bm25TfWeight,
  createSparseIndex,
  DEFAULT_BM25,
  documentSparseVector,
  querySparseVector,
  type Bm25Parameters,
  type SparseIndex,
  type SparseIndexOptions,
  type SparseSearchOptions,
  type SparseVector,
  type TermStats,
} from "./sparse.js";
export { createLocalEmbedder, embedLocal, embedQueryWith, type Embedder, type LocalEmbedderOptions } from "./embedding.js";
export { createGeminiEmbedder, type GeminiEmbedderOptions } from "./gemini-embedder.js";
export { createHttpReranker, type HttpRerankerOptions, type RerankProtocol } from "./http-reranker.js";
export { createDenseIndex, type DenseEntry, type DenseIndex, type DenseIndexOptions, type DenseSearchOptions } from "./dense.js";
export { rrf, type FusedItem } from "./fusion.js";
export {
  createLexicalReranker,
  DEFAULT_RERANK_WEIGHTS,
  scoreParts,
  type LexicalRerankerOptions,
  type LexicalRerankWeights,
  type Reranker,
  type RerankOptions,
  type ScoreParts,
} from "./rerank.js";
export {
  createEmbeddedRetriever,
  type AddReport,
  type DocumentSummary,
  type EmbeddedRetriever,
  type EmbeddedRetrieverOptions,
  type StageRankings,
} from "./embedded.js";
export { fnv1a32, fmix32 } from "./hash.js";
export {
  candidateTermStats,
  chunkFromPayload,
  chunkPayload,
  CollectionSchemaError,
  createQdrantIndex,
  DENSE_VECTOR,
  PAYLOAD_INDEXES,
  pointId,
  queryRequest,
  requestFilter,
  SPARSE_SCHEME,
  SPARSE_VECTOR,
  type ChunkPayload,
  type QdrantIndex,
  type QdrantIndexOptions,
} from "./qdrant.js";
