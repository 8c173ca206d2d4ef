import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { Embedder } from "../types.js";

/**
 * Passage vectors of a remote embedder, kept in the data directory's SQLite file so the embedded
 * index's start-up re-indexing does not call the model again for text it has embedded before.
 * Keyed by the embedder's id (model and dimension) and the SHA-256 of the text: a different model
 * or a changed chunk is a miss. Queries are not cached (`embedQuery` passes through).
 */
export function createCachedEmbedder(embedder: Embedder, db: Database.Database): Embedder {
  db.exec(`CREATE TABLE IF NOT EXISTS embedding_cache (
    embedder TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (embedder, text_hash)
  )`);
  const select = db.prepare<[string, string], { vector: Buffer }>("SELECT vector FROM embedding_cache WHERE embedder = ? AND text_hash = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO embedding_cache (embedder, text_hash, vector) VALUES (?, ?, ?)");
  const insertAll = db.transaction((rows: readonly { hash: string; vector: Float32Array }[]) => {
    for (const row of rows) insert.run(embedder.id, row.hash, Buffer.from(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength));
  });
  const hashOf = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

  const cached: Embedder = {
    id: embedder.id,
    dimension: embedder.dimension,
    async embed(texts, signal) {
      const hashes = texts.map(hashOf);
      const out: (Float32Array | undefined)[] = hashes.map((hash) => {
        const row = select.get(embedder.id, hash);
        if (row === undefined || row.vector.byteLength !== embedder.dimension * 4) return undefined;
        // Copy out of the row's buffer into a fresh, aligned array.
        return new Float32Array(new Uint8Array(row.vector).buffer);
      });
      const missing = out.flatMap((vector, i) => (vector === undefined ? [i] : []));
      if (missing.length > 0) {
        const fresh = await embedder.embed(
          missing.map((i) => texts[i] ?? ""),
          signal,
        );
        const rows: { hash: string; vector: Float32Array }[] = [];
        missing.forEach((position, j) => {
          const vector = fresh[j];
          out[position] = vector;
          // Only well-formed vectors are kept; the caller checks sizes and reports the rest.
          if (vector !== undefined && vector.length === embedder.dimension) rows.push({ hash: hashes[position] ?? "", vector });
        });
        insertAll(rows);
      }
      return out.map((vector) => vector ?? new Float32Array(0));
    },
  };
  if (embedder.embedQuery !== undefined) {
    const embedQuery = embedder.embedQuery.bind(embedder);
    cached.embedQuery = (query, signal) => embedQuery(query, signal);
  }
  return cached;
}
