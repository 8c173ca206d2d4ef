import { searchableText, type Chunker } from "../hybrid/chunker.js";
import type { SourceDocument } from "../types.js";

/** The size limits every ingested document is held to (the same for the CLI and the API). */
export interface DocumentRules {
  /** The chunker documents will be cut with. */
  chunker: Chunker;
  /** FRONTDESK_MAX_CHUNK_CHARS: the most text embedded for one chunk (title, heading path, text). */
  maxChunkChars: number;
  /** FRONTDESK_MAX_DOCUMENT_CHARS: a document's body. */
  maxDocumentChars: number;
}

export interface DocumentProblem {
  field: "title" | "body";
  reason: string;
}

/**
 * Size problems of an otherwise valid document, or null. A chunk is "over the size limit" when
 * its embedded text (title, heading path and text) exceeds `maxChunkChars`, or when the body holds
 * an unbroken run of characters longer than a chunk: the chunker could only cut it mid-token, and
 * such runs (an inlined image, a table without spaces) are noise in an index, not content.
 */
export function checkDocumentSize(document: SourceDocument, rules: DocumentRules): DocumentProblem | null {
  if (document.body.length > rules.maxDocumentChars) {
    return { field: "body", reason: `body of ${document.body.length} characters is over the limit of ${rules.maxDocumentChars}` };
  }
  const run = longestRun(document.body);
  if (run > rules.chunker.maxChars) {
    return {
      field: "body",
      reason: `chunk over the size limit: an unbroken run of ${run} characters cannot fit in a chunk of ${rules.chunker.maxChars}`,
    };
  }
  for (const chunk of rules.chunker.chunk(document)) {
    const length = searchableText(chunk).length;
    if (length > rules.maxChunkChars) {
      return {
        field: document.title.length + chunk.section.length > rules.maxChunkChars - rules.chunker.maxChars ? "title" : "body",
        reason: `chunk ${chunk.chunkIndex} over the size limit: ${length} characters of title, headings and text (limit ${rules.maxChunkChars})`,
      };
    }
  }
  return null;
}

function longestRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/\S+/gu)) longest = Math.max(longest, match[0].length);
  return longest;
}
