import type { Chunk } from "../types.js";

/**
 * What a search may see. `tenantId` is mandatory: both indexes are partitioned by tenant, so a
 * search scans only that tenant's postings and rows, never a global top-k filtered afterwards.
 */
export interface ChunkFilter {
  tenantId: string;
  /** Only chunks of this business domain. */
  domain?: string;
  /** Only chunks of these documents; an empty list matches nothing. */
  documentIds?: readonly string[];
}

/** The filter as a per-chunk test, checked inside the scan of a tenant partition. */
export type ChunkPredicate = (chunk: Chunk) => boolean;

/**
 * Compiles a filter once per search. The tenant is checked again per chunk although the
 * partition already guarantees it: a bug in partition bookkeeping must not leak another
 * tenant's text (security over one string comparison).
 */
export function compileFilter(filter: ChunkFilter): ChunkPredicate {
  const { tenantId, domain } = filter;
  const ids = filter.documentIds === undefined ? undefined : new Set(filter.documentIds);
  return (chunk) => chunk.tenantId === tenantId && (domain === undefined || chunk.domain === domain) && (ids === undefined || ids.has(chunk.documentId));
}

/** A scored search hit, best first. */
export interface ScoredChunkId {
  chunkId: string;
  score: number;
}

/** Validates a search limit: a positive integer. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
}
