import { analyze } from "../text/analysis/index.js";
import { searchableText } from "./chunker.js";
import { checkLimit, compileFilter, type ChunkFilter, type ScoredChunkId } from "./filter.js";
import { fnv1a32 } from "./hash.js";
import type { Chunk } from "./types.js";

/**
 * BM25 over analyzer terms, in memory. Postings are partitioned by tenant: each tenant has its
 * own inverted index and its own statistics (N, df, average length), so a search for tenant A
 * never reads tenant B's postings and B's documents do not shift A's scores.
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
export function bm25TermWeights(
  terms: readonly string[],
  averageLength: number,
  params: Bm25Parameters = DEFAULT_BM25,
): Map<string, number> {
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
export function documentSparseVector(text: string, averageLength: number, params: Bm25Parameters = DEFAULT_BM25): SparseVector {
  return toSparseVector(bm25TermWeights(analyze(text), averageLength, params));
}

/** Query side: every distinct query term weighs 1, so the dot product is Σ idf · tf-weight. */
export function querySparseVector(text: string): SparseVector {
  return toSparseVector(new Map([...new Set(analyze(text))].map((term) => [term, 1])));
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

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
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

export interface SparseSearchOptions {
  filter: ChunkFilter;
  limit: number;
}

export interface SparseIndex {
  /** Indexes chunks; a chunk whose id is already indexed for its tenant is replaced. */
  add(chunks: readonly Chunk[]): void;
  /** Removes a document's chunks; returns how many were removed. */
  remove(tenantId: string, documentId: string): number;
  /** Best first; ties by chunk id. Only chunks with at least one query term are returned. */
  search(query: string, options: SparseSearchOptions): ScoredChunkId[];
  termStats(tenantId: string): TermStats;
  /** Chunks indexed, all tenants. */
  readonly size: number;
}

export interface SparseIndexOptions extends Partial<Bm25Parameters> {
  /** Text → terms. Default: the shared analyzer, which queries must also go through. */
  analyzer?: (text: string) => string[];
  /** What of a chunk is indexed. Default: `searchableText` (title, section, text). */
  text?: (chunk: Chunk) => string;
}

export function createSparseIndex(options: SparseIndexOptions = {}): SparseIndex {
  const params: Bm25Parameters = { k1: options.k1 ?? DEFAULT_BM25.k1, b: options.b ?? DEFAULT_BM25.b };
  if (!(params.k1 >= 0) || !(params.b >= 0 && params.b <= 1)) throw new RangeError("BM25 needs k1 >= 0 and 0 <= b <= 1");
  const analyzer = options.analyzer ?? analyze;
  const textOf = options.text ?? searchableText;
  const partitions = new Map<string, Partition>();
  let size = 0;

  const partitionFor = (tenantId: string): Partition => {
    let partition = partitions.get(tenantId);
    if (partition === undefined) {
      partition = new Partition();
      partitions.set(tenantId, partition);
    }
    return partition;
  };

  return {
    add(chunks) {
      for (const chunk of chunks) {
        const partition = partitionFor(chunk.tenantId);
        if (partition.removeChunk(chunk.chunkId)) size -= 1;
        partition.insert(chunk, analyzer(textOf(chunk)));
        size += 1;
      }
    },
    remove(tenantId, documentId) {
      const partition = partitions.get(tenantId);
      if (partition === undefined) return 0;
      const removed = partition.removeDocument(documentId);
      size -= removed;
      if (partition.count === 0) partitions.delete(tenantId);
      return removed;
    },
    search(query, { filter, limit }) {
      checkLimit(limit);
      const partition = partitions.get(filter.tenantId);
      if (partition === undefined) return [];
      const accept = compileFilter(filter);
      const averageLength = partition.averageLength();
      // Verdicts per slot: 0 unknown, 1 accepted, 2 rejected; the filter runs once per chunk.
      const verdicts = new Uint8Array(partition.slotCount());
      const scores = new Map<number, number>();
      for (const term of new Set(analyzer(query))) {
        const postings = partition.postings.get(term);
        if (postings === undefined) continue;
        const idf = bm25Idf(partition.count, postings.size);
        for (const [slot, tf] of postings) {
          const entry = partition.entry(slot);
          if (verdicts[slot] === 0) verdicts[slot] = accept(entry.chunk) ? 1 : 2;
          if (verdicts[slot] !== 1) continue;
          scores.set(slot, (scores.get(slot) ?? 0) + idf * bm25TfWeight(tf, entry.length, averageLength, params));
        }
      }
      const hits = [...scores].map(([slot, score]) => ({ chunkId: partition.entry(slot).chunk.chunkId, score }));
      hits.sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0));
      return hits.slice(0, limit);
    },
    termStats(tenantId) {
      const partition = partitions.get(tenantId);
      const documentCount = partition?.count ?? 0;
      const documentFrequency = (term: string): number => partition?.postings.get(term)?.size ?? 0;
      return {
        documentCount,
        averageLength: partition?.averageLength() ?? 0,
        documentFrequency,
        idf: (term) => bm25Idf(documentCount, documentFrequency(term)),
      };
    },
    get size() {
      return size;
    },
  };
}

interface Entry {
  chunk: Chunk;
  /** Length in analyzer terms. */
  length: number;
  terms: Map<string, number>;
}

/** One tenant's inverted index. Slots are reused after removal so postings stay small ints. */
class Partition {
  readonly postings = new Map<string, Map<number, number>>();
  private readonly entries: (Entry | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly slotByChunkId = new Map<string, number>();
  private readonly slotsByDocument = new Map<string, Set<number>>();
  private totalLength = 0;
  count = 0;

  averageLength(): number {
    return this.count === 0 ? 0 : this.totalLength / this.count;
  }

  slotCount(): number {
    return this.entries.length;
  }

  entry(slot: number): Entry {
    const entry = this.entries[slot];
    if (entry === undefined) throw new Error(`sparse index: posting points at empty slot ${slot}`);
    return entry;
  }

  insert(chunk: Chunk, terms: readonly string[]): void {
    const slot = this.freeSlots.pop() ?? this.entries.length;
    const counts = countTerms(terms);
    this.entries[slot] = { chunk, length: terms.length, terms: counts };
    this.slotByChunkId.set(chunk.chunkId, slot);
    let slots = this.slotsByDocument.get(chunk.documentId);
    if (slots === undefined) {
      slots = new Set();
      this.slotsByDocument.set(chunk.documentId, slots);
    }
    slots.add(slot);
    for (const [term, tf] of counts) {
      let postings = this.postings.get(term);
      if (postings === undefined) {
        postings = new Map();
        this.postings.set(term, postings);
      }
      postings.set(slot, tf);
    }
    this.totalLength += terms.length;
    this.count += 1;
  }

  removeChunk(chunkId: string): boolean {
    const slot = this.slotByChunkId.get(chunkId);
    if (slot === undefined) return false;
    const entry = this.entry(slot);
    for (const term of entry.terms.keys()) {
      const postings = this.postings.get(term);
      postings?.delete(slot);
      if (postings?.size === 0) this.postings.delete(term);
    }
    this.slotsByDocument.get(entry.chunk.documentId)?.delete(slot);
    if (this.slotsByDocument.get(entry.chunk.documentId)?.size === 0) this.slotsByDocument.delete(entry.chunk.documentId);
    this.slotByChunkId.delete(chunkId);
    this.entries[slot] = undefined;
    this.freeSlots.push(slot);
    this.totalLength -= entry.length;
    this.count -= 1;
    return true;
  }

  removeDocument(documentId: string): number {
    const slots = [...(this.slotsByDocument.get(documentId) ?? [])];
    for (const slot of slots) this.removeChunk(this.entry(slot).chunk.chunkId);
    return slots.length;
  }
}
