import { createHash } from "node:crypto";
import { normalizeText } from "../text/normalize.js";
import type { Block, DocumentWarning, ParsedDocument } from "./model.js";
import { splitToFit } from "./text.js";

/**
 * Blocks → retrievable units, each one citable on its own: a paragraph (long ones split at
 * sentences), a list item with its heading and lead-in ("What is not covered — Travel insurance
 * does not pay for: Lost cash."), a table row with its caption, row label and column headers
 * ("Premium for one adult — Plan B — Up to 7 days: 35; 8 to 15 days: 49"). Rows and items keep
 * their structure too, for callers that render or filter them.
 *
 * Unit ids are `<documentId>#<hash of kind + normalised text>`, so they survive edits elsewhere
 * in the document and an id never names different text: editing a unit's text gives it a new
 * id. A text repeated in one document gets `-2`, `-3`… by occurrence.
 */

export interface UnitOptions {
  /** Longest unit text, in UTF-16 code units (FRONTDESK_CHUNK_CHARS). Default 700. */
  maxUnitChars?: number;
  /** Units kept per document; the rest are dropped with a warning. Default 5000. */
  maxUnits?: number;
}

interface UnitBase {
  id: string;
  documentId: string;
  /** Position in the document (0-based), for neighbours; not part of the id. */
  order: number;
  text: string;
  sectionPath: string[];
  page: number | null;
}

export type Unit =
  | (UnitBase & { kind: "paragraph" })
  | (UnitBase & { kind: "item"; leadIn: string | null; item: string; ordered: boolean; position: number })
  | (UnitBase & {
      kind: "row";
      /** `<documentId>:t<n>`, n the table's position among the document's tables (from 1): shared by the rows of one table. */
      table: string;
      caption: string | null;
      rowLabel: string | null;
      cells: { header: string; value: string }[];
      /** The column that names the row (its cell is `rowLabel`), or null. */
      rowHeaderColumn: number | null;
    });

export type UnitKind = Unit["kind"];

type Draft = Unit extends infer U ? (U extends Unit ? Omit<U, "id" | "documentId" | "order"> : never) : never;

const SEPARATOR = " — ";

export function toUnits(document: ParsedDocument, options: UnitOptions = {}): { units: Unit[]; warnings: DocumentWarning[] } {
  const maxUnitChars = options.maxUnitChars ?? 700;
  const maxUnits = options.maxUnits ?? 5000;
  if (!Number.isInteger(maxUnitChars) || maxUnitChars < 40) throw new RangeError(`maxUnitChars must be an integer >= 40, got ${maxUnitChars}`);
  if (!Number.isInteger(maxUnits) || maxUnits < 1) throw new RangeError(`maxUnits must be a positive integer, got ${maxUnits}`);

  const documentId = document.metadata.id;
  const units: Unit[] = [];
  const seen = new Map<string, number>();
  const warnings: DocumentWarning[] = [];
  let tables = 0;
  for (const block of document.blocks) {
    if (block.kind === "table") tables += 1;
    for (const draft of unitsOf(block, maxUnitChars, `${documentId}:t${tables}`)) {
      if (units.length === maxUnits) {
        warnings.push({ code: "units-truncated", message: `document has more than ${maxUnits} units; only the first ${maxUnits} are indexed (maxUnits)` });
        return { units, warnings };
      }
      const hash = contentHash(draft.kind, draft.text);
      const occurrence = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, occurrence);
      const id = `${documentId}#${hash}${occurrence > 1 ? `-${occurrence}` : ""}`;
      units.push({ ...draft, id, documentId, order: units.length } as Unit);
    }
  }
  return { units, warnings };
}

/** 12 hex digits (48 bits) of SHA-256: collisions within one document are negligible. */
export function contentHash(kind: UnitKind, text: string): string {
  return createHash("sha256")
    .update(`${kind}\u0000${normalizeText(text)}`)
    .digest("hex")
    .slice(0, 12);
}

function unitsOf(block: Block, maxChars: number, table: string): Draft[] {
  const base = { sectionPath: block.sectionPath, page: block.page };
  switch (block.kind) {
    case "paragraph":
      return splitToFit(block.text, maxChars).map((text) => ({ ...base, kind: "paragraph", text }));
    case "list": {
      const heading = block.sectionPath[block.sectionPath.length - 1] ?? null;
      return block.items.flatMap((item, index) => {
        const numbered = block.ordered ? `${(block.start ?? 1) + index}. ${item}` : item;
        const body = block.leadIn === null ? numbered : `${block.leadIn} ${numbered}`;
        const prefix = heading === null ? "" : `${heading}${SEPARATOR}`;
        return fitWithPrefix(prefix, body, maxChars).map((text) => ({
          ...base,
          kind: "item" as const,
          text,
          leadIn: block.leadIn,
          item,
          ordered: block.ordered,
          position: index + 1,
        }));
      });
    }
    case "table":
      return block.rows.flatMap((row) => {
        const cells = block.headers.map((header, column) => ({ header, value: row[column] ?? "" }));
        const rowLabel = block.rowHeaderColumn === null ? null : (row[block.rowHeaderColumn] ?? "") || null;
        const prefix = [block.caption, rowLabel].filter((part): part is string => part !== null && part !== "").join(SEPARATOR);
        const values = cells
          .filter((cell, column) => column !== block.rowHeaderColumn && cell.value !== "")
          .map((cell) => (cell.header === "" ? cell.value : `${cell.header}: ${cell.value}`));
        return rowTexts(prefix, values, maxChars).map((text) => ({
          ...base,
          kind: "row" as const,
          text,
          table,
          caption: block.caption,
          rowLabel,
          cells,
          rowHeaderColumn: block.rowHeaderColumn,
        }));
      });
  }
}

/** A row's cells joined by "; " after its prefix; a row too long for one unit is split by cells. */
function rowTexts(prefix: string, values: string[], maxChars: number): string[] {
  if (values.length === 0) return prefix === "" ? [] : [prefix];
  const lead = prefix === "" ? "" : `${prefix}${SEPARATOR}`;
  const out: string[] = [];
  let current: string[] = [];
  for (const value of values) {
    const candidate = [...current, value].join("; ");
    if (current.length > 0 && lead.length + candidate.length > maxChars) {
      out.push(lead + current.join("; "));
      current = [];
    }
    current.push(value);
  }
  out.push(lead + current.join("; "));
  return out.flatMap((text) => (text.length <= maxChars ? [text] : fitWithPrefix("", text, maxChars)));
}

/** `prefix + body` in pieces of at most `maxChars`, the prefix repeated on every piece. */
function fitWithPrefix(prefix: string, body: string, maxChars: number): string[] {
  // A prefix that leaves less than half a unit for the body is dropped rather than repeated.
  const usable = prefix.length <= maxChars / 2 ? prefix : "";
  return splitToFit(body, maxChars - usable.length).map((piece) => usable + piece);
}
