import type { DocumentChange, SharedDocumentStore } from "../../domain/documents.js";
import type { Logger } from "../../domain/logger.js";
import { encodePageToken, pageTokenField, type DocumentPage, type RemoveOutcome, type UpsertOutcome, type UpsertStatus } from "../document-index.js";
import type { Chunker } from "../hybrid/chunker.js";
import { hashContent } from "../hybrid/content-hash.js";
import type { SourceDocument } from "../types.js";
import type { LoadReport, LocalDocumentIndex } from "./local-index.js";
import type { EmbeddedRetriever } from "./retriever.js";

export interface FollowingDocumentIndexOptions {
  retriever: EmbeddedRetriever;
  /** The documents every replica shares (PostgreSQL). */
  store: SharedDocumentStore;
  /** The chunker the retriever uses, for chunk counts of documents not indexed here yet. */
  chunker: Chunker;
  /** Changes read and indexed per round (FRONTDESK_INGEST_BATCH_DOCUMENTS). */
  pageSize: number;
  /** The backstop poll of the store (FRONTDESK_DOCUMENT_POLL_MS), for notifications that were lost. */
  pollMs: number;
  logger: Logger;
}

export interface FollowingDocumentIndex extends LocalDocumentIndex {
  /** Indexes every change committed to the store so far. Rejects when the store or the embedder fails. */
  catchUp(): Promise<void>;
  /** The store version this index has applied. */
  readonly version: number;
  /** Stops following; the store is the caller's to close. */
  close(): Promise<void>;
}

const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/**
 * One replica's embedded index over the shared document store. The store is the truth: writes go
 * there first (one transaction), and every replica, the writing one included, indexes what the
 * store says changed since the version it has applied — when notified (LISTEN/NOTIFY), every
 * `pollMs`, after a lost notification connection comes back, and before it answers ListDocuments
 * or GetChunk (so a citation given by one replica resolves on another at once). The start-up
 * corpus is a read-only layer under the stored documents, as with the local stores.
 */
export function createFollowingDocumentIndex(options: FollowingDocumentIndexOptions): FollowingDocumentIndex {
  const { retriever, store, chunker, pageSize, logger } = options;
  const corpus = new Map<string, SourceDocument>();
  let applied = 0;
  let following: { timer: NodeJS.Timeout; unlisten: () => void } | null = null;
  // Catch-ups run one at a time; one asked for while another runs starts after it (which may
  // already have read past the version it was asked for: it then finds nothing to do).
  let queue: Promise<unknown> = Promise.resolve();
  let waiting: Promise<void> | null = null;

  async function apply(changes: readonly DocumentChange[]): Promise<void> {
    // A page holds each document once (the store keeps its latest state), so order within it is free.
    const puts: SourceDocument[] = [];
    for (const change of changes) {
      if (change.kind === "put") {
        puts.push(change.document);
        continue;
      }
      // A deleted override brings the corpus version back, replacing in one step (never absent).
      const bundled = corpus.get(key(change.tenantId, change.documentId));
      if (bundled === undefined) retriever.remove(change.tenantId, change.documentId);
      else puts.push(bundled);
    }
    if (puts.length > 0) await retriever.add(puts);
  }

  async function applyPending(): Promise<void> {
    for (;;) {
      const changes = await store.changesSince(applied, pageSize);
      const last = changes.at(-1);
      if (last === undefined) return;
      // Not advanced when indexing fails: the next round tries the same changes again.
      await apply(changes);
      applied = last.version;
      if (changes.length < pageSize) return;
    }
  }

  function catchUp(): Promise<void> {
    if (waiting !== null) return waiting;
    const run = async () => {
      waiting = null;
      await applyPending();
    };
    const next = queue.then(run, run);
    waiting = next;
    queue = next.catch(() => undefined);
    return next;
  }

  /** In the background (a notification, the poll): a failure is logged, and the next round retries. */
  function catchUpLater(why: string): void {
    catchUp().catch((err: unknown) => logger.warn({ err, why, version: applied }, "embedded index could not follow the document store; retrying at the next change or poll"));
  }

  /** Before answering a read: the store's version, and what is missing of it. The local index answers if the store is down. */
  async function syncForRead(): Promise<void> {
    try {
      if ((await store.currentVersion()) > applied) await catchUp();
    } catch (err) {
      logger.warn({ err, version: applied }, "document store unreachable; answering from this replica's index");
    }
  }

  const statusOver = (stored: UpsertStatus | undefined, document: SourceDocument, contentHash: string): UpsertStatus => {
    const bundled = corpus.get(key(document.tenantId, document.id));
    // New to the store but not to this tenant: it overrides a corpus document.
    if (stored !== "added" || bundled === undefined) return stored ?? "unchanged";
    return hashContent(bundled) === contentHash ? "unchanged" : "replaced";
  };

  return {
    get version() {
      return applied;
    },

    catchUp,

    async load(documents, signal): Promise<LoadReport> {
      if (following !== null) throw new Error("load: already loaded");
      for (const document of documents) corpus.set(key(document.tenantId, document.id), document);
      const stored: SourceDocument[] = [];
      let version = 0;
      for (;;) {
        const changes = await store.changesSince(version, pageSize);
        for (const change of changes) if (change.kind === "put") stored.push(change.document);
        version = changes.at(-1)?.version ?? version;
        if (changes.length < pageSize) break;
      }
      const overridden = new Set(stored.map((document) => key(document.tenantId, document.id)));
      const fromCorpus = documents.filter((document) => !overridden.has(key(document.tenantId, document.id)));
      await retriever.add(fromCorpus, signal);
      for (let i = 0; i < stored.length; i += pageSize) await retriever.add(stored.slice(i, i + pageSize), signal);
      applied = version;
      const unlisten = store.listen({
        changed: (v) => {
          if (v > applied) catchUpLater("notified");
        },
        missed: () => catchUpLater("notifications resumed"),
      });
      const timer = setInterval(() => catchUpLater("poll"), options.pollMs);
      timer.unref();
      following = { timer, unlisten };
      // Whatever was committed while the snapshot was indexed.
      catchUpLater("loaded");
      return { corpus: fromCorpus.length, stored: stored.length };
    },

    async upsert(documents, signal) {
      signal?.throwIfAborted();
      const hashes = documents.map(hashContent);
      const statuses = await store.put(documents.map((document, i) => ({ document, contentHash: hashes[i] ?? hashContent(document) })));
      // Committed: every replica will index it. This one does before answering, so the caller
      // reads its own write here; if indexing fails, the poll retries it (the write stands).
      await catchUp().catch((err: unknown) => logger.warn({ err }, "stored documents not indexed on this replica yet; retrying at the next poll"));
      return documents.map(
        (document, i): UpsertOutcome => ({
          documentId: document.id,
          status: statusOver(statuses[i], document, hashes[i] ?? ""),
          chunkCount: retriever.getDocument(document.tenantId, document.id)?.chunkCount ?? chunker.chunk(document).length,
        }),
      );
    },

    async remove(tenantId, documentId): Promise<RemoveOutcome> {
      if (await store.delete(tenantId, documentId)) {
        await catchUp().catch((err: unknown) => logger.warn({ err }, "document deletion not applied on this replica yet; retrying at the next poll"));
        return { kind: "removed" };
      }
      if (corpus.has(key(tenantId, documentId))) {
        return { kind: "read_only", reason: "the document comes from the start-up corpus directory; remove its file instead" };
      }
      return { kind: "not_found" };
    },

    async listDocuments(tenantId, listOptions): Promise<DocumentPage> {
      const after = pageTokenField(listOptions.pageToken, "after");
      await syncForRead();
      const all = retriever.listDocuments(tenantId).filter((document) => document.id > after && (listOptions.domain === undefined || document.domain === listOptions.domain));
      const page = all.slice(0, listOptions.pageSize);
      const last = page[page.length - 1];
      return { documents: page, nextPageToken: all.length > page.length && last !== undefined ? encodePageToken({ after: last.id }) : "" };
    },

    async getChunk(tenantId, chunkId) {
      await syncForRead();
      return retriever.getChunk(tenantId, chunkId);
    },

    async close() {
      if (following !== null) {
        clearInterval(following.timer);
        following.unlisten();
        following = null;
      }
      await queue;
    },
  };
}
