import type { Language } from "../text/language.js";

/** A source document as written by the insurer (one markdown file or one JSONL record). */
export interface SourceDocument {
  /** Stable id from front matter, e.g. "motor-body-en". */
  id: string;
  title: string;
  /** Product key, e.g. "motor-third-party"; clarify options are built from these. */
  product: string;
  /** Business domain, the document's own slug, e.g. "motor". */
  domain: string;
  lang: Language;
  /**
   * Markdown, without front matter: a markdown file's own body, or the Markdown rendering of a
   * DOCX, PDF, HTML or text file's blocks (src/documents renderMarkdown), so every store keeps text.
   */
  body: string;
  tenantId: string;
  /** Where the document came from (a path), for error reports. */
  source?: string;
}

/**
 * One change of the shared document store, as a replica catching up reads it: the document's
 * latest state at `version`. A document changed twice appears once, at its newer version.
 */
export type DocumentChange =
  | { kind: "put"; version: number; document: SourceDocument; contentHash: string }
  /** A tombstone: the document was deleted at `version`. */
  | { kind: "deleted"; version: number; tenantId: string; documentId: string };

export interface DocumentPut {
  document: SourceDocument;
  /** hashContent of the document, computed by the retrieval layer that owns the definition. */
  contentHash: string;
}

/** Compared with the live stored row: a tombstoned or absent one makes "added". */
export type StoredPutStatus = "added" | "replaced" | "unchanged";

/** What a follower of the store is told. */
export interface DocumentStoreListener {
  /** A write (any replica's) committed `version`. */
  changed(version: number): void;
  /** The notification connection is back after a loss: changes may have been missed meanwhile. */
  missed(): void;
}

/**
 * Ingested documents shared by every replica (PostgreSQL): each write gets a version from one
 * increasing sequence, committed in version order, so "changes since N" never skips one. Deletes
 * leave a tombstone for replicas that have not yet seen them. Failures of the database reject with
 * StorageUnavailableError (UNAVAILABLE on the wire).
 */
export interface SharedDocumentStore {
  /** Inserts or replaces every document in one transaction (all or none); one status per document, in order. */
  put(documents: readonly DocumentPut[]): Promise<StoredPutStatus[]>;
  /** Tombstones the document; false when the tenant has no live document of that id. */
  delete(tenantId: string, documentId: string): Promise<boolean>;
  /** The tenant's live documents, ordered by id. */
  list(tenantId: string): Promise<SourceDocument[]>;
  /** Changes with a version above `after`, oldest first, at most `limit`. */
  changesSince(after: number, limit: number): Promise<DocumentChange[]>;
  /** The highest committed version; 0 before the first write. */
  currentVersion(): Promise<number>;
  /** Returns the unsubscribe function. */
  listen(listener: DocumentStoreListener): () => void;
  /** True while change notifications arrive (the LISTEN connection is up). */
  readonly listening: boolean;
  close(): Promise<void>;
}
