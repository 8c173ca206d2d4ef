import type Database from "better-sqlite3";
import { isLanguage } from "../../text/language.js";
import type { Chunker } from "../hybrid/chunker.js";
import { hashContent } from "../hybrid/content-hash.js";
import { pageTokenField, encodePageToken, parseChunkId, type DocumentIndex, type DocumentPage, type RemoveOutcome, type UpsertStatus } from "../document-index.js";
import { checkChunks, countInstructionChunks, type IngestionCheck } from "../instructions.js";
import type { SourceDocument } from "../types.js";

/**
 * Where the embedded index keeps ingested documents between restarts. It stores the source
 * documents, not chunks or vectors: at start-up they are chunked and embedded again, so the
 * stored data never depends on the chunker's or embedder's version, and the local embedder makes
 * that cheap (see docs/benchmarks.md for the start-up cost).
 */
export interface DocumentStore {
  /** Inserts or replaces by (tenant, id); one status per document, in order. */
  put(documents: readonly SourceDocument[]): UpsertStatus[];
  /** False when the tenant has no such stored document. */
  delete(tenantId: string, documentId: string): boolean;
  has(tenantId: string, documentId: string): boolean;
  /** Every stored document, all tenants, ordered by tenant then id. */
  all(): SourceDocument[];
  /** Documents stored, all tenants. */
  count(): number;
}

export function createMemoryDocumentStore(): DocumentStore {
  const documents = new Map<string, { document: SourceDocument; hash: string }>();
  const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;
  return {
    put(batch) {
      return batch.map((document): UpsertStatus => {
        const hash = hashContent(document);
        const k = key(document.tenantId, document.id);
        const previous = documents.get(k)?.hash;
        documents.set(k, { document: { ...document }, hash });
        return previous === undefined ? "added" : previous === hash ? "unchanged" : "replaced";
      });
    },
    delete: (tenantId, id) => documents.delete(key(tenantId, id)),
    has: (tenantId, id) => documents.has(key(tenantId, id)),
    all: () => [...documents.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, stored]) => ({ ...stored.document })),
    count: () => documents.size,
  };
}

interface DocumentRow {
  tenant_id: string;
  id: string;
  title: string;
  product: string;
  domain: string;
  lang: string;
  body: string;
  source: string | null;
}

/**
 * Documents in the data directory's SQLite file (the one the local checkpointer uses: one file to
 * back up, and WAL lets `frontdesk ingest` write while a server reads). The table is created on
 * first use; the caller owns (and closes) the connection.
 */
export function createSqliteDocumentStore(db: Database.Database): DocumentStore {
  db.exec(`CREATE TABLE IF NOT EXISTS documents (
    tenant_id TEXT NOT NULL,
    id TEXT NOT NULL,
    title TEXT NOT NULL,
    product TEXT NOT NULL,
    domain TEXT NOT NULL,
    lang TEXT NOT NULL,
    body TEXT NOT NULL,
    source TEXT,
    content_hash TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant_id, id)
  )`);
  const selectHash = db.prepare<[string, string], { content_hash: string }>("SELECT content_hash FROM documents WHERE tenant_id = ? AND id = ?");
  const upsert = db.prepare(
    `INSERT INTO documents (tenant_id, id, title, product, domain, lang, body, source, content_hash, updated_at)
     VALUES (@tenantId, @id, @title, @product, @domain, @lang, @body, @source, @hash, @now)
     ON CONFLICT (tenant_id, id) DO UPDATE SET title = excluded.title, product = excluded.product, domain = excluded.domain,
       lang = excluded.lang, body = excluded.body, source = excluded.source, content_hash = excluded.content_hash, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare("DELETE FROM documents WHERE tenant_id = ? AND id = ?");
  const selectAll = db.prepare<[], DocumentRow>("SELECT tenant_id, id, title, product, domain, lang, body, source FROM documents ORDER BY tenant_id, id");
  const countAll = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM documents");

  // One transaction per batch: a crash leaves all of a batch or none of it.
  const putAll = db.transaction((batch: readonly SourceDocument[]): UpsertStatus[] => {
    const now = new Date().toISOString();
    return batch.map((document): UpsertStatus => {
      const hash = hashContent(document);
      const previous = selectHash.get(document.tenantId, document.id)?.content_hash;
      const { tenantId, id, title, product, domain, lang, body } = document;
      upsert.run({ tenantId, id, title, product, domain, lang, body, source: document.source ?? null, hash, now });
      return previous === undefined ? "added" : previous === hash ? "unchanged" : "replaced";
    });
  });

  return {
    put: (batch) => putAll(batch),
    delete: (tenantId, id) => remove.run(tenantId, id).changes > 0,
    has: (tenantId, id) => selectHash.get(tenantId, id) !== undefined,
    all() {
      const out: SourceDocument[] = [];
      for (const row of selectAll.iterate()) {
        // Rows were valid when written; a language this build no longer knows is skipped, not guessed.
        if (!isLanguage(row.lang)) continue;
        out.push({
          tenantId: row.tenant_id,
          id: row.id,
          title: row.title,
          product: row.product,
          domain: row.domain,
          lang: row.lang,
          body: row.body,
          ...(row.source === null ? {} : { source: row.source }),
        });
      }
      return out;
    },
    count: () => countAll.get()?.n ?? 0,
  };
}

export interface StoreDocumentIndexOptions {
  store: DocumentStore;
  /** The chunker the server will use, for chunk counts and GetChunk. */
  chunker: Chunker;
  /** The instruction detector: upserts warn of flagged documents, listings count their chunks. */
  instructions?: IngestionCheck;
}

/**
 * A DocumentIndex over the store alone, for `frontdesk ingest` with the embedded retriever: the
 * CLI writes the documents a server indexes at its next start, without embedding them itself.
 * Statuses compare with what is stored.
 */
export function createStoreDocumentIndex(options: StoreDocumentIndexOptions): DocumentIndex {
  const { store, chunker, instructions } = options;
  const find = (tenantId: string, id: string): SourceDocument | undefined => store.all().find((d) => d.tenantId === tenantId && d.id === id);
  return {
    async upsert(documents) {
      const statuses = store.put(documents);
      return documents.map((document, i) => {
        const chunks = chunker.chunk(document);
        if (statuses[i] !== "unchanged") checkChunks(instructions, document, chunks);
        return { documentId: document.id, status: statuses[i] ?? "unchanged", chunkCount: chunks.length };
      });
    },
    async remove(tenantId, documentId): Promise<RemoveOutcome> {
      return store.delete(tenantId, documentId) ? { kind: "removed" } : { kind: "not_found" };
    },
    async listDocuments(tenantId, listOptions): Promise<DocumentPage> {
      const after = pageTokenField(listOptions.pageToken, "after");
      const all = store.all().filter((d) => d.tenantId === tenantId && d.id > after && (listOptions.domain === undefined || d.domain === listOptions.domain));
      const page = all.slice(0, listOptions.pageSize);
      const last = page[page.length - 1];
      return {
        documents: page.map((document) => {
          const chunks = chunker.chunk(document);
          return {
            id: document.id,
            tenantId,
            title: document.title,
            product: document.product,
            domain: document.domain,
            lang: document.lang,
            ...(document.source === undefined ? {} : { source: document.source }),
            chunkCount: chunks.length,
            contentHash: hashContent(document),
            ...(instructions === undefined ? {} : { instructionChunks: countInstructionChunks(chunks, instructions.detector) }),
          };
        }),
        nextPageToken: all.length > page.length && last !== undefined ? encodePageToken({ after: last.id }) : "",
      };
    },
    async getChunk(tenantId, chunkId) {
      const parsed = parseChunkId(chunkId);
      const document = parsed === null ? undefined : find(tenantId, parsed.documentId);
      return document === undefined ? undefined : chunker.chunk(document).find((chunk) => chunk.chunkId === chunkId);
    },
  };
}
