import type { Language } from "../text/language.js";
import type { Chunk, SourceDocument } from "./types.js";

/** What an index knows about a document, for ingest reports, listings and clarify options. */
export interface DocumentSummary {
  id: string;
  tenantId: string;
  title: string;
  product: string;
  domain: string;
  lang: Language;
  source?: string;
  chunkCount: number;
  /** SHA-256 of the indexed content (title, product, domain, lang, body). */
  contentHash: string;
  /**
   * Chunks the instruction detector flagged when the document was indexed (instructions.ts);
   * undefined when it was not checked (no detector configured, or a Qdrant point of an older frontdesk).
   */
  instructionChunks?: number;
}

export type UpsertStatus = "added" | "replaced" | "unchanged";

export interface UpsertOutcome {
  documentId: string;
  status: UpsertStatus;
  chunkCount: number;
}

export type RemoveOutcome =
  | { kind: "removed" }
  | { kind: "not_found" }
  /** The document belongs to the start-up corpus directory: remove the file, not the document. */
  | { kind: "read_only"; reason: string };

export interface ListOptions {
  /** At most this many documents (1..1000). */
  pageSize: number;
  /** From a previous page's `nextPageToken`; "" or absent for the first page. */
  pageToken?: string;
  /** Only documents of this domain. */
  domain?: string;
}

export interface DocumentPage {
  documents: DocumentSummary[];
  /** "" when this is the last page. */
  nextPageToken: string;
}

/** A page token this index did not issue (or one that was tampered with). */
export class InvalidPageTokenError extends Error {
  override readonly name = "InvalidPageTokenError";
}

/**
 * Managing the documents behind a Retriever: ingestion writes through it, DocumentService exposes
 * it. Everything is tenant-scoped: the tenant is a key, never inferred from a document id.
 * Documents handed to `upsert` are already valid (see ingest/); a failure of a dependency
 * (embedder, Qdrant) rejects with RetrievalUnavailableError and leaves already-indexed versions
 * searchable.
 */
export interface DocumentIndex {
  /**
   * Chunks, embeds and indexes documents, one outcome per document in order. A changed document
   * replaces its chunks; an unchanged one is a no-op.
   */
  upsert(documents: readonly SourceDocument[], signal?: AbortSignal): Promise<UpsertOutcome[]>;
  remove(tenantId: string, documentId: string, signal?: AbortSignal): Promise<RemoveOutcome>;
  /** The tenant's documents in a stable order: by id (embedded index), by point id (Qdrant). */
  listDocuments(tenantId: string, options: ListOptions, signal?: AbortSignal): Promise<DocumentPage>;
  /** A chunk by its id (a citation), or undefined when the tenant has no such chunk. */
  getChunk(tenantId: string, chunkId: string, signal?: AbortSignal): Promise<Chunk | undefined>;
}

/**
 * Splits a chunk id, `<documentId>#<12 hex digits>` with `-n` (n >= 2) for the n-th occurrence of
 * a repeated text; null when the id is not of that form. Canonical only: "-1", "-02" or upper-case
 * hex would name a chunk that never exists.
 */
export function parseChunkId(chunkId: string): { documentId: string; contentHash: string; occurrence: number } | null {
  const match = /^(.+)#([0-9a-f]{12})(?:-([2-9]|[1-9]\d{1,8}))?$/u.exec(chunkId);
  if (match === null) return null;
  const [, documentId = "", contentHash = "", occurrence] = match;
  return { documentId, contentHash, occurrence: occurrence === undefined ? 1 : Number(occurrence) };
}

/** Page tokens are opaque to callers: base64url of a small JSON object. */
export function encodePageToken(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/**
 * The string `field` of a page token this service issued; "" for the first page (no token).
 * Anything else is InvalidPageTokenError, never a silently restarted listing.
 */
export function pageTokenField(pageToken: string | undefined, field: string): string {
  if (pageToken === undefined || pageToken === "") return "";
  const value = decodePageToken(pageToken)[field];
  if (typeof value !== "string") throw new InvalidPageTokenError("page_token: not a token this service issued");
  return value;
}

export function decodePageToken(token: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Fall through: malformed.
  }
  throw new InvalidPageTokenError("page_token: not a token this service issued");
}
