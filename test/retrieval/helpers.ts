import { contentHash } from "../../src/documents/index.js";
import type { Chunk, SourceDocument } from "../../src/retrieval/index.js";

/**
 * A paragraph chunk with defaults, for index-level tests that do not go through the chunker. Its
 * id is `${documentId}#${chunkIndex}`, readable in assertions: the indexes treat ids as opaque
 * (only parseChunkId, GetChunk and the stores know the content-derived form).
 */
export function chunk(documentId: string, text: string, overrides: Partial<Chunk> = {}): Chunk {
  const chunkIndex = overrides.chunkIndex ?? 0;
  const section = overrides.section ?? "";
  return {
    chunkId: `${documentId}#${chunkIndex}`,
    documentId,
    chunkIndex,
    tenantId: "acme",
    title: "",
    product: "p",
    domain: "motor",
    lang: "en",
    section,
    sectionPath: section === "" ? [] : section.split(" > "),
    text,
    unit: { kind: "paragraph" },
    ...overrides,
  };
}

/** The chunk id the chunker gives a paragraph of `documentId` (the first occurrence of that text). */
export function paragraphId(documentId: string, text: string): string {
  return `${documentId}#${contentHash("paragraph", text)}`;
}

/** A small two-section English document of tenant "acme", for index and ingest tests. */
export function sourceDocument(overrides: Partial<SourceDocument> = {}): SourceDocument {
  return {
    id: "glass-en",
    title: "Glass cover",
    product: "motor-glass",
    domain: "motor",
    lang: "en",
    tenantId: "acme",
    body: "Windshield repair is covered.\n\n## Deductible\n\nThe deductible is 5 percent.",
    ...overrides,
  };
}
