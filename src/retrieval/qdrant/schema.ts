import type { Schemas } from "@qdrant/js-client-rest";
import type { Bm25Parameters } from "../hybrid/bm25.js";
import type { Embedder } from "../types.js";
import { causeChain, CollectionMissingError, statusOf, type CollectionClient } from "./client.js";

/** Vector names in the collection: one dense (the embedder's), one sparse (our analyzer's BM25 terms). */
export const DENSE_VECTOR = "dense";
export const SPARSE_VECTOR = "sparse";

/** Payload fields with an index: the tenant (Qdrant's multitenancy index), and the filters. */
export const PAYLOAD_INDEXES: readonly { field: string; schema: Schemas["PayloadFieldSchema"] }[] = [
  { field: "tenant_id", schema: { type: "keyword", is_tenant: true } },
  { field: "domain", schema: "keyword" },
  { field: "document_id", schema: "keyword" },
  { field: "chunk_index", schema: "integer" },
  // Payload version 2: GetChunk by id, a row hit's table, and reads of the current version only.
  { field: "chunk_id", schema: "keyword" },
  { field: "table", schema: "keyword" },
  { field: "payload_version", schema: "integer" },
];

/** Bumped when the sparse weighting or the analyzer changes incompatibly: old points would score wrong. */
export const SPARSE_SCHEME = "frontdesk-bm25-fnv1a32-v1";

/** The collection exists with a schema this configuration cannot use (a start-up error). */
export class CollectionSchemaError extends Error {
  override readonly name = "CollectionSchemaError";
}

/** How the sparse vectors are weighted: recorded in the collection, checked on every start. */
export interface SparseWeighting {
  /** BM25 average chunk length (analyzer terms). */
  averageLength: number;
  bm25: Bm25Parameters;
  /** Text → sparse terms (terms, then concept tokens: HybridSettings.terms). */
  terms: (text: string) => string[];
}

/** What a collection records about the vectors it holds (its `metadata.frontdesk`). */
export interface CollectionRecord {
  embedder: string;
  dimension: number;
  sparse: string;
  k1: number;
  b: number;
  averageLength: number;
}

export function collectionRecord(embedder: Embedder, weighting: SparseWeighting): CollectionRecord {
  const { bm25, averageLength } = weighting;
  return { embedder: embedder.id, dimension: embedder.dimension, sparse: SPARSE_SCHEME, k1: bm25.k1, b: bm25.b, averageLength };
}

/**
 * Creates the collection (vectors, sparse vectors with the IDF modifier, payload indexes,
 * metadata) or checks that an existing one matches `record`; CollectionSchemaError on a mismatch.
 */
export async function ensureCollection(client: CollectionClient, embedder: Embedder, record: CollectionRecord, signal?: AbortSignal, attempt = 1): Promise<"created" | "verified"> {
  const { api, collection } = client;
  let info: Schemas["CollectionInfo"] | null;
  try {
    info = await client.call<Schemas["CollectionInfo"]>("get collection", (init) => api.getCollection({ collection_name: collection }, init), signal);
  } catch (error) {
    if (!(error instanceof CollectionMissingError)) throw error;
    info = null;
  }
  if (info === null) {
    try {
      await client.call<boolean>(
        "create collection",
        (init) =>
          api.createCollection(
            {
              collection_name: collection,
              vectors: { [DENSE_VECTOR]: { size: embedder.dimension, distance: "Cosine" } },
              sparse_vectors: { [SPARSE_VECTOR]: { modifier: "idf" } },
              metadata: { frontdesk: record },
            },
            init,
          ),
        signal,
      );
    } catch (error) {
      // Another replica created it in between: check what it created (once).
      if (attempt > 1 || statusOf(causeChain(error)) !== 409) throw error;
      return ensureCollection(client, embedder, record, signal, attempt + 1);
    }
    for (const index of PAYLOAD_INDEXES) await createIndex(client, index, signal);
    return "created";
  }
  checkSchema(info, collection, embedder, record);
  const existing = new Set(Object.keys(info.payload_schema ?? {}));
  for (const index of PAYLOAD_INDEXES) if (!existing.has(index.field)) await createIndex(client, index, signal);
  return "verified";
}

async function createIndex(client: CollectionClient, index: (typeof PAYLOAD_INDEXES)[number], signal?: AbortSignal): Promise<void> {
  await client.call<Schemas["UpdateResult"]>(
    `create payload index ${index.field}`,
    (init) => client.api.createFieldIndex({ collection_name: client.collection, wait: true, field_name: index.field, field_schema: index.schema }, init),
    signal,
  );
}

function checkSchema(info: Schemas["CollectionInfo"], collection: string, embedder: Embedder, expected: CollectionRecord): void {
  const vectors = info.config.params.vectors;
  const dense =
    vectors !== undefined && vectors !== null && typeof vectors === "object" && DENSE_VECTOR in vectors
      ? (vectors as Record<string, Schemas["VectorParams"]>)[DENSE_VECTOR]
      : undefined;
  if (dense === undefined) {
    throw new CollectionSchemaError(
      `Qdrant collection ${collection} has no dense vector named "${DENSE_VECTOR}": it was not created by frontdesk; set FRONTDESK_QDRANT_COLLECTION to another name`,
    );
  }
  if (dense.size !== embedder.dimension) {
    throw new CollectionSchemaError(
      `Qdrant collection ${collection} stores ${dense.size}-dimensional vectors, but the configured embedder (${embedder.id}) makes ${embedder.dimension}-dimensional ones: ` +
        "set FRONTDESK_EMBEDDING_DIMENSION to match, or use a new FRONTDESK_QDRANT_COLLECTION and ingest again",
    );
  }
  if (dense.distance !== "Cosine") throw new CollectionSchemaError(`Qdrant collection ${collection} uses ${dense.distance} distance; frontdesk needs Cosine`);
  const sparse = info.config.params.sparse_vectors?.[SPARSE_VECTOR];
  if (sparse === undefined || sparse.modifier !== "idf") {
    throw new CollectionSchemaError(`Qdrant collection ${collection} has no sparse vector "${SPARSE_VECTOR}" with the idf modifier`);
  }
  const recorded = info.config.metadata?.["frontdesk"];
  if (typeof recorded === "object" && recorded !== null) {
    const fields = new Map(Object.entries(recorded));
    if (fields.get("embedder") !== expected.embedder) {
      throw new CollectionSchemaError(
        `Qdrant collection ${collection} was filled with embedder ${String(fields.get("embedder"))}, but ${expected.embedder} is configured: vectors of different models cannot be compared`,
      );
    }
    for (const key of ["sparse", "k1", "b", "averageLength"] as const) {
      if (fields.get(key) !== expected[key]) {
        throw new CollectionSchemaError(
          `Qdrant collection ${collection} was filled with sparse weights ${key}=${String(fields.get(key))}, but ${String(expected[key])} is configured`,
        );
      }
    }
  }
}
