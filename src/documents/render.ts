import type { Block, TableBlock } from "./model.js";
import { rowHeaderColumn } from "./structure.js";

/**
 * Blocks back to Markdown, so a document from any format can be stored and re-chunked as
 * Markdown: parsing the result with the markdown parser gives the same blocks, hence the same
 * units and unit ids (pages excepted: Markdown has none). That is what lets the document stores
 * keep one text body for every format instead of the uploaded bytes.
 *
 * - Headings are written where a block's section path changes, one level below their depth
 *   (top sections as "##"); a return to a shallower section repeats its heading.
 * - A list's lead-in is a paragraph ending in ":" right before it; two lists in a row are kept
 *   apart by an empty HTML comment (Markdown would merge them).
 * - A table is a GFM table with its caption as a bold line before it. When GFM cannot say what
 *   the table says — a caption too long to read as a label, or a row-header column the markdown
 *   parser would not infer — it is written as an HTML table (`<caption>`, `<th>` row headers),
 *   which Markdown allows and the markdown parser reads through its HTML path.
 * - Text is escaped wherever Markdown would read it as markup, so it comes back verbatim.
 */
export function renderMarkdown(blocks: readonly Block[]): string {
  const out: string[] = [];
  let path: readonly string[] = [];
  let previous: Block["kind"] | null = null;
  // Top sections are written as "##": a leading "#" equal to the title would be read as the
  // title, not a section. Only a document nested six deep needs "#" for its top sections.
  const offset = Math.max(0, ...blocks.map((block) => block.sectionPath.length)) < 6 ? 1 : 0;
  for (const block of blocks) {
    for (const heading of headingsBetween(path, block.sectionPath, offset)) out.push(heading);
    if (!samePath(path, block.sectionPath)) previous = null;
    path = block.sectionPath;
    switch (block.kind) {
      case "paragraph":
        out.push(escapeBlockStart(escapeInline(block.text)));
        break;
      case "list": {
        if (block.leadIn !== null) out.push(escapeBlockStart(escapeInline(block.leadIn)));
        else if (previous === "list") out.push("<!-- -->");
        const start = block.start ?? 1;
        out.push(block.items.map((item, i) => `${block.ordered ? `${start + i}.` : "-"} ${escapeBlockStart(escapeInline(item))}`).join("\n"));
        break;
      }
      case "table":
        out.push(...renderTable(block));
        break;
    }
    previous = block.kind;
  }
  return out.length === 0 ? "" : `${out.join("\n\n")}\n`;
}

// The longest bold line the structure builder still reads as a caption (structure.ts).
const MAX_BOLD_CAPTION_CHARS = 160;

function renderTable(table: TableBlock): string[] {
  const gfm = (table.caption === null || table.caption.length <= MAX_BOLD_CAPTION_CHARS) && rowHeaderColumn(null, table.rows, table.headers.length) === table.rowHeaderColumn;
  if (!gfm) return [htmlTable(table)];
  // escapeInline escapes "|" too, which is how GFM keeps a pipe inside a cell.
  const row = (cells: readonly string[]): string => `| ${cells.map(escapeInline).join(" | ")} |`;
  const lines = [row(table.headers), `| ${table.headers.map(() => "---").join(" | ")} |`, ...table.rows.map(row)];
  return table.caption === null ? [lines.join("\n")] : [`**${escapeInline(table.caption)}**`, lines.join("\n")];
}

function htmlTable(table: TableBlock): string {
  // Spaces between cells and a line per row: the markup never makes a long unbroken run (which
  // ingestion would refuse), and an HTML block ends only at a blank line.
  const cells = (row: readonly string[], head: boolean): string =>
    row.map((text, column) => (head || column === table.rowHeaderColumn ? `<th>${escapeHtml(text)}</th>` : `<td>${escapeHtml(text)}</td>`)).join(" ");
  const caption = table.caption === null ? [] : [`<caption>${escapeHtml(table.caption)}</caption>`];
  const body = table.rows.map((row) => `<tr> ${cells(row, false)} </tr>`);
  // The header row is always written (empty cells included): without a <thead> the HTML path
  // would guess whether the first body row is a header.
  return ["<table>", ...caption, `<thead> <tr> ${cells(table.headers, true)} </tr> </thead>`, "<tbody>", ...body, "</tbody>", "</table>"].join("\n");
}

function headingsBetween(from: readonly string[], to: readonly string[], offset: number): string[] {
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common += 1;
  // Back to an enclosing section (a shorter path): its heading again closes the deeper ones.
  if (common === to.length && to.length < from.length) common = to.length - 1;
  const out: string[] = [];
  // Markdown has six heading levels; the structure builder never nests deeper.
  for (let depth = Math.max(0, common); depth < to.length; depth++) out.push(`${"#".repeat(Math.min(depth + 1 + offset, 6))} ${escapeInline(to[depth] ?? "")}`);
  return out;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/** Backslash-escapes the ASCII punctuation Markdown reads as inline markup anywhere in a line. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>&#|~]/gu, (char) => `\\${char}`);
}

/** Escapes what only opens a block at the start of a line: list markers, "1." and "1)". */
function escapeBlockStart(text: string): string {
  return text.replace(/^([-+=])/u, "\\$1").replace(/^(\d{1,9})([.)])/u, "$1\\$2");
}

function escapeHtml(text: string): string {
  return text.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");
}
