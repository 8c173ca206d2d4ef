import type { Element, ElementContent, Root, RootContent } from "hast";
import { fromHtml } from "hast-util-from-html";
import type { DocumentWarning, DraftBlock, DraftDocument, MetadataField } from "./model.js";
import { METADATA_FIELDS } from "./model.js";
import { collapse, flattenList, type ListTree } from "./text.js";

/**
 * HTML through hast-util-from-html (parse5, the WHATWG algorithm browsers use, so broken markup
 * is repaired the way a browser shows it). Site chrome (nav, footer, aside, scripts, forms) is
 * not document text. Metadata may be embedded as `<meta name="frontdesk:product" content="…">`
 * (one per field), the HTML counterpart of front matter, so a CMS export needs no sidecar.
 */
export function parseHtml(text: string): DraftDocument {
  const tree = fromHtml(text);
  const walker = new Walker();
  walker.container(tree);
  walker.flush();
  const h1 = walker.blocks.find((block) => block.kind === "heading" && block.level === 1);
  const titleHint = walker.title ?? (h1?.kind === "heading" ? collapse(h1.text) : null);
  return { blocks: walker.blocks, warnings: walker.warnings, embedded: walker.embedded, titleHint };
}

const SKIPPED = new Set(["script", "style", "noscript", "template", "nav", "footer", "aside", "form", "button", "select", "svg", "iframe", "object"]);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
// Elements that end a run of loose inline text; everything else is inline (span, a, strong, …).
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "body",
  "html",
  "blockquote",
  "figure",
  "figcaption",
  "ul",
  "ol",
  "dl",
  "table",
  "pre",
  "li",
  "hr",
  "address",
  "details",
  "summary",
  ...Object.keys(HEADINGS),
]);
// The HTML standard's own caps: a hostile colspan="100000" must not build a 100,000-cell row.
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

class Walker {
  readonly blocks: DraftBlock[] = [];
  readonly warnings: DocumentWarning[] = [];
  readonly embedded: Partial<Record<MetadataField, string>> = {};
  title: string | null = null;
  private inline: string[] = [];

  container(node: Root | Element): void {
    for (const child of node.children as (RootContent | ElementContent)[]) {
      if (child.type === "text") this.inline.push(child.value);
      else if (child.type === "element") this.element(child);
    }
  }

  flush(): void {
    const text = collapse(this.inline.join(""));
    this.inline = [];
    if (text !== "") this.blocks.push({ kind: "paragraph", text, emphasized: false, page: null });
  }

  private element(node: Element): void {
    const tag = node.tagName;
    if (tag === "head") {
      this.head(node);
      return;
    }
    if (SKIPPED.has(tag)) return;
    if (!BLOCKS.has(tag)) {
      this.inline.push(tag === "br" ? " " : textOf(node));
      return;
    }
    this.flush();
    const level = HEADINGS[tag];
    if (level !== undefined) {
      this.blocks.push({ kind: "heading", level, text: textOf(node), page: null });
    } else if (tag === "p" || tag === "pre" || tag === "li" || tag === "address" || tag === "summary") {
      this.blocks.push({ kind: "paragraph", text: textOf(node), emphasized: isEmphasized(node), page: null });
    } else if (tag === "ul" || tag === "ol") {
      this.blocks.push({ kind: "list", ordered: tag === "ol", start: tag === "ol" ? startOf(node) : null, items: flattenList(listTree(node)), page: null });
    } else if (tag === "dl") {
      this.blocks.push({ kind: "list", ordered: false, start: null, items: definitionItems(node), page: null });
    } else if (tag === "table") {
      this.table(node, null);
    } else if (tag === "figure") {
      this.figure(node);
    } else if (tag !== "hr") {
      this.container(node);
      this.flush();
    }
  }

  private head(node: Element): void {
    for (const child of elements(node)) {
      if (child.tagName === "title") this.title = collapse(textOf(child)) || null;
      const name = String(child.properties["name"] ?? "");
      const match = /^frontdesk:(.+)$/u.exec(name);
      const field = match?.[1];
      if (child.tagName === "meta" && field !== undefined && (METADATA_FIELDS as readonly string[]).includes(field)) {
        this.embedded[field as MetadataField] = String(child.properties["content"] ?? "");
      }
    }
  }

  /** A figure holding a table: its figcaption is the table's caption. */
  private figure(node: Element): void {
    const table = elements(node).find((child) => child.tagName === "table");
    if (table === undefined) {
      this.container(node);
      this.flush();
      return;
    }
    const caption = elements(node).find((child) => child.tagName === "figcaption");
    this.table(table, caption === undefined ? null : textOf(caption));
  }

  private table(node: Element, figureCaption: string | null): void {
    const captionElement = elements(node).find((child) => child.tagName === "caption");
    const caption = captionElement === undefined ? figureCaption : textOf(captionElement);
    const rowElements: { row: Element; head: boolean }[] = [];
    for (const child of elements(node)) {
      if (child.tagName === "tr") rowElements.push({ row: child, head: false });
      if (child.tagName === "thead" || child.tagName === "tbody" || child.tagName === "tfoot") {
        for (const row of elements(child)) if (row.tagName === "tr") rowElements.push({ row, head: child.tagName === "thead" });
      }
    }
    const { grid, merged } = expandSpans(rowElements.map(({ row }) => row));
    let headerCount = rowElements.findIndex(({ head }) => !head);
    if (headerCount < 0) headerCount = rowElements.length;
    if (headerCount === 0) {
      while (headerCount < grid.length && (grid[headerCount] ?? []).every((cell) => cell.th)) headerCount += 1;
      if (headerCount === grid.length) headerCount = Math.min(1, grid.length);
    }
    if (headerCount === 0 && looksLikeHeader(grid)) headerCount = 1;
    const body = grid.slice(headerCount);
    const rowHeads = body.length > 0 && body.every((row) => row[0]?.th === true && row.some((cell) => !cell.th));
    this.blocks.push({
      kind: "table",
      caption,
      headerRows: grid.slice(0, headerCount).map((row) => row.map((cell) => cell.text)),
      bodyRows: body.map((row) => row.map((cell) => cell.text)),
      rowHeaderColumn: rowHeads ? 0 : null,
      mergedCells: merged,
      page: null,
    });
  }
}

interface GridCell {
  text: string;
  th: boolean;
}

/** Rows with colspan/rowspan expanded: a merged cell's text fills every slot it covers. */
function expandSpans(rows: Element[]): { grid: GridCell[][]; merged: boolean } {
  const grid: GridCell[][] = rows.map(() => []);
  let merged = false;
  rows.forEach((row, r) => {
    const out = grid[r] ?? [];
    let column = 0;
    for (const cell of elements(row)) {
      if (cell.tagName !== "td" && cell.tagName !== "th") continue;
      while (out[column] !== undefined) column += 1;
      const colspan = clampSpan(cell.properties["colSpan"], MAX_COLSPAN);
      const rowspan = Math.min(clampSpan(cell.properties["rowSpan"], MAX_ROWSPAN), rows.length - r);
      if (colspan > 1 || rowspan > 1) merged = true;
      const value = { text: textOf(cell), th: cell.tagName === "th" };
      for (let dr = 0; dr < rowspan; dr++) {
        const target = grid[r + dr] ?? [];
        for (let dc = 0; dc < colspan; dc++) target[column + dc] = value;
      }
      column += colspan;
    }
  });
  // Holes left by a rowspan that overlapped a later row's cells stay empty, never undefined.
  return { grid: grid.map((row) => Array.from(row, (cell) => cell ?? { text: "", th: false })), merged };
}

/** `<ol start="4">`: the first item's number (1 when absent or not a number). */
function startOf(list: Element): number {
  const start = Number.parseInt(String(list.properties["start"] ?? "1"), 10);
  return Number.isInteger(start) ? start : 1;
}

function clampSpan(value: unknown, max: number): number {
  const n = typeof value === "number" ? value : Number.parseInt(String(value ?? "1"), 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : 1;
}

/** An all-<td> first row is a header when it has only words and a later row has a number. */
function looksLikeHeader(grid: GridCell[][]): boolean {
  const [first, ...rest] = grid;
  if (first === undefined || rest.length === 0) return false;
  const words = first.every((cell) => cell.text.trim() !== "" && !/\p{N}/u.test(cell.text));
  return words && rest.some((row) => row.some((cell) => /\p{N}/u.test(cell.text)));
}

function listTree(list: Element): ListTree {
  return {
    ordered: list.tagName === "ol",
    items: elements(list)
      .filter((item) => item.tagName === "li")
      .map((item) => {
        const nested = elements(item).filter((child) => child.tagName === "ul" || child.tagName === "ol");
        return {
          text: item.children
            .filter((child) => !nested.includes(child as Element))
            .map(textOf)
            .join(" "),
          lists: nested.map(listTree),
        };
      }),
  };
}

/** `<dt>Deductible</dt><dd>5%</dd>` → "Deductible: 5%". */
function definitionItems(list: Element): string[] {
  const items: string[] = [];
  let term: string | null = null;
  for (const child of elements(list)) {
    if (child.tagName === "dt") {
      if (term !== null) items.push(term);
      term = collapse(textOf(child));
    } else if (child.tagName === "dd") {
      const definition = collapse(textOf(child));
      items.push(term === null ? definition : `${term}: ${definition}`);
      term = null;
    }
  }
  if (term !== null) items.push(term);
  return items;
}

function isEmphasized(node: Element): boolean {
  const meaningful = node.children.filter((child) => child.type === "element" || (child.type === "text" && child.value.trim() !== ""));
  const only = meaningful[0];
  return meaningful.length === 1 && only?.type === "element" && ["strong", "b", "em", "i"].includes(only.tagName);
}

function elements(node: Element | Root): Element[] {
  return (node.children as (RootContent | ElementContent)[]).filter((child): child is Element => child.type === "element");
}

/** The text of a subtree; block boundaries inside it (cells with paragraphs) become spaces. */
function textOf(node: ElementContent | RootContent): string {
  if (node.type === "text") return node.value;
  if (node.type !== "element") return "";
  if (SKIPPED.has(node.tagName)) return "";
  if (node.tagName === "br") return " ";
  const inner = node.children.map(textOf).join("");
  return BLOCKS.has(node.tagName) || node.tagName === "td" || node.tagName === "th" ? ` ${inner} ` : inner;
}
