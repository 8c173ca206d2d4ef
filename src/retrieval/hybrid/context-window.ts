import type { Chunk } from "../types.js";

/**
 * Context-window expansion: a hit comes with up to `window` chunks on each side of it in its
 * document, so a fact cut at a chunk boundary still reaches the answer. The embedded index takes
 * them from the document it holds; Qdrant fetches `windowRange` of each hit in one scroll.
 */

/** The chunk indexes a hit's window covers, itself included, clipped at the document start. */
export function windowRange(chunk: Chunk, window: number): { gte: number; lte: number } {
  return { gte: Math.max(0, chunk.chunkIndex - window), lte: chunk.chunkIndex + window };
}

/** The neighbours of `chunk` among chunks of its document (in document order): within `window`, without itself. */
export function neighborsOf(chunk: Chunk, documentChunks: readonly Chunk[], window: number): Chunk[] {
  if (window === 0) return [];
  return documentChunks.filter((other) => other.chunkIndex !== chunk.chunkIndex && Math.abs(other.chunkIndex - chunk.chunkIndex) <= window);
}
