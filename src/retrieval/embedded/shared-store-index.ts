import type { SharedDocumentStore } from "../../domain/documents.js";
import { encodePageToken, pageTokenField, parseChunkId, type DocumentIndex, type DocumentSummary } from "../document-index.js";
import type { Chunker } from "../hybrid/chunker.js";
import { hashContent } from "../hybrid/content-hash.js";
import { checkChunks, countInstructionChunks, type IngestionCheck } from "../instructions.js";
import type { SourceDocument } from "../types.js";

export interface SharedStoreDocumentIndexOptions {
  store: SharedDocumentStore;
  /** The chunker the servers use, for chunk counts and GetChunk. */
  chunker: Chunker;
  /** The instruction detector: upserts warn of flagged documents, listings count their chunks. */
  instructions?: IngestionCheck;
}

/**
 * A DocumentIndex over the shared store alone, for `frontdesk ingest` with the embedded retriever
 * on PostgreSQL: the CLI writes, and every running replica indexes the documents at once (it is
 * notified). Statuses compare with what is stored.
 */
export function createSharedStoreDocumentIndex(options: SharedStoreDocumentIndexOptions): DocumentIndex {
  const { store, chunker, instructions } = options;
  const summary = (document: SourceDocument): DocumentSummary => {
    const chunks = chunker.chunk(document);
    return {
      id: document.id,
      tenantId: document.tenantId,
      title: document.title,
      product: document.product,
      domain: document.domain,
      lang: document.lang,
      ...(document.source === undefined ? {} : { source: document.source }),
      chunkCount: chunks.length,
      contentHash: hashContent(document),
      ...(instructions === undefined ? {} : { instructionChunks: countInstructionChunks(chunks, instructions.detector) }),
    };
  };
  return {
    async upsert(documents) {
      const statuses = await store.put(documents.map((document) => ({ document, contentHash: hashContent(document) })));
      return documents.map((document, i) => {
        const chunks = chunker.chunk(document);
        if (statuses[i] !== "unchanged") checkChunks(instructions, document, chunks);
        return { documentId: document.id, status: statuses[i] ?? "unchanged", chunkCount: chunks.length };
      });
    },
    async remove(tenantId, documentId) {
      return (await store.delete(tenantId, documentId)) ? { kind: "removed" } : { kind: "not_found" };
    },
    async listDocuments(tenantId, listOptions) {
      const after = pageTokenField(listOptions.pageToken, "after");
      const all = (await store.list(tenantId)).filter((d) => d.id > after && (listOptions.domain === undefined || d.domain === listOptions.domain));
      const page = all.slice(0, listOptions.pageSize);
      const last = page.at(-1);
      return { documents: page.map(summary), nextPageToken: all.length > page.length && last !== undefined ? encodePageToken({ after: last.id }) : "" };
    },
    async getChunk(tenantId, chunkId) {
      const parsed = parseChunkId(chunkId);
      if (parsed === null) return undefined;
      const document = (await store.list(tenantId)).find((d) => d.id === parsed.documentId);
      return document === undefined ? undefined : chunker.chunk(document).find((chunk) => chunk.chunkId === chunkId);
    },
  };
}
