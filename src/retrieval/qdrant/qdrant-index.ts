import type { Schemas } from "@qdrant/js-client-rest";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../../dependency/retry.js";
import type { DocumentIndex } from "../document-index.js";
import { resolveHybridOptions, type HybridRetrievalOptions } from "../hybrid/options.js";
import { createLexicalReranker } from "../rerank/lexical.js";
import type { Retriever } from "../types.js";
import { createCollectionClient } from "./client.js";
import { outdatedFilter } from "./filters.js";
import { createQdrantReader } from "./reads.js";
import { createQdrantTaxonomy } from "./taxonomy.js";
import { collectionRecord, ensureCollection, type SparseWeighting } from "./schema.js";
import { createQdrantWriter } from "./writes.js";

export { CollectionSchemaError } from "./schema.js";

/**
 * Qdrant cannot report document frequencies, so the default lexical reranker here takes its
 * term statistics from the candidate set (`candidateTermStats`); `candidates` is per prefetch.
 */
export interface QdrantIndexOptions extends HybridRetrievalOptions {
  /** e.g. http://127.0.0.1:6333 */
  url: string;
  /** Sent as the `api-key` header. */
  apiKey?: string;
  collection: string;
  /** BM25 average chunk length (analyzer terms) for sparse weights. Default 60. */
  sparseAverageLength?: number;
  /** Points per upsert request. Default 128. */
  upsertPoints?: number;
  /** One request's time limit. Default 10000 ms. */
  timeoutMs?: number;
  /** Retries of failed requests (all requests here are idempotent). Default DEFAULT_RETRY_POLICY. */
  retry?: RetryPolicy;
  /** How long a tenant's taxonomy is trusted before it is read again (other replicas write too). Default 60000 ms. */
  taxonomyTtlMs?: number;
}

export interface QdrantIndex extends Retriever, DocumentIndex {
  /**
   * Creates the collection (vectors, sparse vectors with the IDF modifier, payload indexes,
   * metadata) or checks that an existing one matches this configuration. Throws
   * CollectionSchemaError on a mismatch. Call once at start-up.
   */
  ensureCollection(signal?: AbortSignal): Promise<"created" | "verified">;
  /**
   * About how many points were written with another payload version (an older frontdesk): they
   * are not served until their documents are upserted again. 0 for a current collection.
   */
  countOutdated(signal?: AbortSignal): Promise<number>;
}

/**
 * The Qdrant backend: chunks as points with a named dense vector and a named sparse vector (our
 * analyzer's BM25 term weights; Qdrant's `idf` modifier supplies the IDF), one Query API call per
 * retrieval, then the reranker, then one scroll for neighbouring chunks. Every search and scroll
 * carries the tenant filter. The same `Retriever` contract as the embedded index.
 */
export function createQdrantIndex(options: QdrantIndexOptions): QdrantIndex {
  const { embedder, reranker, candidates, rrfK, context, minScore, productDiversity, chunker, bm25, terms, instructions } = resolveHybridOptions(options);
  const weighting: SparseWeighting = { averageLength: options.sparseAverageLength ?? 60, bm25, terms };
  const client = createCollectionClient({
    url: options.url,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    collection: options.collection,
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: options.retry ?? DEFAULT_RETRY_POLICY,
  });
  const record = collectionRecord(embedder, weighting);
  const reader = createQdrantReader({ client, embedder, reranker: reranker ?? createLexicalReranker({ terms }), candidates, rrfK, context, minScore, productDiversity, terms });
  const writer = createQdrantWriter({ client, embedder, chunker, weighting, upsertPoints: options.upsertPoints ?? 128, instructions });
  const taxonomies = createQdrantTaxonomy(client, options.taxonomyTtlMs ?? 60_000);
  return {
    ensureCollection: (signal) => ensureCollection(client, embedder, record, signal),
    countOutdated: async (signal) =>
      (
        await client.call<Schemas["CountResult"]>(
          "count",
          (init) => client.api.countPoints({ collection_name: client.collection, filter: outdatedFilter(), exact: false }, init),
          signal,
        )
      ).count,
    retrieve: reader.retrieve,
    listDocuments: reader.listDocuments,
    getChunk: reader.getChunk,
    taxonomy: (tenantId, signal) => taxonomies.get(tenantId, signal),
    async upsert(documents, signal) {
      try {
        return await writer.upsert(documents, signal);
      } finally {
        for (const tenantId of new Set(documents.map((d) => d.tenantId))) taxonomies.invalidate(tenantId);
      }
    },
    async remove(tenantId, documentId, signal) {
      try {
        return await writer.remove(tenantId, documentId, signal);
      } finally {
        taxonomies.invalidate(tenantId);
      }
    },
  };
}
