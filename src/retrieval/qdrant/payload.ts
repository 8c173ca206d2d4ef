import { createHash } from "node:crypto";
import type { Schemas } from "@qdrant/js-client-rest";
import { isLanguage } from "../../text/language.js";
import type { DocumentSummary } from "../document-index.js";
import { documentSparseVector, type SparseVector } from "../hybrid/bm25.js";
import { searchableText } from "../hybrid/chunker.js";
import type { Chunk, ChunkUnit } from "../types.js";
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

/**
 * The version of the payload a point carries. Version 2: chunks are document-model units
 * (content-derived ids, structure in `unit`); version 1 (no `payload_version`) had heading-window
 * chunks with index ids. Reads only see points of this version; an upsert rewrites a document
 * whose points are of another, so re-ingesting upgrades a collection in place.
 */
export const PAYLOAD_VERSION = 2;

/**
 * The point id of a document's record (its chunk at index 0): fixed per document, whatever that
 * chunk's text, so a new version overwrites the record in place. It is the id version 1 gave its
 * chunk 0, so an upgrade overwrites the old record too.
 */
export function recordPointId(tenantId: string, documentId: string): string {
  return pointId(tenantId, `${documentId}#0`);
}

/** The point of a chunk: the record's for index 0, else one derived from the chunk id. */
export function chunkPointId(chunk: Chunk): string {
  return chunk.chunkIndex === 0 ? recordPointId(chunk.tenantId, chunk.documentId) : pointId(chunk.tenantId, chunk.chunkId);
}

/** A chunk's unit as stored: snake_case like the rest of the payload. */
export type UnitPayload =
  | { kind: "paragraph" }
  | { kind: "item"; lead_in: string | null; item: string }
  | { kind: "row"; table: string; caption: string | null; row_label: string | null; cells: { header: string; value: string }[]; row_header_column: number | null };

export interface ChunkPayload {
  payload_version: number;
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
  section_path: string[];
  text: string;
  unit: UnitPayload;
  /** The table key of a row (indexed: the neighbour scroll fetches a row's table by it); null otherwise. */
  table: string | null;
  /** hashContent of the whole document; written on chunk 0 last, so it marks a complete write. */
  content_hash: string;
  source: string | null;
  /** Chunks of the document the instruction detector flagged at ingestion; absent when not checked. */
  instruction_chunks?: number;
}

export function chunkPayload(chunk: Chunk, chunkCount: number, contentHash: string, source: string | undefined, instructionChunks?: number): ChunkPayload {
  return {
    payload_version: PAYLOAD_VERSION,
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
    section_path: [...chunk.sectionPath],
    text: chunk.text,
    unit: unitPayload(chunk.unit),
    table: chunk.unit.kind === "row" ? chunk.unit.table : null,
    content_hash: contentHash,
    source: source ?? null,
    ...(instructionChunks === undefined ? {} : { instruction_chunks: instructionChunks }),
  };
}

function unitPayload(unit: ChunkUnit): UnitPayload {
  switch (unit.kind) {
    case "paragraph":
      return { kind: "paragraph" };
    case "item":
      return { kind: "item", lead_in: unit.leadIn, item: unit.item };
    case "row":
      return {
        kind: "row",
        table: unit.table,
        caption: unit.caption,
        row_label: unit.rowLabel,
        cells: unit.cells.map((cell) => ({ ...cell })),
        row_header_column: unit.rowHeaderColumn,
      };
  }
}

/** A chunk from a point's payload; null when the payload is not one this version of frontdesk wrote. */
export function chunkFromPayload(payload: unknown): Chunk | null {
  if (!isRecord(payload) || payload["payload_version"] !== PAYLOAD_VERSION) return null;
  const text = (key: string): string | null => {
    const value = payload[key];
    return typeof value === "string" ? value : null;
  };
  const chunkIndex = payload["chunk_index"];
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
  const sectionPath = payload["section_path"];
  if (!Array.isArray(sectionPath) || !sectionPath.every((part) => typeof part === "string")) return null;
  const unit = unitFromPayload(payload["unit"]);
  if (unit === null) return null;
  return { chunkId, documentId, chunkIndex, tenantId, title, product, domain, lang, section, sectionPath: [...sectionPath], text: body, unit };
}

function unitFromPayload(value: unknown): ChunkUnit | null {
  if (!isRecord(value)) return null;
  const nullableString = (v: unknown): v is string | null => v === null || typeof v === "string";
  switch (value["kind"]) {
    case "paragraph":
      return { kind: "paragraph" };
    case "item": {
      const { lead_in: leadIn, item } = value;
      return nullableString(leadIn) && typeof item === "string" ? { kind: "item", leadIn, item } : null;
    }
    case "row": {
      const { table, caption, row_label: rowLabel, cells, row_header_column: rowHeaderColumn } = value;
      if (typeof table !== "string" || !nullableString(caption) || !nullableString(rowLabel) || !Array.isArray(cells)) return null;
      if (!(rowHeaderColumn === null || (typeof rowHeaderColumn === "number" && Number.isInteger(rowHeaderColumn)))) return null;
      const parsed = cells.map((cell) =>
        isRecord(cell) && typeof cell["header"] === "string" && typeof cell["value"] === "string" ? { header: cell["header"], value: cell["value"] } : null,
      );
      if (parsed.some((cell) => cell === null)) return null;
      return { kind: "row", table, caption, rowLabel, cells: parsed as { header: string; value: string }[], rowHeaderColumn };
    }
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A chunk as a point: the named dense vector and the named sparse vector (our analyzer's BM25
 * term weights), each left out when it is all zeros (Qdrant could match nothing with it).
 */
export function chunkPoint(
  chunk: Chunk,
  vector: Float32Array,
  document: { chunkCount: number; contentHash: string; source: string | undefined; instructionChunks?: number | undefined },
  weighting: SparseWeighting,
): Schemas["PointStruct"] {
  const sparse = documentSparseVector(searchableText(chunk), weighting.averageLength, weighting.bm25, weighting.terms);
  const vectors: Record<string, number[] | SparseVector> = {};
  if (vector.some((value) => value !== 0)) vectors[DENSE_VECTOR] = Array.from(vector);
  if (sparse.indices.length > 0) vectors[SPARSE_VECTOR] = sparse;
  return { id: chunkPointId(chunk), vector: vectors, payload: { ...chunkPayload(chunk, document.chunkCount, document.contentHash, document.source, document.instructionChunks) } };
}

/** What chunk 0 records about its document. */
export interface DocumentRecord {
  documentId: string;
  contentHash: string;
  chunkCount: number;
  /** The payload version the document was written with (1 when the point has none). */
  payloadVersion: number;
}

/** The document record of a chunk-0 payload read with `RECORD_FIELDS`; null when incomplete. */
export function documentRecord(payload: Record<string, unknown>): DocumentRecord | null {
  const documentId = payload["document_id"];
  const contentHash = payload["content_hash"];
  const chunkCount = payload["chunk_count"];
  const version = payload["payload_version"];
  if (typeof documentId === "string" && typeof contentHash === "string" && typeof chunkCount === "number") {
    return { documentId, contentHash, chunkCount, payloadVersion: typeof version === "number" ? version : 1 };
  }
  return null;
}

/** The payload fields `documentRecord` reads. */
export const RECORD_FIELDS = ["document_id", "content_hash", "chunk_count", "payload_version"];

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
    ...(typeof fields["instruction_chunks"] === "number" ? { instructionChunks: fields["instruction_chunks"] } : {}),
  };
}
