import type { Chunk, SourceDocument } from "../../src/retrieval/index.js";

/** A chunk with defaults, for index-level tests that do not go through the chunker. */
export function chunk(documentId: string, text: string, overrides: Partial<Chunk> = {}): Chunk {
  const chunkIndex = overrides.chunkIndex ?? 0;
  return {
    chunkId: `${documentId}#${chunkIndex}`,
    documentId,
    chunkIndex,
    tenantId: "acme",
    title: "",
    product: "p",
    domain: "motor",
    lang: "en",
    section: "",
    text,
    ...overrides,
  };
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
