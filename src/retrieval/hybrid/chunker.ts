import type { Chunk, SourceDocument } from "../types.js";

/**
 * Heading-aware chunking. Insurance documents are written as one topic per `##` section
 * ("Deductible", "How to claim"), so sections are the natural retrieval unit: a chunk never
 * spans two sections, and carries its heading path so the reranker and clarify options can
 * use it. Long sections are packed greedily from paragraphs, then sentences, then (for a
 * single overlong sentence) word-bounded fragments.
 */

export interface ChunkerOptions {
  /** Upper bound on a chunk's `text`, in UTF-16 code units. Default 700. */
  maxChars?: number;
  /**
   * The last sentence of a piece is repeated at the start of the next piece of the same
   * section when it is at most this long, so a fact split across a boundary keeps its lead-in.
   * 0 disables overlap. Default 150.
   */
  overlapChars?: number;
}

export interface Chunker {
  readonly maxChars: number;
  /** Chunks in document order; `chunkId` is `${document.id}#${chunkIndex}`. */
  chunk(document: SourceDocument): Chunk[];
}

export function createChunker(options: ChunkerOptions = {}): Chunker {
  const maxChars = options.maxChars ?? 700;
  const overlapChars = options.overlapChars ?? 150;
  if (!Number.isInteger(maxChars) || maxChars < 40) throw new RangeError(`maxChars must be an integer >= 40, got ${maxChars}`);
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars * 2 > maxChars) {
    throw new RangeError(`overlapChars must be an integer in [0, maxChars / 2], got ${overlapChars}`);
  }
  return {
    maxChars,
    chunk(document) {
      const sections = splitSections(document.body, document.title);
      const chunks: Chunk[] = [];
      const title = document.title.trim();
      let titlePending = title !== "";
      for (const section of sections) {
        // The title opens chunk 0 (it is the document's summary line). The first section's
        // units are sized so that the title fits in front of the first one: a chunk holding
        // only the title would be noise that matches every title query.
        const room = maxChars - title.length - 2;
        const titleFits = titlePending && room >= maxChars / 2;
        const units = splitUnits(section.text, titleFits ? room : maxChars);
        if (titlePending && units.length > 0) {
          // `last: ""` keeps the title out of the overlap, which is meant for body sentences.
          units.unshift(...hardSplit(title, maxChars).map((text) => ({ text, sep: "\n\n", last: "" })));
          titlePending = false;
        }
        for (const text of pack(units, maxChars, overlapChars)) {
          const chunkIndex = chunks.length;
          chunks.push({
            chunkId: `${document.id}#${chunkIndex}`,
            documentId: document.id,
            chunkIndex,
            tenantId: document.tenantId,
            title: document.title,
            product: document.product,
            domain: document.domain,
            lang: document.lang,
            section: section.path,
            text,
          });
        }
      }
      return chunks;
    },
  };
}

/**
 * The text both indexes see: the title and heading path as a contextual header, then the
 * chunk. A section chunk like "It is 5% of the claim." only matches "motor deductible" through
 * its header. Chunk 0 already starts with the title, so it is not repeated there.
 */
export function searchableText(chunk: Chunk): string {
  const parts = [chunk.text.startsWith(chunk.title) ? "" : chunk.title, chunk.section, chunk.text];
  return parts.filter((part) => part !== "").join("\n");
}

interface Section {
  /** Heading path, e.g. "Claims > Documents"; "" for the intro before the first heading. */
  path: string;
  text: string;
}

const HEADING = /^(#{1,3})\s+(.*?)\s*#*\s*$/u;
const FENCE = /^\s*(```|~~~)/u;

function splitSections(body: string, title: string): Section[] {
  const sections: Section[] = [{ path: "", text: "" }];
  const lines: string[][] = [[]];
  const stack: { level: number; text: string }[] = [];
  let inFence = false;
  let seenContent = false;
  for (const line of body.split(/\r?\n/u)) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    const headingText = heading?.[2]?.trim() ?? "";
    if (heading === null || headingText === "") {
      lines[lines.length - 1]?.push(line);
      if (line.trim() !== "") seenContent = true;
      continue;
    }
    const level = heading[1]?.length ?? 1;
    // A leading `# Title` repeats the front-matter title: it belongs to the intro, not a section.
    if (level === 1 && !seenContent && stack.length === 0 && sameText(headingText, title)) {
      seenContent = true;
      continue;
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
    stack.push({ level, text: headingText });
    sections.push({ path: stack.map((entry) => entry.text).join(" > "), text: "" });
    lines.push([]);
    seenContent = true;
  }
  return sections.map((section, i) => ({ path: section.path, text: (lines[i] ?? []).join("\n").trim() }));
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A packable piece of a section, with the separator that joins it to the previous unit. */
interface Unit {
  text: string;
  sep: string;
  /** The unit's last full sentence, offered as overlap; "" when it has none (fragments, title). */
  last: string;
}

// Sentence ends: Latin and Arabic full stops and question/exclamation marks, then whitespace.
const SENTENCE_END = /(?<=[.!?\u061F\u06D4])\s+(?=\S)/u;

function splitUnits(text: string, maxChars: number): Unit[] {
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n[ \t]*\n/u)) {
    const trimmed = paragraph.trim();
    if (trimmed === "") continue;
    const sentences = splitPreservingSentences(trimmed);
    if (trimmed.length <= maxChars) {
      units.push({ text: trimmed, sep: "\n\n", last: sentences[sentences.length - 1]?.text ?? "" });
      continue;
    }
    sentences.forEach((sentence, i) => {
      const sep = i === 0 ? "\n\n" : sentence.sep;
      if (sentence.text.length <= maxChars) {
        units.push({ text: sentence.text, sep, last: sentence.text });
        return;
      }
      hardSplit(sentence.text, maxChars).forEach((fragment, j) => {
        units.push({ text: fragment, sep: j === 0 ? sep : " ", last: "" });
      });
    });
  }
  return units;
}

/** Sentences of a paragraph with their separators: "\n" between lines, " " within a line. */
function splitPreservingSentences(paragraph: string): { text: string; sep: string }[] {
  const out: { text: string; sep: string }[] = [];
  for (const line of paragraph.split("\n")) {
    const trimmedLine = line.trim();
    if (trimmedLine === "") continue;
    trimmedLine.split(SENTENCE_END).forEach((sentence, i) => {
      const text = sentence.trim();
      if (text !== "") out.push({ text, sep: i === 0 ? "\n" : " " });
    });
  }
  return out;
}

/** Splits at the last whitespace that keeps each fragment within `maxChars`; a longer word is cut. */
function hardSplit(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > maxChars) {
    let cut = -1;
    for (let i = maxChars; i > 0; i--) {
      if (/\s/u.test(rest[i] ?? "")) {
        cut = i;
        break;
      }
    }
    if (cut <= 0) {
      cut = maxChars;
      // Never cut between the two halves of a surrogate pair.
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== "") out.push(rest);
  return out;
}

/** Greedy packing of units into pieces of at most `maxChars`, with last-sentence overlap. */
function pack(units: Unit[], maxChars: number, overlapChars: number): string[] {
  const pieces: string[] = [];
  let current = "";
  let last = "";
  for (const unit of units) {
    if (current === "") {
      current = unit.text;
      last = unit.last;
      continue;
    }
    const joined = current + unit.sep + unit.text;
    if (joined.length <= maxChars) {
      current = joined;
      last = unit.last;
      continue;
    }
    pieces.push(current);
    const withOverlap = last === "" ? "" : last + unit.sep + unit.text;
    current = last !== "" && last.length <= overlapChars && withOverlap.length <= maxChars ? withOverlap : unit.text;
    last = unit.last;
  }
  if (current.trim() !== "") pieces.push(current);
  return pieces;
}
