import { create } from "@bufbuild/protobuf";
import {
  ChunkSchema,
  DocumentInfoSchema,
  ListItemUnitSchema,
  ParagraphUnitSchema,
  TableCellSchema,
  TableRowUnitSchema,
  UpsertStatus as WireUpsertStatus,
  type Chunk as WireChunk,
  type DocumentInfo,
} from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Chunk, ChunkUnit, DocumentSummary, UpsertStatus } from "../retrieval/index.js";
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
    ...(summary.instructionChunks === undefined ? {} : { instructionChunks: summary.instructionChunks }),
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
    sectionPath: [...chunk.sectionPath],
    unit: unitToWire(chunk.unit),
  });
}

function unitToWire(unit: ChunkUnit): WireChunk["unit"] {
  switch (unit.kind) {
    case "paragraph":
      return { case: "paragraph", value: create(ParagraphUnitSchema, {}) };
    case "item":
      return { case: "item", value: create(ListItemUnitSchema, { item: unit.item, ...(unit.leadIn === null ? {} : { leadIn: unit.leadIn }) }) };
    case "row":
      return {
        case: "row",
        value: create(TableRowUnitSchema, {
          table: unit.table,
          cells: unit.cells.map((cell) => create(TableCellSchema, cell)),
          ...(unit.caption === null ? {} : { caption: unit.caption }),
          ...(unit.rowLabel === null ? {} : { rowLabel: unit.rowLabel }),
          ...(unit.rowHeaderColumn === null ? {} : { rowHeaderColumn: unit.rowHeaderColumn }),
        }),
      };
    default:
      return assertNever(unit);
  }
}
