import { EMPTY_LEXICON, type ConceptLexicon } from "../../text/concepts.js";
import type { Embedder, Reranker } from "../types.js";
import { resolveBm25, type Bm25Parameters } from "./bm25.js";
import { createChunker, type Chunker, type ChunkerOptions } from "./chunker.js";
import type { ContextWindow } from "./context-window.js";
import type { IngestionCheck } from "../instructions.js";
import type { ProductDiversity } from "./pipeline.js";

/** What every hybrid retriever (embedded, Qdrant) is tuned with; defaults are the same for both. */
export interface HybridRetrievalOptions {
  /** Embeds chunks at add time and the query at search time. */
  embedder: Embedder;
  /** Default: the lexical reranker (each backend says where its term statistics come from). */
  reranker?: Reranker;
  /** How many hits each first stage (sparse, dense) contributes, and how many fused hits are reranked. Default 30. */
  candidates?: number;
  /** RRF's k, in the paper's form (rank from 1). Default 60. */
  rrfK?: number;
  /** Neighbours on each side returned with a hit that is not a table row (context-window expansion). Default 1. */
  contextWindow?: number;
  /** Other rows of its table returned with a table-row hit. Default 40. */
  tableContextRows?: number;
  /** Hits whose final score is below this are dropped. Default 0 (keep all). */
  minScore?: number;
  /**
   * Places of the last hits given to products the best hits missed, if they score this share of
   * the best (see `cut`). Default 1 place at 0.9: a question several products answer sees two.
   */
  productDiversity?: ProductDiversity;
  /** Chunking; a `Chunker` or its options. Default `createChunker()` (700 chars). */
  chunker?: Chunker | ChunkerOptions;
  /** BM25 parameters of the sparse weights. Default k1 1.2, b 0.75. */
  bm25?: Partial<Bm25Parameters>;
  /** Concepts indexed beside terms (src/text/concepts.ts). Default none. */
  lexicon?: ConceptLexicon;
  /** The instruction detector run over every indexed chunk (DocumentSummary.instructionChunks). Default none. */
  instructions?: IngestionCheck;
}

/** The options with every default filled in and every range checked: what a backend reads. */
export interface HybridSettings {
  embedder: Embedder;
  /** Undefined: the backend's lexical reranker (its term statistics differ per backend). */
  reranker: Reranker | undefined;
  candidates: number;
  rrfK: number;
  context: ContextWindow;
  minScore: number;
  productDiversity: ProductDiversity;
  chunker: Chunker;
  bm25: Bm25Parameters;
  /** Text → what the sparse stage and the lexical reranker match: terms, then concept tokens. */
  terms: (text: string) => string[];
  instructions: IngestionCheck | undefined;
}

/** Resolves defaults once and checks ranges once, for both backends; throws RangeError. */
export function resolveHybridOptions(options: HybridRetrievalOptions): HybridSettings {
  const candidates = options.candidates ?? 30;
  const contextWindow = options.contextWindow ?? 1;
  const tableContextRows = options.tableContextRows ?? 40;
  if (!Number.isInteger(candidates) || candidates < 1) throw new RangeError(`candidates must be a positive integer, got ${candidates}`);
  if (!Number.isInteger(contextWindow) || contextWindow < 0) throw new RangeError(`contextWindow must be an integer >= 0, got ${contextWindow}`);
  if (!Number.isInteger(tableContextRows) || tableContextRows < 0) throw new RangeError(`tableContextRows must be an integer >= 0, got ${tableContextRows}`);
  const productDiversity = options.productDiversity ?? { slots: 1, share: 0.9 };
  if (!Number.isInteger(productDiversity.slots) || productDiversity.slots < 0)
    throw new RangeError(`productDiversity.slots must be an integer >= 0, got ${productDiversity.slots}`);
  if (!(productDiversity.share >= 0 && productDiversity.share <= 1)) throw new RangeError(`productDiversity.share must be in [0, 1], got ${productDiversity.share}`);
  const chunker = isChunker(options.chunker) ? options.chunker : createChunker(options.chunker);
  return {
    embedder: options.embedder,
    reranker: options.reranker,
    candidates,
    rrfK: options.rrfK ?? 60,
    context: { window: contextWindow, tableRows: tableContextRows },
    minScore: options.minScore ?? 0,
    productDiversity,
    chunker,
    bm25: resolveBm25(options.bm25),
    terms: (options.lexicon ?? EMPTY_LEXICON).indexTerms,
    instructions: options.instructions,
  };
}

function isChunker(value: Chunker | ChunkerOptions | undefined): value is Chunker {
  return value !== undefined && "chunk" in value && typeof value.chunk === "function";
}
