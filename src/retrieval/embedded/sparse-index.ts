import { analyze } from "../../text/analysis/index.js";
import { bm25Idf, bm25TfWeight, countTerms, resolveBm25, type Bm25Parameters, type TermStats } from "../hybrid/bm25.js";
import { searchableText } from "../hybrid/chunker.js";
import type { Chunk } from "../types.js";
import { checkLimit, compileFilter, type ChunkFilter, type ScoredChunkId } from "./filter.js";

/**
 * BM25 over analyzer terms, in memory. Postings are partitioned by tenant: each tenant has its
 * own inverted index and its own statistics (N, df, average length), so a search for tenant A
 * never reads tenant B's postings and B's documents do not shift A's scores.
 */

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
  const params = resolveBm25(options);
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
