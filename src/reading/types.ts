import type { Language } from "../text/language.js";

/**
 * What the reader reads: a retrieved unit with its document metadata and, for table rows and
 * list items, their structure. Built from retrieval chunks; retrieval never depends on this.
 */
export type UnitShape =
  | { kind: "paragraph" }
  | { kind: "item"; leadIn: string | null; item: string }
  | {
      kind: "row";
      /** Rows of one table share it (document id + the table's position). */
      table: string;
      caption: string | null;
      rowLabel: string | null;
      /** Every cell of the row with its column header, the row label's own cell included. */
      cells: ReadonlyArray<{ header: string; value: string }>;
      /** Which of `cells` is the row label, or null. */
      rowHeaderColumn: number | null;
    };

export interface ReadingUnit {
  chunkId: string;
  documentId: string;
  title: string;
  product: string;
  domain: string;
  lang: Language;
  /** Headings above the unit, outermost first. */
  sectionPath: readonly string[];
  /** The unit as indexed and cited (a row rendered with its caption and headers). */
  text: string;
  /** Retrieval's relevance score (0..1); neighbours carry their hit's. */
  score: number;
  /** The unit's place in its document (lists are read in document order). */
  position?: number;
  shape: UnitShape;
}

/** One sentence of an answer and the chunks that state it. */
export interface ReaderClaim {
  text: string;
  chunkIds: string[];
}

/** An option of a clarifying question: a product, or a row or column label of a table. */
export interface ReaderOption {
  label: string;
  documentId: string;
  product: string;
  domain: string;
  title: string;
}
