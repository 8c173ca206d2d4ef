import type { Chunk } from "../types.js";

/**
 * Context-window expansion: a hit comes with the chunks a reader needs around it. A table row
 * comes with the other rows of its table (up to `tableRows` of them, the nearest ones), so the
 * whole table is seen; any other unit with up to `window` chunks on each side of it. The embedded
 * index takes them from the document it holds; Qdrant fetches `windowRange` of each hit in one
 * scroll.
 */

export interface ContextWindow {
  /** Chunks on each side of a hit that is not a table row (FRONTDESK_CONTEXT_WINDOW). */
  window: number;
  /** Other rows of its table returned with a row hit (FRONTDESK_TABLE_CONTEXT_ROWS). */
  tableRows: number;
}

/**
 * The chunk indexes a hit's expansion can come from, itself included, clipped at the document
 * start: a table's rows are consecutive units, so its nearest `tableRows` rows lie within that
 * distance of the hit.
 */
export function windowRange(chunk: Chunk, context: ContextWindow): { gte: number; lte: number } {
  const reach = chunk.unit.kind === "row" ? context.tableRows : context.window;
  return { gte: Math.max(0, chunk.chunkIndex - reach), lte: chunk.chunkIndex + reach };
}

/**
 * Where the rows of a table that a non-row hit's window reaches into can lie (see neighborsOf);
 * null for a row hit or when neither a window nor table rows are given.
 */
export function tableReach(chunk: Chunk, context: ContextWindow): { gte: number; lte: number } | null {
  if (chunk.unit.kind === "row" || context.window === 0 || context.tableRows === 0) return null;
  const reach = context.window + context.tableRows;
  return { gte: Math.max(0, chunk.chunkIndex - reach), lte: chunk.chunkIndex + reach };
}

/** The nearest `tableRows` rows of `table` to `index`, in any order. */
function rowsOf(table: string, index: number, documentChunks: readonly Chunk[], tableRows: number): Chunk[] {
  const rows = documentChunks.filter((other) => other.chunkIndex !== index && other.unit.kind === "row" && other.unit.table === table);
  const distance = (other: Chunk): number => Math.abs(other.chunkIndex - index);
  return rows.length <= tableRows ? rows : [...rows].sort((a, b) => distance(a) - distance(b) || a.chunkIndex - b.chunkIndex).slice(0, tableRows);
}

/**
 * The neighbours of `chunk` among chunks of its document (in any order), in document order, without
 * itself. A window that reaches into a table brings the table (its nearest rows): a reader cannot
 * pick a row from a table it sees one row of.
 */
export function neighborsOf(chunk: Chunk, documentChunks: readonly Chunk[], context: ContextWindow): Chunk[] {
  const unit = chunk.unit;
  if (unit.kind === "row") {
    if (context.tableRows === 0) return [];
    return rowsOf(unit.table, chunk.chunkIndex, documentChunks, context.tableRows).sort((a, b) => a.chunkIndex - b.chunkIndex);
  }
  if (context.window === 0) return [];
  const near = documentChunks.filter((other) => other.chunkIndex !== chunk.chunkIndex && Math.abs(other.chunkIndex - chunk.chunkIndex) <= context.window);
  const out = new Map(near.map((c) => [c.chunkIndex, c]));
  if (context.tableRows > 0) {
    for (const table of new Set(near.flatMap((c) => (c.unit.kind === "row" ? [c.unit.table] : [])))) {
      for (const row of rowsOf(table, chunk.chunkIndex, documentChunks, context.tableRows)) out.set(row.chunkIndex, row);
    }
  }
  return [...out.values()].sort((a, b) => a.chunkIndex - b.chunkIndex);
}

/**
 * The rows of the candidates' tables that are not candidates themselves, to be reranked with them:
 * the rows of one table share their caption and headers, so the first stages rank them alike and
 * only some reach the candidates; the row whose range holds the asked quantity ("31–40" for 35)
 * is told apart by the reranker, which must see it. At most `limit` rows in all, nearest first.
 */
export function siblingRows(candidates: readonly Chunk[], documentsOf: (chunk: Chunk) => readonly Chunk[], limit: number): Chunk[] {
  const seen = new Set(candidates.map((c) => c.chunkId));
  const out: Chunk[] = [];
  for (const chunk of candidates) {
    if (chunk.unit.kind !== "row" || out.length >= limit) continue;
    for (const row of rowsOf(chunk.unit.table, chunk.chunkIndex, documentsOf(chunk), limit)) {
      if (out.length >= limit) break;
      if (seen.has(row.chunkId)) continue;
      seen.add(row.chunkId);
      out.push(row);
    }
  }
  return out;
}
