import { createHash } from "node:crypto";
import type { Schemas } from "@qdrant/js-client-rest";
import { isLanguage } from "../../text/language.js";
import type { DocumentSummary } from "../document-index.js";
import { documentSparseVector, type SparseVector } from "../hybrid/bm25.js";
import { searchableText } from "../hybrid/chunker.js";
import type { Chunk } from "../types.js";
import { DENSE_VECTOR, SPARSE_VECTOR, type SparseWeighting } from "./schema.js";

/** The Qdrant point id of a chunk: a UUID derived from tenant and chunk id, so re-ingestion overwrites. */
export function pointId(tenantId: string, chunkId: string): string {
  const hex = createHash("sha256").update(`${tenantId}\u0000${chunkId}`, "utf8").digest("hex").slice(0, 32).split("");
  // RFC 4122 layout: version 5-style nibble and the variant bits.
  hex[12] = "5";
  hex[16] = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface ChunkPayload {
  tenant_id: string;
  document_id: string;
  chunk_id: string;
  chunk_index: number;
  /** Chunks of the document: chunk 0 doubles as the document's record (listings, change detection). */
  chunk_count: number;
  title: string;
  product: string;
  domain: string;
  lang: string;
  section: string;
  text: string;
  /** hashContent of the whole document; written on chunk 0 last, so it marks a complete write. */
  content_hash: string;
  source: string | null;
}

export function chunkPayload(chunk: Chunk, chunkCount: number, contentHash: string, source: string | undefined): ChunkPayload {
  return {
    tenant_id: chunk.tenantId,
    document_id: chunk.documentId,
    chunk_id: chunk.chunkId,
    chunk_index: chunk.chunkIndex,
    chunk_count: chunkCount,
    title: chunk.title,
    product: chunk.product,
    domain: chunk.domain,
    lang: chunk.lang,
    section: chunk.section,
    text: chunk.text,
    content_hash: contentHash,
    source: source ?? null,
  };
}

/** A chunk from a point's payload; null when the payload is not one frontdesk wrote. */
export function chunkFromPayload(payload: unknown): Chunk | null {
  if (typeof payload !== "object" || payload === null) return null;
  const p = new Map(Object.entries(payload));
  const text = (key: string): string | null => {
    const value = p.get(key);
    return typeof value === "string" ? value : null;
  };
  const chunkIndex = p.get("chunk_index");
  const [tenantId, documentId, chunkId, title, product, domain, lang, section, body] = [
    "tenant_id",
    "document_id",
    "chunk_id",
    "title",
    "product",
    "domain",
    "lang",
    "section",
    "text",
  ].map(text);
  if (tenantId == null || documentId == null || chunkId == null || title == null || product == null || domain == null || section == null || body == null) return null;
  if (typeof chunkIndex !== "number" || !Number.isInteger(chunkIndex) || lang == null || !isLanguage(lang)) return null;
  return { chunkId, documentId, chunkIndex, tenantId, title, product, domain, lang, section, text: body };
}

/**
 * A chunk as a point: the named dense vector and the named sparse vector (our analyzer's BM25
 * term weights), each left out when it is all zeros (Qdrant could match nothing with it).
 */
export function chunkPoint(
  chunk: Chunk,
  vector: Float32Array,
  document: { chunkCount: number; contentHash: string; source: string | undefined },
  weighting: SparseWeighting,
): Schemas["PointStruct"] {
  const sparse = documentSparseVector(searchableText(chunk), weighting.averageLength, weighting.bm25);
  const vectors: Record<string, number[] | SparseVector> = {};
  if (vector.some((value) => value !== 0)) vectors[DENSE_VECTOR] = Array.from(vector);
  if (sparse.indices.length > 0) vectors[SPARSE_VECTOR] = sparse;
  return { id: pointId(chunk.tenantId, chunk.chunkId), vector: vectors, payload: { ...chunkPayload(chunk, document.chunkCount, document.contentHash, document.source) } };
}

/** What chunk 0 records about its document. */
export interface DocumentRecord {
  documentId: string;
  contentHash: string;
  chunkCount: number;
}

/** The document record of a chunk-0 payload read with `RECORD_FIELDS`; null when incomplete. */
export function documentRecord(payload: Record<string, unknown>): DocumentRecord | null {
  const documentId = payload["document_id"];
  const contentHash = payload["content_hash"];
  const chunkCount = payload["chunk_count"];
  if (typeof documentId === "string" && typeof contentHash === "string" && typeof chunkCount === "number") return { documentId, contentHash, chunkCount };
  return null;
}

/** The payload fields `documentRecord` reads. */
export const RECORD_FIELDS = ["document_id", "content_hash", "chunk_count"];

/** A listing entry from a chunk-0 payload of `tenantId`; null when the payload is not frontdesk's or not the tenant's. */
export function documentSummary(payload: Record<string, unknown> | null | undefined, tenantId: string): DocumentSummary | null {
  const chunk = chunkFromPayload(payload);
  const fields = payload ?? {};
  if (chunk === null || chunk.tenantId !== tenantId) return null;
  const source = fields["source"];
  return {
    id: chunk.documentId,
    tenantId,
    title: chunk.title,
    product: chunk.product,
    domain: chunk.domain,
    lang: chunk.lang,
    ...(typeof source === "string" ? { source } : {}),
    chunkCount: typeof fields["chunk_count"] === "number" ? fields["chunk_count"] : 0,
    contentHash: typeof fields["content_hash"] === "string" ? fields["content_hash"] : "",
  };
}
