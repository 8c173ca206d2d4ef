import { chunkLabels, labelSetsOf, type TaxonomyDocument } from "../taxonomy.js";
import { createTaxonomyCache, type TaxonomyCache } from "../taxonomy-cache.js";
import type { Chunk } from "../types.js";
import type { CollectionClient } from "./client.js";
import { requestFilter } from "./filters.js";
import { chunkFromPayload } from "./payload.js";

/** Points read per scroll page when a tenant's taxonomy is built. */
const PAGE = 256;

/**
 * A tenant's taxonomy from its points in the collection, scrolled page by page. Other replicas
 * may change the documents, so a built taxonomy is trusted for `ttlMs` only; this process's own
 * writes invalidate it at once.
 */
export function createQdrantTaxonomy(client: CollectionClient, ttlMs: number): TaxonomyCache {
  return createTaxonomyCache({
    ttlMs,
    async load(tenantId, signal) {
      const documents = new Map<string, TaxonomyDocument & { parts: string[]; labelParts: string[]; chunks: Chunk[] }>();
      let offset: string | number | undefined;
      do {
        const page = await client.scroll(
          "taxonomy scroll",
          { filter: requestFilter({ tenantId }), limit: PAGE, with_payload: true, with_vector: false, ...(offset === undefined ? {} : { offset }) },
          signal,
        );
        for (const point of page.points) {
          const chunk = chunkFromPayload(point.payload);
          if (chunk === null || chunk.tenantId !== tenantId) continue;
          let document = documents.get(chunk.documentId);
          if (document === undefined) {
            document = {
              id: chunk.documentId,
              title: chunk.title,
              product: chunk.product,
              domain: chunk.domain,
              lang: chunk.lang,
              text: "",
              parts: [],
              labelParts: [],
              chunks: [],
            };
            documents.set(chunk.documentId, document);
          }
          document.parts.push(`${chunk.section}\n${chunk.text}`);
          document.labelParts.push(chunkLabels(chunk));
          document.chunks.push(chunk);
        }
        const next = page.next_page_offset;
        offset = typeof next === "string" || typeof next === "number" ? next : undefined;
      } while (offset !== undefined);
      return [...documents.values()].map(({ parts, labelParts, chunks, ...document }) => ({
        ...document,
        text: parts.join("\n"),
        labels: labelParts.join("\n"),
        labelSets: labelSetsOf(chunks),
      }));
    },
  });
}
