import type { Block, DocumentWarning, DraftBlock, TableBlock } from "./model.js";
import { collapse, sameText, sentencesOf } from "./text.js";

/**
 * Turns a parser's draft blocks into the model's blocks. Section paths, table captions, list
 * lead-ins and table repairs are decided here, once, for every format: that is what makes a
 * markdown file and its PDF print give the same blocks.
 */

export interface StructureOptions {
  /** The resolved title: a leading heading that repeats it is the title, not a section. */
  title: string;
  /** Rows kept per table; the rest are dropped with a warning. */
  maxTableRows: number;
}

// A label paragraph ("Premium for one adult:", "**Travel prices**") longer than this is prose,
// not a caption.
const MAX_CAPTION_CHARS = 160;
// A short line without a full stop right above a table is its title even when nothing marks it:
// Word and LibreOffice exports turn a <caption> into such a plain centred paragraph.
const MAX_PLAIN_CAPTION_CHARS = 80;

export function buildBlocks(draft: readonly DraftBlock[], options: StructureOptions): { blocks: Block[]; warnings: DocumentWarning[] } {
  const blocks: Block[] = [];
  const warnings: DocumentWarning[] = [];
  const stack: { level: number; text: string }[] = [];
  let seenContent = false;
  let tableCount = 0;
  // The paragraph just emitted (still open to become a caption or a lead-in), with its emphasis.
  let previous: { block: Block & { kind: "paragraph" }; emphasized: boolean } | null = null;

  for (const item of draft) {
    const sectionPath = stack.map((entry) => entry.text);
    switch (item.kind) {
      case "heading": {
        const text = collapse(item.text);
        previous = null;
        if (text === "") break;
        // A leading "# Travel Medical Insurance" repeats the title; as a section it would only
        // prefix every unit with the title.
        if (item.level === 1 && !seenContent && stack.length === 0 && sameText(text, options.title)) break;
        while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= item.level) stack.pop();
        stack.push({ level: item.level, text });
        seenContent = true;
        break;
      }
      case "paragraph": {
        const text = collapse(item.text);
        if (text === "") break;
        const block = { kind: "paragraph" as const, text, sectionPath, page: item.page };
        blocks.push(block);
        previous = { block, emphasized: item.emphasized };
        seenContent = true;
        break;
      }
      case "list": {
        const items = item.items.map(collapse).filter((text) => text !== "");
        if (items.length === 0) break;
        let leadIn: string | null = null;
        if (previous?.block.text.endsWith(":")) {
          // The lead-in is the paragraph's last sentence; earlier sentences stay a paragraph.
          const sentences = sentencesOf(previous.block.text);
          leadIn = sentences.pop() ?? null;
          if (sentences.length === 0) blocks.splice(blocks.indexOf(previous.block), 1);
          else previous.block.text = sentences.join(" ");
        }
        blocks.push({ kind: "list", leadIn, ordered: item.ordered, start: item.start, items, sectionPath, page: item.page });
        previous = null;
        seenContent = true;
        break;
      }
      case "table": {
        tableCount += 1;
        let caption = item.caption === null ? null : collapse(item.caption);
        if (caption === null && previous !== null && isCaption(previous.block.text, previous.emphasized)) {
          caption = previous.block.text.replace(/\s*:$/u, "");
          blocks.splice(blocks.indexOf(previous.block), 1);
        }
        caption = caption || (sectionPath[sectionPath.length - 1] ?? null);
        const table = normalizeTable(item, caption, sectionPath, tableCount, options.maxTableRows, warnings);
        if (table !== null) blocks.push(table);
        previous = null;
        seenContent = true;
        break;
      }
    }
  }
  return { blocks, warnings };
}

function isCaption(text: string, emphasized: boolean): boolean {
  if (text.length <= MAX_PLAIN_CAPTION_CHARS && !/[.!?\u061F\u06D4]$/u.test(text)) return true;
  return text.length <= MAX_CAPTION_CHARS && (emphasized || text.endsWith(":"));
}

function normalizeTable(
  draft: DraftBlock & { kind: "table" },
  caption: string | null,
  sectionPath: string[],
  ordinal: number,
  maxTableRows: number,
  warnings: DocumentWarning[],
): Block | null {
  const label = caption === null ? `table ${ordinal}` : `table ${ordinal} ("${caption.slice(0, 60)}")`;
  const headerRows = draft.headerRows.map((row) => row.map(collapse));
  let rows = draft.bodyRows.map((row) => row.map(collapse)).filter((row) => row.some((cell) => cell !== ""));
  const headerWidth = Math.max(0, ...headerRows.map((row) => row.length));
  if (draft.mergedCells) {
    warnings.push({ code: "merged-cells", message: `${label} has merged cells (colspan/rowspan); each covered cell repeats the merged text` });
  }

  let headers: string[];
  if (headerWidth > 0 && headerRows.some((row) => row.some((cell) => cell !== ""))) {
    headers = Array.from({ length: headerWidth }, (_, column) => joinHeader(headerRows.map((row) => row[column] ?? "")));
  } else {
    const width = Math.max(0, ...rows.map((row) => row.length));
    headers = Array.from({ length: width }, () => "");
    if (rows.length > 0) warnings.push({ code: "no-header-row", message: `${label} has no header row; cells are indexed without column names` });
  }
  if (rows.length === 0) {
    if (headers.every((header) => header === "")) {
      warnings.push({ code: "empty-table", message: `${label} has no text and was skipped` });
      return null;
    }
    // A header without a body is a one-row table written as a header: keep its text.
    warnings.push({ code: "empty-table", message: `${label} has a header row but no body rows; its header is indexed as a paragraph` });
    return { kind: "paragraph", text: headers.filter((h) => h !== "").join(" | "), sectionPath, page: draft.page };
  }

  const width = headers.length;
  const short: number[] = [];
  const long: number[] = [];
  rows = rows.map((row, index) => {
    if (row.length < width) {
      short.push(index + 1);
      return [...row, ...Array.from({ length: width - row.length }, () => "")];
    }
    if (row.length > width) {
      if (row.slice(width).some((cell) => cell !== "")) long.push(index + 1);
      return row.slice(0, width);
    }
    return row;
  });
  if (short.length > 0) {
    warnings.push({ code: "ragged-row", message: `${label}: ${short.length} of ${rows.length} rows have fewer than ${width} cells (padded with empty cells): ${rowList(short)}` });
  }
  if (long.length > 0) {
    warnings.push({
      code: "ragged-row",
      message: `${label}: ${long.length} of ${rows.length} rows have more than ${width} cells (cells past column ${width} dropped): ${rowList(long)}`,
    });
  }
  if (rows.length > maxTableRows) {
    warnings.push({ code: "table-truncated", message: `${label} has ${rows.length} rows; only the first ${maxTableRows} are indexed (maxTableRows)` });
    rows = rows.slice(0, maxTableRows);
  }
  const table: TableBlock = { kind: "table", caption, headers, rows, rowHeaderColumn: rowHeaderColumn(draft.rowHeaderColumn, rows, width), sectionPath, page: draft.page };
  return table;
}

/** Multi-row headers: the column's non-empty parts, a part repeated by a colspan only once. */
function joinHeader(parts: string[]): string {
  const kept: string[] = [];
  for (const part of parts) if (part !== "" && kept[kept.length - 1] !== part) kept.push(part);
  return kept.join(" / ");
}

function rowList(rows: number[]): string {
  const shown = rows
    .slice(0, 5)
    .map((row) => `row ${row}`)
    .join(", ");
  return rows.length > 5 ? `${shown}, …` : shown;
}

/**
 * The first column names its row ("Plan B", "Up to 7 days") when every cell in it has a letter
 * and another column has a value; a first column of numbers is data, not a label.
 */
export function rowHeaderColumn(marked: number | null, rows: string[][], width: number): number | null {
  if (marked !== null && marked < width) return marked;
  if (width < 2) return null;
  const labelled = rows.every((row) => row[0] === "" || /\p{L}/u.test(row[0] ?? ""));
  const hasValues = rows.some((row) => row.slice(1).some((cell) => cell !== ""));
  return labelled && hasValues ? 0 : null;
}
