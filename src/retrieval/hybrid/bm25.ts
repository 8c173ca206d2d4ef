import { analyze } from "../../text/analysis/index.js";
import { fnv1a32 } from "../embedding/hash.js";
import { searchableText } from "./chunker.js";
import type { Chunk } from "../types.js";

/**
 * BM25, as both backends score the sparse stage: the embedded index computes it over its own
 * postings; Qdrant computes it from the sparse vectors below with its `idf` modifier. One set of
 * formulas, so the two rank alike (test/retrieval/qdrant/qdrant.test.ts checks that they do).
 */

export interface Bm25Parameters {
  /** Term-frequency saturation. Default 1.2. */
  k1: number;
  /** Length normalisation, 0 (none) .. 1 (full). Default 0.75. */
  b: number;
}

export const DEFAULT_BM25: Bm25Parameters = { k1: 1.2, b: 0.75 };

/** BM25's IDF in the non-negative form Lucene and Qdrant's `idf` modifier use. */
export function bm25Idf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** The per-document part of a BM25 term score: saturated, length-normalised term frequency. */
export function bm25TfWeight(tf: number, docLength: number, averageLength: number, params: Bm25Parameters = DEFAULT_BM25): number {
  const norm = averageLength > 0 ? docLength / averageLength : 1;
  return (tf * (params.k1 + 1)) / (tf + params.k1 * (1 - params.b + params.b * norm));
}

/**
 * Term → weight for a document, exactly as this index scores it without the IDF factor. A
 * Qdrant sparse vector built from these weights, with the collection's `modifier: idf`, gives
 * the same BM25 as this index (Qdrant's IDF is the formula in `bm25Idf`).
 */
export function bm25TermWeights(terms: readonly string[], averageLength: number, params: Bm25Parameters = DEFAULT_BM25): Map<string, number> {
  const counts = countTerms(terms);
  const weights = new Map<string, number>();
  for (const [term, tf] of counts) weights.set(term, bm25TfWeight(tf, terms.length, averageLength, params));
  return weights;
}

/** A sparse vector in Qdrant's shape. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/**
 * Sparse vector of a text for Qdrant: indices are FNV-1a-32 of the term's UTF-8 bytes (the same
 * hash as the local embedder), values the BM25 tf weights. Two terms colliding on one index
 * (rare: ~1 in 2^32 per pair) have their weights summed.
 */
export function documentSparseVector(text: string, averageLength: number, params: Bm25Parameters = DEFAULT_BM25, terms: (text: string) => string[] = analyze): SparseVector {
  return toSparseVector(bm25TermWeights(terms(text), averageLength, params));
}

/** Query side: every distinct query term weighs 1, so the dot product is Σ idf · tf-weight. */
export function querySparseVector(text: string, terms: (text: string) => string[] = analyze): SparseVector {
  return toSparseVector(new Map([...new Set(terms(text))].map((term) => [term, 1])));
}

function toSparseVector(weights: ReadonlyMap<string, number>): SparseVector {
  const byIndex = new Map<number, number>();
  for (const [term, weight] of weights) {
    const index = fnv1a32(term);
    byIndex.set(index, (byIndex.get(index) ?? 0) + weight);
  }
  const indices = [...byIndex.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((index) => byIndex.get(index) ?? 0) };
}

export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * BM25 parameters with defaults filled in, checked once: the hybrid options and the sparse index
 * both resolve theirs here.
 */
export function resolveBm25(params: Partial<Bm25Parameters> = {}): Bm25Parameters {
  const resolved: Bm25Parameters = { k1: params.k1 ?? DEFAULT_BM25.k1, b: params.b ?? DEFAULT_BM25.b };
  if (!(resolved.k1 >= 0) || !(resolved.b >= 0 && resolved.b <= 1)) throw new RangeError("BM25 needs k1 >= 0 and 0 <= b <= 1");
  return resolved;
}

/** Corpus statistics of one tenant, for IDF weighting outside the index (the reranker). */
export interface TermStats {
  /** Chunks in the tenant's partition. */
  readonly documentCount: number;
  /** Mean chunk length in analyzer terms. */
  readonly averageLength: number;
  documentFrequency(term: string): number;
  /** `bm25Idf(documentCount, documentFrequency(term))`. */
  idf(term: string): number;
}

/**
 * Term statistics of a candidate set, for the lexical reranker's IDF. Qdrant applies IDF inside
 * the sparse search but does not expose document frequencies, so the reranker weighs query terms
 * by how rare they are among the candidates: the terms that tell candidates apart weigh most.
 */
export function candidateTermStats(candidates: readonly Chunk[], termsOf: (text: string) => string[] = analyze): TermStats {
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const chunk of candidates) {
    const terms = termsOf(searchableText(chunk));
    totalLength += terms.length;
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const documentCount = candidates.length;
  const documentFrequency = (term: string): number => df.get(term) ?? 0;
  return {
    documentCount,
    averageLength: documentCount === 0 ? 0 : totalLength / documentCount,
    documentFrequency,
    idf: (term) => bm25Idf(documentCount, documentFrequency(term)),
  };
}
