import type { Language } from "../text/language.js";

/**
 * The document model: what every parser (markdown, HTML, DOCX, PDF, plain text) produces, so
 * chunking, citations and the API see one shape whatever the insurer uploaded. Text is kept
 * verbatim: parsers only trim and collapse whitespace. Digit and letter normalisation belongs to
 * indexing (src/text), never to what a citation shows.
 */

export const MEDIA_TYPES = {
  markdown: "text/markdown",
  html: "text/html",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
  text: "text/plain",
} as const;

export type MediaType = (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES];

/** The fields a document must have, from front matter, a sidecar or the caller's defaults. */
export const METADATA_FIELDS = ["id", "title", "product", "domain", "lang"] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

export interface DocumentMetadata {
  /** A slug ("travel-en"): it prefixes every unit id, so citations depend on it. */
  id: string;
  title: string;
  /** A slug ("motor-third-party"); clarify options are built from these. */
  product: string;
  /** A slug ("motor"); whether it is a configured domain is the caller's check. */
  domain: string;
  lang: Language;
  /** Where the bytes came from (a path, or the caller's name for an upload), for reports. */
  source: string;
  mediaType: MediaType;
}

interface BlockBase {
  /** Headings the block sits under, outermost first; [] before the first heading. */
  sectionPath: string[];
  /** 1-based page, for PDF only (other formats have no reliable pages). */
  page: number | null;
}

export interface ParagraphBlock extends BlockBase {
  kind: "paragraph";
  text: string;
}

export interface ListBlock extends BlockBase {
  kind: "list";
  /** The sentence that introduces the list ("Travel insurance does not pay for:"), if any. */
  leadIn: string | null;
  ordered: boolean;
  /** An ordered list's first number (`<ol start="3">`, "3." in markdown or a PDF); null if unordered. */
  start: number | null;
  /**
   * Item texts without their markers. A nested bulleted item reads "<parent> — <child>"; the
   * nested items of a numbered step are folded into it ("<step> — <detail>; <detail>").
   */
  items: string[];
}

export interface TableBlock extends BlockBase {
  kind: "table";
  /** An explicit caption, a short label paragraph before it, or the nearest heading. */
  caption: string | null;
  /** One header row (rows of a multi-row header joined per column); "" where a header is empty. */
  headers: string[];
  /** Body rows, each exactly `headers.length` cells (ragged rows padded or cut, with a warning). */
  rows: string[][];
  /** The column whose cell names the row ("Plan B"), or null when no column does. */
  rowHeaderColumn: number | null;
}

export type Block = ParagraphBlock | ListBlock | TableBlock;

export type WarningCode = "ragged-row" | "merged-cells" | "no-header-row" | "table-truncated" | "empty-table" | "page-without-text" | "units-truncated" | "converter";

/** Something the parser repaired or bounded; the document is still usable. */
export interface DocumentWarning {
  code: WarningCode;
  message: string;
}

export interface ParsedDocument {
  metadata: DocumentMetadata;
  blocks: Block[];
}

/** Why a file was rejected; `field` names the metadata field at fault, when one is. */
export interface DocumentProblem {
  source: string;
  reason: string;
  field?: MetadataField;
}

/**
 * What a format parser hands to the shared structure builder (structure.ts): headings as blocks
 * of their own, tables before header/caption resolution. Keeping caption, lead-in and section
 * rules in one place is what makes the four formats give the same blocks.
 */
export type DraftBlock =
  | { kind: "heading"; level: number; text: string; page: number | null }
  | {
      kind: "paragraph";
      text: string;
      /** The whole paragraph is bold or italic: a label line, such as a table caption. */
      emphasized: boolean;
      page: number | null;
    }
  | { kind: "list"; ordered: boolean; start: number | null; items: string[]; page: number | null }
  | {
      kind: "table";
      /** An explicit caption (HTML <caption>); null when the format has none. */
      caption: string | null;
      /** Rows the format marks as headers (GFM's first row, <thead>, all-<th> rows). */
      headerRows: string[][];
      bodyRows: string[][];
      /** The column the format marks as row headers (<th> in body rows), if any. */
      rowHeaderColumn: number | null;
      /** Whether merged cells (colspan/rowspan) were expanded into every slot they cover. */
      mergedCells: boolean;
      page: number | null;
    };

export interface DraftDocument {
  blocks: DraftBlock[];
  warnings: DocumentWarning[];
  /** Metadata the file carries itself (front matter, <meta name="frontdesk:*">). */
  embedded: Partial<Record<MetadataField, string>>;
  /** The document's own title (first h1, <title>, PDF Info Title): the last fallback for `title`. */
  titleHint: string | null;
}

export type DraftResult = { kind: "ok"; draft: DraftDocument } | { kind: "invalid"; reason: string };
