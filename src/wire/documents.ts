import { create } from "@bufbuild/protobuf";
import { ChunkSchema, DocumentInfoSchema, UpsertStatus as WireUpsertStatus, type Chunk as WireChunk, type DocumentInfo } from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Chunk, DocumentSummary, UpsertStatus } from "../retrieval/index.js";
import { assertNever } from "./turn.js";

export function upsertStatusToWire(status: UpsertStatus): WireUpsertStatus {
  switch (status) {
    case "added":
      return WireUpsertStatus.ADDED;
    case "replaced":
      return WireUpsertStatus.REPLACED;
    case "unchanged":
      return WireUpsertStatus.UNCHANGED;
    default:
      return assertNever(status);
  }
}

export function documentInfoToWire(summary: DocumentSummary): DocumentInfo {
  return create(DocumentInfoSchema, {
    id: summary.id,
    title: summary.title,
    product: summary.product,
    domain: summary.domain,
    lang: summary.lang,
    source: summary.source ?? "",
    chunkCount: summary.chunkCount,
    contentHash: summary.contentHash,
  });
}

export function chunkToWire(chunk: Chunk): WireChunk {
  return create(ChunkSchema, {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    chunkIndex: chunk.chunkIndex,
    title: chunk.title,
    product: chunk.product,
    domain: chunk.domain,
    lang: chunk.lang,
    section: chunk.section,
    text: chunk.text,
  });
}
