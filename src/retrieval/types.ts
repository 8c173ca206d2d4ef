import { DependencyError } from "../dependency/errors.js";
import type { Taxonomy } from "../domain/taxonomy.js";
import type { Language } from "../text/language.js";

// Defined in the domain layer: the shared document store (src/persistence) stores the same shape.
export type { SourceDocument } from "../domain/documents.js";

/**
 * A retrievable piece of a document: one unit of the document model (src/documents) — a
 * paragraph, a list item with its lead-in, a table row with its caption and column headers — so
 * every chunk is citable on its own. Chunk metadata is what clarify options are built from.
 */
export interface Chunk {
  /**
   * `${documentId}#${contentHash}` from the unit id (12 hex digits, `-2`, `-3`… for a repeated
   * text): stable across edits elsewhere in the document, and never naming different text.
   */
  chunkId: string;
  documentId: string;
  /** The unit's order in the document (for neighbours); not part of the id. */
  chunkIndex: number;
  tenantId: string;
  title: string;
  product: string;
  domain: string;
  lang: Language;
  /** `sectionPath` joined with " > " (display), e.g. "Claims > Documents"; "" before the first heading. */
  section: string;
  /** The headings the unit sits under, outermost first. */
  sectionPath: string[];
  /** The unit's rendered text: rows with caption, row label and headers, items with heading and lead-in. */
  text: string;
  unit: ChunkUnit;
}

/** What kind of unit a chunk is, with the structure a reader needs to use it alone. */
export type ChunkUnit =
  | { kind: "paragraph" }
  | { kind: "item"; leadIn: string | null; item: string }
  | {
      kind: "row";
      /** `${documentId}:t${n}`: shared by the rows of one table (n its position among the document's tables). */
      table: string;
      caption: string | null;
      rowLabel: string | null;
      /** Every cell of the row, verbatim, with its column header ("" where the table has none). */
      cells: Array<{ header: string; value: string }>;
      rowHeaderColumn: number | null;
    };

export interface RetrievalRequest {
  /** The standalone (contextualized) query. */
  query: string;
  /** Injected by the server from the caller's credentials; never from the model. */
  tenantId: string;
  /** Optional domain filter, from the request or a clarify choice; applied server-side. */
  domain?: string;
  /** Restrict to these documents (a clarify choice). */
  documentIds?: string[];
  /** The reply language: a soft preference in ranking, not a filter. */
  language?: Language;
  /** How many results to return after reranking. */
  topK: number;
}

/** Per-stage ranks and scores, kept for grading, handoff context and benchmarks. */
export interface StageScores {
  sparseRank?: number;
  sparseScore?: number;
  denseRank?: number;
  denseScore?: number;
  fusedScore: number;
  rerankScore?: number;
}

export interface RetrievedChunk {
  chunk: Chunk;
  /** The final relevance score, 0..1 (after reranking), comparable across queries. */
  score: number;
  stages: StageScores;
  /**
   * Neighbouring chunks of the same document (context-window expansion), in document order: for a
   * table row, the other rows of its table; for any other unit, the units around it.
   */
  neighbors: Chunk[];
}

export interface RetrievalResult {
  hits: RetrievedChunk[];
  /** Milliseconds per stage, for the stage latency metric, when the backend times them (embedded: sparse, dense, fuse, rerank). */
  stageMs?: Readonly<Record<string, number>>;
}

/** Hybrid retrieval: sparse + dense, fused, reranked, expanded. Same contract for every backend. */
export interface Retriever {
  retrieve(request: RetrievalRequest, signal?: AbortSignal): Promise<RetrievalResult>;
  /** The tenant's own taxonomy (domains, products, their names), built from its documents. */
  taxonomy(tenantId: string, signal?: AbortSignal): Promise<Taxonomy>;
}

/** Turns texts into dense vectors. Vectors are L2-normalised, so a dot product is a cosine. */
export interface Embedder {
  /** Identifies model and version; vectors from different ids must never be compared. */
  readonly id: string;
  readonly dimension: number;
  /** One vector per text (a chunk, a passage), in order. Rejects with the signal's reason when aborted. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /**
   * The vector of a search query, for models that embed questions and passages differently
   * (Gemini's RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT task types). Absent: `embed([query])`.
   */
  embedQuery?(query: string, signal?: AbortSignal): Promise<Float32Array>;
}

export interface RerankOptions {
  /** The reply language: chunks in it get a small bonus (a preference, never a filter). */
  language?: Language;
}

/** Scores candidates for a query: one score in 0..1 per candidate, aligned by position. */
export interface Reranker {
  rerank(query: string, candidates: readonly Chunk[], options?: RerankOptions, signal?: AbortSignal): Promise<number[]>;
}

/** Raised by retrieval backends for a dependency failure (network, server error), after retries. */
export class RetrievalUnavailableError extends DependencyError {
  override readonly name: string = "RetrievalUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("unavailable", "retrieval", message, options);
  }
}
