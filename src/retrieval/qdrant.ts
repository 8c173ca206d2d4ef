import { createHash } from "node:crypto";
import { QdrantClient, type Schemas } from "@qdrant/js-client-rest";
import { DependencyError } from "../dependency/errors.js";
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from "../dependency/retry.js";
import { isLanguage } from "../text/language.js";
import { analyze } from "../text/analysis/index.js";
import { createChunker, searchableText } from "./chunker.js";
import {
  pageTokenField,
  encodePageToken,
  parseChunkId,
  type DocumentIndex,
  type DocumentSummary,
  type RemoveOutcome,
  type UpsertOutcome,
} from "./document-index.js";
import { hashContent, type HybridRetrievalOptions } from "./embedded.js";
import { embedQueryWith, type Embedder } from "./embedding.js";
import { createLexicalReranker } from "./rerank.js";
import { bm25Idf, DEFAULT_BM25, documentSparseVector, querySparseVector, type Bm25Parameters, type SparseVector, type TermStats } from "./sparse.js";
import { RetrievalUnavailableError, type Chunk, type RetrievalRequest, type RetrievalResult, type RetrievedChunk, type Retriever, type SourceDocument } from "./types.js";

/** Vector names in the collection: one dense (the embedder's), one sparse (our analyzer's BM25 terms). */
export const DENSE_VECTOR = "dense";
export const SPARSE_VECTOR = "sparse";

/** Payload fields with an index: the tenant (Qdrant's multitenancy index), and the filters. */
export const PAYLOAD_INDEXES: readonly { field: string; schema: Schemas["PayloadFieldSchema"] }[] = [
  { field: "tenant_id", schema: { type: "keyword", is_tenant: true } },
  { field: "domain", schema: "keyword" },
  { field: "document_id", schema: "keyword" },
  { field: "chunk_index", schema: "integer" },
];

/** Bumped when the sparse weighting or the analyzer changes incompatibly: old points would score wrong. */
export const SPARSE_SCHEME = "frontdesk-bm25-fnv1a32-v1";

/**
 * Qdrant cannot report document frequencies, so the default lexical reranker here takes its
 * term statistics from the candidate set (see below); `candidates` is per prefetch.
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
}

export interface QdrantIndex extends Retriever, DocumentIndex {
  /**
   * Creates the collection (vectors, sparse vectors with the IDF modifier, payload indexes,
   * metadata) or checks that an existing one matches this configuration. Throws
   * CollectionSchemaError on a mismatch. Call once at start-up.
   */
  ensureCollection(signal?: AbortSignal): Promise<"created" | "verified">;
}

/** The collection exists with a schema this configuration cannot use (a start-up error). */
export class CollectionSchemaError extends Error {
  override readonly name = "CollectionSchemaError";
}

/** The Qdrant point id of a chunk: a UUID derived from tenant and chunk id, so re-ingestion overwrites. */
export function pointId(tenantId: string, chunkId: string): string {
  const hex = createHash("sha256").update(`${tenantId}\u0000${chunkId}`, "utf8").digest("hex").slice(0, 32).split("");
  // RFC 4122 layout: version 5-style nibble and the variant bits.
  hex[12] = "5";
  hex[16] = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface ChunkPayload {
  tenant_id: string;
  document_id: string;
  chunk_id: string;
  chunk_index: number;
  /** Chunks of the document: chunk 0 doubles as the document's record (listings, change detection). */
  chunk_count: number;
  title: string;
  product: string;
  domain: string;
  lang: string;
  section: string;
  text: string;
  /** hashContent of the whole document; written on chunk 0 last, so it marks a complete write. */
  content_hash: string;
  source: string | null;
}

export function chunkPayload(chunk: Chunk, chunkCount: number, contentHash: string, source: string | undefined): ChunkPayload {
  return {
    tenant_id: chunk.tenantId,
    document_id: chunk.documentId,
    chunk_id: chunk.chunkId,
    chunk_index: chunk.chunkIndex,
    chunk_count: chunkCount,
    title: chunk.title,
    product: chunk.product,
    domain: chunk.domain,
    lang: chunk.lang,
    section: chunk.section,
    text: chunk.text,
    content_hash: contentHash,
    source: source ?? null,
  };
}

/** A chunk from a point's payload; null when the payload is not one frontdesk wrote. */
export function chunkFromPayload(payload: unknown): Chunk | null {
  if (typeof payload !== "object" || payload === null) return null;
  const p = new Map(Object.entries(payload));
  const text = (key: string): string | null => {
    const value = p.get(key);
    return typeof value === "string" ? value : null;
  };
  const chunkIndex = p.get("chunk_index");
  const [tenantId, documentId, chunkId, title, product, domain, lang, section, body] = [
    "tenant_id",
    "document_id",
    "chunk_id",
    "title",
    "product",
    "domain",
    "lang",
    "section",
    "text",
  ].map(text);
  if (tenantId == null || documentId == null || chunkId == null || title == null || product == null || domain == null || section == null || body == null) return null;
  if (typeof chunkIndex !== "number" || !Number.isInteger(chunkIndex) || lang == null || !isLanguage(lang)) return null;
  return { chunkId, documentId, chunkIndex, tenantId, title, product, domain, lang, section, text: body };
}

/**
 * Term statistics of a candidate set, for the lexical reranker's IDF. Qdrant applies IDF inside
 * the sparse search but does not expose document frequencies, so the reranker weighs query terms
 * by how rare they are among the candidates: the terms that tell candidates apart weigh most.
 */
export function candidateTermStats(candidates: readonly Chunk[]): TermStats {
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const chunk of candidates) {
    const terms = [...analyze(`${chunk.title}\n${chunk.section}`), ...analyze(chunk.text)];
    totalLength += terms.length;
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const documentCount = candidates.length;
  const documentFrequency = (term: string): number => df.get(term) ?? 0;
  return {
    documentCount,
    averageLength: documentCount === 0 ? 0 : totalLength / documentCount,
    documentFrequency,
    idf: (term) => bm25Idf(documentCount, documentFrequency(term)),
  };
}

type Filter = Schemas["Filter"];
type Condition = Schemas["Condition"];

const match = (key: string, value: string): Condition => ({ key, match: { value } });

/** The filter of every search: the tenant always, then the request's domain and documents. */
export function requestFilter(request: Pick<RetrievalRequest, "tenantId" | "domain" | "documentIds">): Filter {
  const must: Condition[] = [match("tenant_id", request.tenantId)];
  if (request.domain !== undefined && request.domain !== "") must.push(match("domain", request.domain));
  if (request.documentIds !== undefined) must.push({ key: "document_id", match: { any: [...request.documentIds] } });
  return { must };
}

/**
 * The one Query API request of a retrieval: a sparse and a dense prefetch, each filtered, fused by
 * RRF on the server. Qdrant's RRF ranks from 0 (score 1 / (k + position)), so the paper's k (ranks
 * from 1) is sent as k + 1 to score exactly as the embedded index's `rrf`. A prefetch whose query
 * vector is empty (no analyzer terms; the zero vector) is left out: it can match nothing.
 */
export function queryRequest(
  request: Pick<RetrievalRequest, "tenantId" | "domain" | "documentIds">,
  vectors: { sparse: SparseVector; dense: Float32Array },
  options: { candidates: number; rrfK: number },
): Schemas["QueryRequest"] {
  const filter = requestFilter(request);
  const prefetch: Schemas["Prefetch"][] = [];
  if (vectors.sparse.indices.length > 0) prefetch.push({ query: { indices: vectors.sparse.indices, values: vectors.sparse.values }, using: SPARSE_VECTOR, filter, limit: options.candidates });
  if (vectors.dense.some((value) => value !== 0)) prefetch.push({ query: Array.from(vectors.dense), using: DENSE_VECTOR, filter, limit: options.candidates });
  return { prefetch, query: { rrf: { k: options.rrfK + 1 } }, filter, limit: options.candidates, with_payload: true, with_vector: false };
}

/**
 * The Qdrant backend: chunks as points with a named dense vector and a named sparse vector (our
 * analyzer's BM25 term weights; Qdrant's `idf` modifier supplies the IDF), one Query API call per
 * retrieval, then the reranker, then one scroll for neighbouring chunks. Every search and scroll
 * carries the tenant filter. The same `Retriever` contract as the embedded index.
 */
export function createQdrantIndex(options: QdrantIndexOptions): QdrantIndex {
  const { embedder, collection } = options;
  const candidates = options.candidates ?? 30;
  const rrfK = options.rrfK ?? 60;
  const contextWindow = options.contextWindow ?? 1;
  const minScore = options.minScore ?? 0;
  const upsertPoints = options.upsertPoints ?? 128;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const averageLength = options.sparseAverageLength ?? 60;
  const bm25: Bm25Parameters = { k1: options.bm25?.k1 ?? DEFAULT_BM25.k1, b: options.bm25?.b ?? DEFAULT_BM25.b };
  const chunker = options.chunker !== undefined && "chunk" in options.chunker ? options.chunker : createChunker(options.chunker);
  if (!Number.isInteger(candidates) || candidates < 1) throw new RangeError(`candidates must be a positive integer, got ${candidates}`);
  if (!Number.isInteger(contextWindow) || contextWindow < 0) throw new RangeError(`contextWindow must be an integer >= 0, got ${contextWindow}`);

  // The client's own timeout would replace the caller's signal; ours combines both (see `call`).
  const client = new QdrantClient({
    url: options.url,
    timeout: Number.POSITIVE_INFINITY,
    checkCompatibility: false,
    ...(options.apiKey === undefined ? {} : { headers: { "api-key": options.apiKey } }),
  });
  const api = client.api();
  const metadata = {
    frontdesk: { embedder: embedder.id, dimension: embedder.dimension, sparse: SPARSE_SCHEME, k1: bm25.k1, b: bm25.b, averageLength },
  };

  /**
   * One request with the time limit and the caller's signal, retried on timeouts, 429 and 5xx.
   * Failures come out as RetrievalUnavailableError (an abort stays the caller's reason).
   */
  const call = async <T>(what: string, run: (init: RequestInit) => Promise<{ data: { result?: T | null } }>, signal?: AbortSignal): Promise<T> => {
    try {
      return await withRetry(
        async () => {
          const timeout = AbortSignal.timeout(timeoutMs);
          try {
            const response = await run({ signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
            const result = response.data.result;
            if (result === undefined || result === null) throw new DependencyError("malformed_output", "qdrant", `Qdrant ${what}: response without a result`);
            return result;
          } catch (error) {
            if (signal?.aborted === true) throw signal.reason;
            throw classify(what, error, timeout.aborted);
          }
        },
        retry,
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof DependencyError && error.kind === "client" && statusOf(error.cause) === 404) throw new CollectionMissingError(collection, { cause: error });
      throw new RetrievalUnavailableError(`Qdrant ${what} failed`, { cause: error });
    }
  };

  const scroll = (what: string, request: Schemas["ScrollRequest"], signal?: AbortSignal) =>
    call<Schemas["ScrollResult"]>(what, (init) => api.scrollPoints({ collection_name: collection, ...request }, init), signal);

  const upsert = (points: Schemas["PointStruct"][], signal?: AbortSignal) =>
    call<Schemas["UpdateResult"]>("upsert", (init) => api.upsertPoints({ collection_name: collection, wait: true, points }, init), signal);

  const deleteWhere = (filter: Filter, signal?: AbortSignal) =>
    call<Schemas["UpdateResult"]>("delete", (init) => api.deletePoints({ collection_name: collection, wait: true, filter }, init), signal);

  /** Chunk 0 of each document (the document records), for change detection. */
  const documentRecords = async (tenantId: string, documentIds: readonly string[], signal?: AbortSignal): Promise<Map<string, DocumentRecord>> => {
    const records = new Map<string, DocumentRecord>();
    if (documentIds.length === 0) return records;
    const result = await scroll(
      "scroll",
      {
        filter: { must: [match("tenant_id", tenantId), { key: "chunk_index", match: { value: 0 } }, { key: "document_id", match: { any: [...documentIds] } }] },
        limit: documentIds.length,
        with_payload: ["document_id", "content_hash", "chunk_count"],
        with_vector: false,
      },
      signal,
    );
    for (const point of result.points) {
      const payload = point.payload ?? {};
      const documentId = payload["document_id"];
      const contentHash = payload["content_hash"];
      const chunkCount = payload["chunk_count"];
      if (typeof documentId === "string" && typeof contentHash === "string" && typeof chunkCount === "number") {
        records.set(documentId, { contentHash, chunkCount });
      }
    }
    return records;
  };

  const toPoint = (chunk: Chunk, vector: Float32Array, chunkCount: number, contentHash: string, source: string | undefined): Schemas["PointStruct"] => {
    const sparse = documentSparseVector(searchableText(chunk), averageLength, bm25);
    const vectors: Record<string, number[] | SparseVector> = {};
    if (vector.some((value) => value !== 0)) vectors[DENSE_VECTOR] = Array.from(vector);
    if (sparse.indices.length > 0) vectors[SPARSE_VECTOR] = sparse;
    return { id: pointId(chunk.tenantId, chunk.chunkId), vector: vectors, payload: { ...chunkPayload(chunk, chunkCount, contentHash, source) } };
  };

  const embedPassages = async (texts: string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    if (texts.length === 0) return [];
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(texts, signal);
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      throw new RetrievalUnavailableError("embedding failed", { cause: error });
    }
    if (vectors.length !== texts.length || vectors.some((vector) => vector.length !== embedder.dimension)) {
      throw new RetrievalUnavailableError(`embedder returned vectors that do not match ${texts.length} texts of dimension ${embedder.dimension}`);
    }
    return vectors;
  };

  const upsertTenantBatch = async (tenantId: string, documents: readonly SourceDocument[], signal?: AbortSignal): Promise<Map<SourceDocument, UpsertOutcome>> => {
    const outcomes = new Map<SourceDocument, UpsertOutcome>();
    const existing = await documentRecords(tenantId, documents.map((document) => document.id), signal);
    const changed: { document: SourceDocument; contentHash: string; chunks: Chunk[]; previousCount: number | undefined }[] = [];
    for (const document of documents) {
      const contentHash = hashContent(document);
      const record = existing.get(document.id);
      if (record?.contentHash === contentHash) {
        outcomes.set(document, { documentId: document.id, status: "unchanged", chunkCount: record.chunkCount });
        continue;
      }
      changed.push({ document, contentHash, chunks: chunker.chunk(document), previousCount: record?.chunkCount });
    }
    const vectors = await embedPassages(changed.flatMap((item) => item.chunks.map(searchableText)), signal);
    let offset = 0;
    const bodies: Schemas["PointStruct"][] = [];
    const markers: Schemas["PointStruct"][] = [];
    for (const item of changed) {
      const { document, contentHash, chunks } = item;
      for (const [i, chunk] of chunks.entries()) {
        const point = toPoint(chunk, vectors[offset + i] ?? new Float32Array(embedder.dimension), chunks.length, contentHash, document.source);
        (chunk.chunkIndex === 0 ? markers : bodies).push(point);
      }
      offset += chunks.length;
    }
    // Chunks first, then the stale tail of shorter new versions, then chunk 0 (which carries the
    // content hash): an interrupted write leaves the old hash, so the next ingest redoes it.
    for (let i = 0; i < bodies.length; i += upsertPoints) await upsert(bodies.slice(i, i + upsertPoints), signal);
    for (const item of changed) {
      if (item.previousCount === undefined || item.previousCount <= item.chunks.length) continue;
      await deleteWhere(
        { must: [match("tenant_id", tenantId), match("document_id", item.document.id), { key: "chunk_index", range: { gte: item.chunks.length } }] },
        signal,
      );
    }
    for (let i = 0; i < markers.length; i += upsertPoints) await upsert(markers.slice(i, i + upsertPoints), signal);
    for (const item of changed) {
      outcomes.set(item.document, { documentId: item.document.id, status: item.previousCount === undefined ? "added" : "replaced", chunkCount: item.chunks.length });
    }
    return outcomes;
  };

  const neighbors = async (tenantId: string, hits: readonly Chunk[], signal?: AbortSignal): Promise<Map<string, Chunk[]>> => {
    const byDocument = new Map<string, Chunk[]>();
    if (contextWindow === 0 || hits.length === 0) return byDocument;
    const should: Condition[] = hits.map((chunk) => ({
      must: [match("document_id", chunk.documentId), { key: "chunk_index", range: { gte: Math.max(0, chunk.chunkIndex - contextWindow), lte: chunk.chunkIndex + contextWindow } }],
    }));
    const result = await scroll("neighbour scroll", { filter: { must: [match("tenant_id", tenantId)], should }, limit: hits.length * (2 * contextWindow + 1), with_payload: true, with_vector: false }, signal);
    for (const point of result.points) {
      const chunk = chunkFromPayload(point.payload);
      // The filter already holds the tenant; checked again so a server-side bug cannot leak text.
      if (chunk === null || chunk.tenantId !== tenantId) continue;
      const list = byDocument.get(chunk.documentId) ?? [];
      list.push(chunk);
      byDocument.set(chunk.documentId, list);
    }
    for (const list of byDocument.values()) list.sort((a, b) => a.chunkIndex - b.chunkIndex);
    return byDocument;
  };

  return {
    ensureCollection: (signal) => ensureCollection(signal),

    async retrieve(request, signal): Promise<RetrievalResult> {
      if (typeof request.tenantId !== "string" || request.tenantId === "") throw new RangeError("retrieve: tenantId is required");
      if (!Number.isInteger(request.topK) || request.topK < 1) throw new RangeError(`retrieve: topK must be a positive integer, got ${request.topK}`);
      signal?.throwIfAborted();
      if (request.documentIds !== undefined && request.documentIds.length === 0) return { hits: [] };

      let dense: Float32Array | undefined;
      try {
        [dense] = await embedQueryWith(embedder, request.query, signal);
      } catch (error) {
        if (signal?.aborted === true) throw signal.reason;
        throw new RetrievalUnavailableError("embedding failed", { cause: error });
      }
      if (dense === undefined || dense.length !== embedder.dimension) throw new RetrievalUnavailableError(`embedder returned a query vector that is not of dimension ${embedder.dimension}`);
      const body = queryRequest(request, { sparse: querySparseVector(request.query), dense }, { candidates, rrfK });
      if (body.prefetch === undefined || (Array.isArray(body.prefetch) && body.prefetch.length === 0)) return { hits: [] };

      const result = await call<Schemas["QueryResponse"]>("query", (init) => api.queryPoints({ collection_name: collection, ...body }, init), signal);
      const fused: { chunk: Chunk; score: number }[] = [];
      for (const point of result.points) {
        const chunk = chunkFromPayload(point.payload);
        if (chunk === null) throw new RetrievalUnavailableError(`Qdrant returned point ${String(point.id)} without a frontdesk payload`);
        if (chunk.tenantId !== request.tenantId) continue;
        fused.push({ chunk, score: point.score });
      }
      signal?.throwIfAborted();

      const chunks = fused.map((item) => item.chunk);
      const reranker = options.reranker ?? createLexicalReranker({ termStats: () => candidateTermStats(chunks) });
      let rerankScores: number[];
      try {
        rerankScores = chunks.length === 0 ? [] : await reranker.rerank(request.query, chunks, request.language === undefined ? {} : { language: request.language }, signal);
      } catch (error) {
        if (signal?.aborted === true) throw signal.reason;
        throw new RetrievalUnavailableError("reranking failed", { cause: error });
      }
      if (rerankScores.length !== chunks.length) throw new RetrievalUnavailableError(`reranker returned ${rerankScores.length} scores for ${chunks.length} candidates`);

      const order = fused.map((_, i) => i).sort((a, b) => (rerankScores[b] ?? 0) - (rerankScores[a] ?? 0));
      const kept: { chunk: Chunk; fusedScore: number; score: number }[] = [];
      for (const i of order) {
        if (kept.length === request.topK) break;
        const item = fused[i];
        const score = rerankScores[i] ?? 0;
        if (item === undefined || score < minScore) continue;
        kept.push({ chunk: item.chunk, fusedScore: item.score, score });
      }
      const expansion = await neighbors(request.tenantId, kept.map((item) => item.chunk), signal);
      const hits: RetrievedChunk[] = kept.map(({ chunk, fusedScore, score }) => ({
        chunk,
        score,
        stages: { fusedScore, rerankScore: score },
        neighbors: (expansion.get(chunk.documentId) ?? []).filter(
          (other) => other.chunkIndex !== chunk.chunkIndex && Math.abs(other.chunkIndex - chunk.chunkIndex) <= contextWindow,
        ),
      }));
      return { hits };
    },

    async upsert(documents, signal) {
      signal?.throwIfAborted();
      const outcomes = new Map<SourceDocument, UpsertOutcome>();
      // Within one call a repeated id is applied in order, as separate calls would be.
      let group: SourceDocument[] = [];
      const keys = new Set<string>();
      const flush = async () => {
        const byTenant = new Map<string, SourceDocument[]>();
        for (const document of group) byTenant.set(document.tenantId, [...(byTenant.get(document.tenantId) ?? []), document]);
        for (const [tenantId, batch] of byTenant) for (const [document, outcome] of await upsertTenantBatch(tenantId, batch, signal)) outcomes.set(document, outcome);
        group = [];
        keys.clear();
      };
      for (const document of documents) {
        if (document.tenantId === "" || document.id === "") throw new RangeError("a document needs a non-empty id and tenantId");
        const key = `${document.tenantId}\u0000${document.id}`;
        if (keys.has(key)) await flush();
        keys.add(key);
        group.push(document);
      }
      await flush();
      return documents.map((document) => outcomes.get(document) ?? { documentId: document.id, status: "unchanged", chunkCount: 0 });
    },

    async remove(tenantId, documentId, signal): Promise<RemoveOutcome> {
      const filter: Filter = { must: [match("tenant_id", tenantId), match("document_id", documentId)] };
      const count = await call<Schemas["CountResult"]>("count", (init) => api.countPoints({ collection_name: collection, filter, exact: true }, init), signal);
      if (count.count === 0) return { kind: "not_found" };
      await deleteWhere(filter, signal);
      return { kind: "removed" };
    },

    async listDocuments(tenantId, listOptions, signal) {
      const offset = pageTokenField(listOptions.pageToken, "offset") || undefined;
      const must: Condition[] = [match("tenant_id", tenantId), { key: "chunk_index", match: { value: 0 } }];
      if (listOptions.domain !== undefined) must.push(match("domain", listOptions.domain));
      const result = await scroll(
        "list",
        { filter: { must }, limit: listOptions.pageSize, with_payload: true, with_vector: false, ...(offset === undefined ? {} : { offset }) },
        signal,
      );
      const documents: DocumentSummary[] = [];
      for (const point of result.points) {
        const chunk = chunkFromPayload(point.payload);
        const payload = point.payload ?? {};
        if (chunk === null || chunk.tenantId !== tenantId) continue;
        const source = payload["source"];
        documents.push({
          id: chunk.documentId,
          tenantId,
          title: chunk.title,
          product: chunk.product,
          domain: chunk.domain,
          lang: chunk.lang,
          ...(typeof source === "string" ? { source } : {}),
          chunkCount: typeof payload["chunk_count"] === "number" ? payload["chunk_count"] : 0,
          contentHash: typeof payload["content_hash"] === "string" ? payload["content_hash"] : "",
        });
      }
      const next = result.next_page_offset;
      return { documents, nextPageToken: typeof next === "string" || typeof next === "number" ? encodePageToken({ offset: String(next) }) : "" };
    },

    async getChunk(tenantId, chunkId, signal) {
      const parsed = parseChunkId(chunkId);
      if (parsed === null) return undefined;
      const result = await scroll(
        "get chunk",
        {
          filter: { must: [match("tenant_id", tenantId), match("document_id", parsed.documentId), { key: "chunk_index", match: { value: parsed.chunkIndex } }] },
          limit: 1,
          with_payload: true,
          with_vector: false,
        },
        signal,
      );
      const chunk = chunkFromPayload(result.points[0]?.payload);
      return chunk !== null && chunk.tenantId === tenantId && chunk.chunkId === chunkId ? chunk : undefined;
    },
  };

  async function ensureCollection(signal?: AbortSignal, attempt = 1): Promise<"created" | "verified"> {
    let info: Schemas["CollectionInfo"] | null;
    try {
      info = await call<Schemas["CollectionInfo"]>("get collection", (init) => api.getCollection({ collection_name: collection }, init), signal);
    } catch (error) {
      if (!(error instanceof CollectionMissingError)) throw error;
      info = null;
    }
    if (info === null) {
      try {
        await call<boolean>(
          "create collection",
          (init) =>
            api.createCollection(
              {
                collection_name: collection,
                vectors: { [DENSE_VECTOR]: { size: embedder.dimension, distance: "Cosine" } },
                sparse_vectors: { [SPARSE_VECTOR]: { modifier: "idf" } },
                metadata,
              },
              init,
            ),
          signal,
        );
      } catch (error) {
        // Another replica created it in between: check what it created (once).
        if (attempt > 1 || statusOf(causeChain(error)) !== 409) throw error;
        return ensureCollection(signal, attempt + 1);
      }
      for (const index of PAYLOAD_INDEXES) await createIndex(index, signal);
      return "created";
    }
    checkSchema(info, collection, embedder, metadata.frontdesk);
    const existing = new Set(Object.keys(info.payload_schema ?? {}));
    for (const index of PAYLOAD_INDEXES) if (!existing.has(index.field)) await createIndex(index, signal);
    return "verified";
  }

  async function createIndex(index: (typeof PAYLOAD_INDEXES)[number], signal?: AbortSignal): Promise<void> {
    await call<Schemas["UpdateResult"]>(
      `create payload index ${index.field}`,
      (init) => api.createFieldIndex({ collection_name: collection, wait: true, field_name: index.field, field_schema: index.schema }, init),
      signal,
    );
  }
}

/** What chunk 0 records about its document. */
interface DocumentRecord {
  contentHash: string;
  chunkCount: number;
}

/** Raised inside `call` for a 404 on the collection; ensureCollection turns it into "create". */
class CollectionMissingError extends RetrievalUnavailableError {
  constructor(collection: string, options: { cause: unknown }) {
    super(`Qdrant collection ${collection} does not exist`, options);
  }
}

function checkSchema(
  info: Schemas["CollectionInfo"],
  collection: string,
  embedder: Embedder,
  expected: { embedder: string; sparse: string; k1: number; b: number; averageLength: number },
): void {
  const vectors = info.config.params.vectors;
  const dense = vectors !== undefined && vectors !== null && typeof vectors === "object" && DENSE_VECTOR in vectors ? (vectors as Record<string, Schemas["VectorParams"]>)[DENSE_VECTOR] : undefined;
  if (dense === undefined) {
    throw new CollectionSchemaError(`Qdrant collection ${collection} has no dense vector named "${DENSE_VECTOR}": it was not created by frontdesk; set FRONTDESK_QDRANT_COLLECTION to another name`);
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
        throw new CollectionSchemaError(`Qdrant collection ${collection} was filled with sparse weights ${key}=${String(fields.get(key))}, but ${String(expected[key])} is configured`);
      }
    }
  }
}

function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : undefined;
}

/** The first HTTP status along an error's cause chain. */
function causeChain(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (statusOf(current) !== undefined) return current;
    current = current.cause;
  }
  return current;
}

function classify(what: string, error: unknown, timedOut: boolean): DependencyError {
  if (timedOut) return new DependencyError("timeout", "qdrant", `Qdrant ${what} timed out`, { cause: error });
  if (error instanceof DependencyError) return error;
  const status = statusOf(error);
  if (status === 429) return new DependencyError("rate_limited", "qdrant", `Qdrant ${what}: 429`, { cause: error });
  if (status !== undefined && status >= 500) return new DependencyError("server", "qdrant", `Qdrant ${what}: ${status}`, { cause: error });
  if (status !== undefined) return new DependencyError("client", "qdrant", `Qdrant ${what}: ${status}`, { cause: error });
  // No status: no answer at all (connection refused or reset).
  return new DependencyError("server", "qdrant", `Qdrant ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
