import { splitSentences } from "../../text/index.js";
import type { EvidenceChunk } from "../roles.js";

/** A sentence of a chunk, with the heading it sits under (context for matching, never quoted). */
export interface ChunkSentence {
  text: string;
  /** Position within the chunk. */
  index: number;
  heading: string;
  /** A markdown list item ("- Thursday: 8:00 to 14:00"). */
  listItem: boolean;
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/u;
const BOLD_HEADING = /^\s*(?:\*\*|__)([^*_]{1,80})(?:\*\*|__)\s*:?\s*$/u;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/u;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/u;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/u;
const HAS_LETTER = /\p{L}/u;
// A question (an FAQ entry's first half) is never a claim; its answer follows it.
const QUESTION = /[?\u061F][*_"'»)\]\s]*$/u;
// "**Can I add my wife?** Yes, …": splitSentences keeps a bold question and its answer together
// (the "?" is followed by "**", not by a space); split them here, after the closing marker.
const AFTER_BOLD_QUESTION = /(?<=[?\u061F!.](?:\*\*|__))\s+(?=\S)/u;

/**
 * Splits a chunk into quotable sentences. Headings, horizontal rules and table separators are
 * structure, not sentences: a heading becomes the context of the sentences below it. Questions
 * (FAQ entries) are skipped too: they state nothing. Sentences are returned exactly as
 * splitSentences yields them (list markers dropped, text untouched), so an extractive answer
 * quotes the document verbatim.
 */
export function chunkSentences(text: string): ChunkSentence[] {
  const out: ChunkSentence[] = [];
  let heading = "";
  for (const line of text.split(/\r?\n/u)) {
    const h = HEADING.exec(line) ?? BOLD_HEADING.exec(line);
    if (h !== null) {
      heading = (h[1] ?? "").trim();
      continue;
    }
    if (RULE.test(line) || TABLE_SEPARATOR.test(line)) continue;
    const listItem = LIST_MARKER.test(line);
    for (const sentence of splitSentences(line).flatMap((s) => s.split(AFTER_BOLD_QUESTION))) {
      if (HAS_LETTER.test(sentence) && !QUESTION.test(sentence)) out.push({ text: sentence, index: out.length, heading, listItem });
    }
  }
  return out;
}

/** True for a sentence that introduces a list ("The call centre opening hours are:"). */
export function introducesList(sentence: string): boolean {
  return /:\s*$/u.test(sentence);
}

/**
 * The heading path of a chunk when the evidence carries one (`section`, as retrieval chunks do),
 * for chunks whose text no longer holds its "## " heading line. EvidenceChunk does not declare
 * the field yet, so it is read defensively.
 */
export function sectionOf(chunk: EvidenceChunk): string {
  const section = "section" in chunk ? chunk.section : undefined;
  return typeof section === "string" ? section : "";
}
