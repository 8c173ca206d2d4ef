import type { Chunk } from "../../src/retrieval/types.js";

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
