import { toAsciiDigits } from "../text/normalize.js";
import type { DraftBlock } from "./model.js";

/**
 * Rebuilds structure from positioned PDF text, which has none of its own: items on one baseline
 * form a line; a line set larger than the body text is a heading (the largest size is level 1);
 * a line opening with a bullet or "1." is a list item; two or more consecutive lines whose items
 * fall into two or more columns separated by wide gaps are a table, its first line the header.
 * Right-to-left lines (Persian) are read from the right, columns included. A line repeated at the
 * same height on most pages (a running header, "Page 3 of 9") is page furniture and dropped; a
 * table cut by a page break is joined again, its repeated header row dropped.
 *
 * Known limits, inherent to text layers: headings set in bold at body size are not detected
 * (pdf.js exposes no font weight); a Latin phrase split into several runs inside a Persian line
 * comes out in run order reversed; and a lam-alef ligature ("لا") whose ToUnicode entry is
 * reversed with its right-to-left run comes out as "ال" (LibreOffice's PDFs do this, in pdf.js
 * and poppler alike), which cannot be told apart from a real "ال" afterwards.
 */

export interface PageItem {
  text: string;
  /** Left edge and baseline, in PDF units (y grows upwards). */
  x: number;
  y: number;
  width: number;
  /** Font size in PDF units. */
  size: number;
}

interface Line {
  page: number;
  y: number;
  size: number;
  rtl: boolean;
  /** Runs of text separated by column-wide gaps, in reading order. */
  segments: { text: string; x0: number; x1: number }[];
  text: string;
}

// A gap wider than this many font sizes separates columns (a word space is about a quarter).
const COLUMN_GAP = 1.5;
// Narrower than this is no space at all: a run split inside a word (often at a ZWNJ).
const NO_GAP = 0.12;
const HEADING_RATIO = 1.15;
const MARKER = /^(?:[•◦▪▫●○■□‣⁃∙·*\-–—\uE000-\uF8FF]|\(?[0-9\u06F0-\u06F9]{1,3}[.)])\s*/u;
const ARABIC_LETTER = /[\u0620-\u064A\u066E-\u06D3\u06FA-\u06FF]/u;
const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
const LTR_CHAR = /[A-Za-z\u00C0-\u024F]/gu;

export function layoutPages(pages: PageItem[][]): DraftBlock[] {
  const lines = withoutFurniture(pages.map((items, index) => linesOf(items, index + 1)));
  if (lines.length === 0) return [];
  const body = bodySize(lines);
  const headingSizes = [...new Set(lines.filter((line) => line.size >= body * HEADING_RATIO).map((line) => round(line.size)))].sort((a, b) => b - a);
  const lineGap = typicalGap(lines, body);

  const blocks: DraftBlock[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as Line;
    const page = line.page;
    const next = (j: number): Line | undefined => {
      const candidate = lines[j];
      return candidate !== undefined && candidate.page === page ? candidate : undefined;
    };
    const gapTo = (a: Line, b: Line): number => a.y - b.y;

    if (line.size >= body * HEADING_RATIO) {
      const parts = [line.text];
      let j = i + 1;
      for (let n = next(j); n !== undefined && round(n.size) === round(line.size) && gapTo(lines[j - 1] as Line, n) <= line.size * 1.6; n = next(++j)) parts.push(n.text);
      blocks.push({ kind: "heading", level: Math.min(6, headingSizes.indexOf(round(line.size)) + 1), text: parts.join(" "), page });
      i = j;
      continue;
    }

    if (MARKER.test(line.text)) {
      const ordered = /^\(?[0-9\u06F0-\u06F9]/u.test(line.text);
      const items: string[] = [];
      let j = i;
      let previous: Line | undefined;
      for (let n: Line | undefined = line; n !== undefined; n = next(j)) {
        // A change of marker (bullets, then numbers) starts another list.
        const isItem = MARKER.test(n.text) && n.size < body * HEADING_RATIO && /^\(?[0-9\u06F0-\u06F9]/u.test(n.text) === ordered;
        const gap = previous === undefined ? 0 : gapTo(previous, n);
        if (isItem && (previous === undefined || gap <= lineGap * 2.2)) {
          items.push(n.text.replace(MARKER, ""));
        } else if (!isItem && previous !== undefined && n.segments.length === 1 && n.size < body * HEADING_RATIO && gap <= lineGap * 1.3 && indented(n, line)) {
          items[items.length - 1] += ` ${n.text}`;
        } else break;
        previous = n;
        j += 1;
      }
      const first = /^\(?([0-9\u06F0-\u06F9]{1,3})/u.exec(line.text)?.[1];
      const start = ordered && first !== undefined ? Number(toAsciiDigits(first)) : null;
      blocks.push({ kind: "list", ordered, start, items, page });
      i = j;
      continue;
    }

    if (line.segments.length >= 2) {
      let j = i + 1;
      let lastRow = line;
      for (let n = next(j); n !== undefined && !MARKER.test(n.text) && n.size < body * HEADING_RATIO; n = next(++j)) {
        const gap = gapTo(lines[j - 1] as Line, n);
        if (!(n.segments.length >= 2 ? gap <= lineGap * 3 : gap <= lineGap * 1.25 && wrappedCell(n, lastRow))) break;
        if (n.segments.length >= 2) lastRow = n;
      }
      if (lines.slice(i, j).filter((candidate) => candidate.segments.length >= 2).length >= 2) {
        const rows = tableRows(lines.slice(i, j));
        const last = blocks[blocks.length - 1];
        if (last?.kind === "table" && last.page !== page && last.headerRows[0]?.length === rows[0]?.length) {
          // The same table continued on the next page, often under a repeated header row.
          const repeated = rows[0]?.join("\u0000") === last.headerRows[0]?.join("\u0000");
          last.bodyRows.push(...rows.slice(repeated ? 1 : 0));
        } else {
          blocks.push({ kind: "table", caption: null, headerRows: rows.slice(0, 1), bodyRows: rows.slice(1), rowHeaderColumn: null, mergedCells: false, page });
        }
        i = j;
        continue;
      }
    }

    const parts = [line.text];
    let j = i + 1;
    for (
      let n = next(j);
      n !== undefined && n.size < body * HEADING_RATIO && n.segments.length === 1 && !MARKER.test(n.text) && gapTo(lines[j - 1] as Line, n) <= lineGap * 1.3;
      n = next(++j)
    )
      parts.push(n.text);
    blocks.push({ kind: "paragraph", text: parts.join(" "), emphasized: false, page });
    i = j;
  }
  return blocks;
}

/**
 * Drops page furniture: with three pages or more, a page's top or bottom line whose text (digits
 * ignored, so "Page 2" matches "Page 3") recurs at the same height on more than half of the
 * pages. Only the outermost lines are candidates: a table header repeated on every page is text.
 */
function withoutFurniture(pages: Line[][]): Line[] {
  if (pages.length < 3) return pages.flat();
  const key = (line: Line): string => `${Math.round(line.y)}\u0000${line.text.replace(/[0-9\u06F0-\u06F9]+/gu, "#")}`;
  const outermost = (page: Line[]): Line[] => [...new Set([page[0], page[page.length - 1]])].filter((line): line is Line => line !== undefined);
  const counts = new Map<string, number>();
  for (const page of pages) for (const k of new Set(outermost(page).map(key))) counts.set(k, (counts.get(k) ?? 0) + 1);
  return pages.flatMap((page) => {
    const furniture = new Set(outermost(page).filter((line) => (counts.get(key(line)) ?? 0) > pages.length / 2));
    return page.filter((line) => !furniture.has(line));
  });
}

/** Items on one baseline (within 40% of the font size), split into column segments. */
function linesOf(items: PageItem[], page: number): Line[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: PageItem[][] = [];
  for (const item of sorted) {
    const group = groups[groups.length - 1];
    const first = group?.[0];
    if (group !== undefined && first !== undefined && Math.abs(first.y - item.y) <= Math.max(first.size, item.size) * 0.4) group.push(item);
    else groups.push([item]);
  }
  return groups.map((group) => {
    const text = group.map((item) => item.text).join("");
    const rtl = (text.match(RTL_CHAR)?.length ?? 0) > (text.match(LTR_CHAR)?.length ?? 0);
    const size = Math.max(...group.map((item) => item.size));
    // Reading order: from the left for LTR, from the right for RTL. pdf.js already gives each
    // item's own characters in logical order.
    const ordered = [...group].sort((a, b) => (rtl ? b.x + b.width - (a.x + a.width) : a.x - b.x));
    const segments: Line["segments"] = [];
    let current: { parts: string[]; x0: number; x1: number } | null = null;
    let last: PageItem | null = null;
    for (const item of ordered) {
      const gap = last === null ? 0 : rtl ? last.x - (item.x + item.width) : item.x - (last.x + last.width);
      if (current === null || gap > size * COLUMN_GAP) {
        if (current !== null) segments.push({ text: current.parts.join("").trim(), x0: current.x0, x1: current.x1 });
        current = { parts: [item.text], x0: item.x, x1: item.x + item.width };
      } else {
        current.parts.push(joiner(current.parts[current.parts.length - 1] ?? "", item.text, gap, size), item.text);
        current.x0 = Math.min(current.x0, item.x);
        current.x1 = Math.max(current.x1, item.x + item.width);
      }
      last = item;
    }
    if (current !== null) segments.push({ text: current.parts.join("").trim(), x0: current.x0, x1: current.x1 });
    const kept = segments.filter((segment) => segment.text !== "");
    return { page, y: group[0]?.y ?? 0, size, rtl, segments: kept, text: kept.map((segment) => segment.text).join(" ") };
  });
}

/**
 * What separates two runs of one line: a space for a word gap, nothing for a run split inside a
 * word, and a ZWNJ where that split is between two Persian letters (writers split runs at the
 * ZWNJ of "می‌پردازد" and drop it from the text layer).
 */
function joiner(before: string, after: string, gap: number, size: number): string {
  if (/\s$/u.test(before) || /^\s/u.test(after)) return "";
  if (gap >= size * NO_GAP) return " ";
  return ARABIC_LETTER.test(before.slice(-1)) && ARABIC_LETTER.test(after.slice(0, 1)) ? "\u200C" : "";
}

/** Column cells of a run of table lines: columns from the lines with the most segments. */
function tableRows(lines: Line[]): string[][] {
  const width = Math.max(...lines.map((line) => line.segments.length));
  const full = lines.filter((line) => line.segments.length === width);
  const spans = Array.from({ length: width }, (_, k) => ({
    x0: Math.min(...full.map((line) => line.segments[k]?.x0 ?? Infinity)),
    x1: Math.max(...full.map((line) => line.segments[k]?.x1 ?? -Infinity)),
  }));
  return lines.map((line) => {
    if (line.segments.length === width) return line.segments.map((segment) => segment.text);
    // A short row (an empty cell, a header spanning columns): place each run by position.
    const cells = Array.from({ length: width }, () => "");
    for (const segment of line.segments) {
      const centre = (segment.x0 + segment.x1) / 2;
      let best = 0;
      spans.forEach((span, k) => {
        const distance = centre < span.x0 ? span.x0 - centre : centre > span.x1 ? centre - span.x1 : 0;
        const bestSpan = spans[best] as { x0: number; x1: number };
        const bestDistance = centre < bestSpan.x0 ? bestSpan.x0 - centre : centre > bestSpan.x1 ? centre - bestSpan.x1 : 0;
        if (distance < bestDistance) best = k;
      });
      cells[best] = cells[best] === "" ? segment.text : `${cells[best]} ${segment.text}`;
    }
    return cells;
  });
}

/**
 * A one-run line inside a table that starts exactly where a cell other than the first starts in
 * the row above: the wrapped end of a long cell. It stays in the table (as a row with an empty
 * label) instead of ending it, which would make the next row the header of a new table. A
 * paragraph after a table starts at the margin, not at a cell's edge.
 */
function wrappedCell(line: Line, above: Line): boolean {
  const segment = line.segments[0];
  if (segment === undefined) return false;
  const edge = (s: { x0: number; x1: number }): number => (above.rtl ? s.x1 : s.x0);
  return above.segments.slice(1).some((cell) => Math.abs(edge(cell) - edge(segment)) <= 1.5);
}

/** A continuation line of a list item starts at least as far in as the item's text. */
function indented(line: Line, item: Line): boolean {
  const start = (l: Line): number => (l.rtl ? -(l.segments[0]?.x1 ?? 0) : (l.segments[0]?.x0 ?? 0));
  return start(line) >= start(item) - 1;
}

/** The most common font size, weighted by characters: the body text. */
function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) weight.set(round(line.size), (weight.get(round(line.size)) ?? 0) + line.text.length);
  return [...weight.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 12;
}

/** The most common baseline distance between consecutive body lines: single line spacing. */
function typicalGap(lines: Line[], body: number): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1] as Line, lines[i] as Line];
    if (a.page !== b.page || round(a.size) !== body || round(b.size) !== body) continue;
    const gap = round(a.y - b.y);
    if (gap > 0 && gap < body * 3) counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? body * 1.2;
}

function round(value: number): number {
  return Math.round(value * 2) / 2;
}
