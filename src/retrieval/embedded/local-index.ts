import { pageTokenField, encodePageToken, type DocumentIndex, type DocumentPage, type RemoveOutcome, type UpsertOutcome } from "../document-index.js";
import type { SourceDocument } from "../types.js";
import type { DocumentStore } from "./document-store.js";
import type { EmbeddedRetriever } from "./retriever.js";

export interface LocalDocumentIndexOptions {
  retriever: EmbeddedRetriever;
  /** Ingested documents, kept across restarts (SQLite) or not (memory). */
  store: DocumentStore;
}

export interface LoadReport {
  /** Start-up corpus documents indexed (those not overridden by an ingested version). */
  corpus: number;
  /** Ingested documents indexed from the store. */
  stored: number;
}

export interface LocalDocumentIndex extends DocumentIndex {
  /**
   * Indexes the start-up corpus (a read-only layer, re-read on every start) and then every stored
   * document over it. Call once, before serving.
   */
  load(corpus: readonly SourceDocument[], signal?: AbortSignal): Promise<LoadReport>;
}

/**
 * The embedded retriever's documents in two layers. The start-up corpus (FRONTDESK_CORPUS_DIR) is
 * read from its directory on every start and never written anywhere; ingested documents (CLI or
 * DocumentService) go to the store and are indexed again at start-up. An ingested document with
 * the id of a corpus document overrides it; deleting it brings the corpus version back. A corpus
 * document itself cannot be deleted through the API (it would reappear at the next start): its
 * file is the source of truth.
 */
export function createLocalDocumentIndex(options: LocalDocumentIndexOptions): LocalDocumentIndex {
  const { retriever, store } = options;
  const corpus = new Map<string, SourceDocument>();
  const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;
  // Mutations run one at a time, so the store and the index always end in the same order.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    async load(documents, signal) {
      return serialized(async () => {
        const fromCorpus = documents.filter((document) => !store.has(document.tenantId, document.id));
        for (const document of documents) corpus.set(key(document.tenantId, document.id), document);
        await retriever.add(fromCorpus, signal);
        const stored = store.all();
        await retriever.add(stored, signal);
        return { corpus: fromCorpus.length, stored: stored.length };
      });
    },

    upsert(documents, signal) {
      return serialized(async () => {
        // Index first: if embedding fails, nothing was stored and the call changed nothing.
        const report = await retriever.add(documents, signal);
        store.put(documents);
        return documents.map(
          (document, i): UpsertOutcome => ({
            documentId: document.id,
            status: report.statuses[i] ?? "unchanged",
            chunkCount: retriever.getDocument(document.tenantId, document.id)?.chunkCount ?? 0,
          }),
        );
      });
    },

    remove(tenantId, documentId, signal) {
      return serialized(async (): Promise<RemoveOutcome> => {
        const bundled = corpus.get(key(tenantId, documentId));
        if (!store.has(tenantId, documentId)) {
          if (bundled !== undefined) {
            return { kind: "read_only", reason: "the document comes from the start-up corpus directory; remove its file instead" };
          }
          return retriever.remove(tenantId, documentId) ? { kind: "removed" } : { kind: "not_found" };
        }
        // Should the process die before the store row is deleted, the document is back at the
        // next start: the caller never saw the delete succeed.
        retriever.remove(tenantId, documentId);
        if (bundled !== undefined) await retriever.add([bundled], signal);
        store.delete(tenantId, documentId);
        return { kind: "removed" };
      });
    },

    async listDocuments(tenantId, listOptions): Promise<DocumentPage> {
      const after = pageTokenField(listOptions.pageToken, "after");
      const all = retriever.listDocuments(tenantId).filter((document) => document.id > after && (listOptions.domain === undefined || document.domain === listOptions.domain));
      const documents = all.slice(0, listOptions.pageSize);
      const last = documents[documents.length - 1];
      return { documents, nextPageToken: all.length > documents.length && last !== undefined ? encodePageToken({ after: last.id }) : "" };
    },

    async getChunk(tenantId, chunkId) {
      return retriever.getChunk(tenantId, chunkId);
    },
  };
}
