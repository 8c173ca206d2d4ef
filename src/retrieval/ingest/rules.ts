import type { DocumentWarning } from "../../documents/index.js";
import { searchableText, type Chunker } from "../hybrid/chunker.js";
import type { SourceDocument } from "../types.js";

/** The limits every ingested document is held to (the same for the CLI, the API and the start-up corpus). */
export interface DocumentRules {
  /** The chunker documents will be cut with (FRONTDESK_CHUNK_CHARS, FRONTDESK_MAX_TABLE_ROWS, FRONTDESK_MAX_UNITS). */
  chunker: Chunker;
  /** FRONTDESK_MAX_CHUNK_CHARS: the most text embedded for one chunk (title, heading path, text). */
  maxChunkChars: number;
  /** FRONTDESK_MAX_DOCUMENT_CHARS: a document's (Markdown) body. */
  maxDocumentChars: number;
  /** FRONTDESK_MAX_FILE_BYTES: a document file or an upload's bytes, checked before parsing. */
  maxFileBytes: number;
  /** FRONTDESK_MAX_ID_CHARS: a document's id, product and domain. */
  maxIdChars: number;
}

export type DocumentCheck = { kind: "ok"; chunkCount: number; warnings: DocumentWarning[] } | { kind: "invalid"; field: "title" | "body"; reason: string };

/**
 * Checks an otherwise valid document against the size limits, and chunks it once to do so (a NUL
 * character in the title or body is refused first): the
 * body's length; an unbroken run of characters longer than a chunk (the chunker could only cut
 * it mid-token, and such runs — an inlined image, a table without spaces — are noise in an
 * index, not content); a document with nothing to index (headings only); a chunk whose embedded
 * text (title, heading path and text) exceeds `maxChunkChars`. What the chunker repaired or
 * bounded (a ragged row, a table cut at FRONTDESK_MAX_TABLE_ROWS) comes back as warnings.
 */
export function checkDocument(document: SourceDocument, rules: DocumentRules): DocumentCheck {
  // U+0000 is never text, and PostgreSQL cannot store it: refused here, not half-way through a write.
  for (const field of ["title", "body"] as const) {
    const at = document[field].indexOf("\u0000");
    if (at >= 0) return { kind: "invalid", field, reason: `must not contain U+0000 (at character ${at + 1})` };
  }
  if (document.body.length > rules.maxDocumentChars) {
    return { kind: "invalid", field: "body", reason: `body of ${document.body.length} characters is over the limit of ${rules.maxDocumentChars}` };
  }
  const run = longestRun(document.body);
  if (run > rules.chunker.maxChars) {
    return {
      kind: "invalid",
      field: "body",
      reason: `chunk over the size limit: an unbroken run of ${run} characters cannot fit in a chunk of ${rules.chunker.maxChars}`,
    };
  }
  const { chunks, warnings } = rules.chunker.analyze(document);
  if (chunks.length === 0) return { kind: "invalid", field: "body", reason: "no text to index (headings only?)" };
  for (const chunk of chunks) {
    const length = searchableText(chunk).length;
    if (length > rules.maxChunkChars) {
      return {
        kind: "invalid",
        field: document.title.length + chunk.section.length > rules.maxChunkChars - rules.chunker.maxChars ? "title" : "body",
        reason: `chunk ${chunk.chunkIndex} over the size limit: ${length} characters of title, headings and text (limit ${rules.maxChunkChars})`,
      };
    }
  }
  return { kind: "ok", chunkCount: chunks.length, warnings };
}

/** Warnings of one document from several stages (parsing, chunking), each said once. */
export function mergeWarnings(...lists: readonly (readonly DocumentWarning[])[]): DocumentWarning[] {
  const seen = new Set<string>();
  const out: DocumentWarning[] = [];
  for (const warning of lists.flat()) {
    const key = `${warning.code}\u0000${warning.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(warning);
  }
  return out;
}

function longestRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/\S+/gu)) longest = Math.max(longest, match[0].length);
  return longest;
}
