import { markdownBlocks, toUnits, type DocumentWarning, type Unit } from "../../documents/index.js";
import type { Chunk, ChunkUnit, SourceDocument } from "../types.js";

/**
 * Chunks are the document model's units (src/documents): the body is parsed as Markdown into
 * blocks, and each paragraph, list item and table row becomes one chunk that is citable alone — a
 * row carries its table's caption and column headers, an item its heading and lead-in. Chunk ids
 * are the unit ids, derived from the document id and the unit's content, so they survive edits
 * elsewhere in the document and never name different text.
 */

export interface ChunkerOptions {
  /** Longest chunk text, in UTF-16 code units (FRONTDESK_CHUNK_CHARS): longer units are split. Default 700. */
  maxChars?: number;
  /** Rows kept per table (FRONTDESK_MAX_TABLE_ROWS); later rows are dropped with a warning. Default 1000. */
  maxTableRows?: number;
  /** Chunks kept per document (FRONTDESK_MAX_UNITS); later ones are dropped with a warning. Default 5000. */
  maxUnits?: number;
}

export interface Chunker {
  readonly maxChars: number;
  /** Rows kept per table: also the limit a DOCX, PDF or HTML file's tables are parsed with. */
  readonly maxTableRows: number;
  /** Chunks in document order. */
  chunk(document: SourceDocument): Chunk[];
  /** The chunks, and what was repaired or bounded on the way (ragged rows, a truncated table). */
  analyze(document: SourceDocument): { chunks: Chunk[]; warnings: DocumentWarning[] };
}

export function createChunker(options: ChunkerOptions = {}): Chunker {
  const maxChars = options.maxChars ?? 700;
  const maxTableRows = options.maxTableRows ?? 1000;
  const maxUnits = options.maxUnits ?? 5000;
  if (!Number.isInteger(maxChars) || maxChars < 40) throw new RangeError(`maxChars must be an integer >= 40, got ${maxChars}`);
  if (!Number.isInteger(maxTableRows) || maxTableRows < 1) throw new RangeError(`maxTableRows must be a positive integer, got ${maxTableRows}`);
  if (!Number.isInteger(maxUnits) || maxUnits < 1) throw new RangeError(`maxUnits must be a positive integer, got ${maxUnits}`);
  const analyze = (document: SourceDocument): { chunks: Chunk[]; warnings: DocumentWarning[] } => {
    const { blocks, warnings } = markdownBlocks(document.body, { title: document.title, maxTableRows });
    const metadata = {
      id: document.id,
      title: document.title,
      product: document.product,
      domain: document.domain,
      lang: document.lang,
      source: document.source ?? document.id,
      mediaType: "text/markdown" as const,
    };
    const units = toUnits({ metadata, blocks }, { maxUnitChars: maxChars, maxUnits });
    return { chunks: units.units.map((unit) => chunkOf(unit, document)), warnings: [...warnings, ...units.warnings] };
  };
  return { maxChars, maxTableRows, chunk: (document) => analyze(document).chunks, analyze };
}

function chunkOf(unit: Unit, document: SourceDocument): Chunk {
  return {
    chunkId: unit.id,
    documentId: document.id,
    chunkIndex: unit.order,
    tenantId: document.tenantId,
    title: document.title,
    product: document.product,
    domain: document.domain,
    lang: document.lang,
    section: unit.sectionPath.join(" > "),
    sectionPath: [...unit.sectionPath],
    text: unit.text,
    unit: unitOf(unit),
  };
}

function unitOf(unit: Unit): ChunkUnit {
  switch (unit.kind) {
    case "paragraph":
      return { kind: "paragraph" };
    case "item":
      return { kind: "item", leadIn: unit.leadIn, item: unit.item };
    case "row":
      return {
        kind: "row",
        table: unit.table,
        caption: unit.caption,
        rowLabel: unit.rowLabel,
        cells: unit.cells.map((cell) => ({ ...cell })),
        rowHeaderColumn: unit.rowHeaderColumn,
      };
  }
}

/**
 * The text both indexes see: the title and heading path as a contextual header, then the unit.
 * A row like "Plan B — Up to 7 days: 35" only matches "travel premium" through its header.
 */
export function searchableText(chunk: Chunk): string {
  return [fieldText(chunk), chunk.text].filter((part) => part !== "").join("\n");
}

/**
 * What names a chunk's place: its title, its product's slug words and its heading path. The
 * product slug is the tenant's own name for a product in Latin letters ("mehr-visitor"), often
 * the only word an English question shares with a product documented in Persian alone.
 */
export function fieldText(chunk: Chunk): string {
  return [chunk.title, chunk.product.replace(/[-_]+/gu, " "), chunk.section].filter((part) => part.trim() !== "").join("\n");
}
