import type { Schemas } from "@qdrant/js-client-rest";
import { encodePageToken, pageTokenField, parseChunkId, type DocumentPage, type DocumentSummary, type ListOptions } from "../document-index.js";
import { querySparseVector, type SparseVector } from "../hybrid/bm25.js";
import { neighborsOf, siblingRows, type ContextWindow } from "../hybrid/context-window.js";
import { checkRequest, cut, embedQuery, rerank, type ProductDiversity } from "../hybrid/pipeline.js";
import { RetrievalUnavailableError, type Chunk, type Embedder, type Reranker, type RetrievalRequest, type RetrievalResult, type RetrievedChunk } from "../types.js";
import type { CollectionClient } from "./client.js";
import { chunkFilter, listingFilter, requestFilter, windowsFilter } from "./filters.js";
import { chunkFromPayload, documentSummary } from "./payload.js";
import { DENSE_VECTOR, SPARSE_VECTOR } from "./schema.js";

export interface QdrantReaderOptions {
  client: CollectionClient;
  embedder: Embedder;
  reranker: Reranker;
  candidates: number;
  rrfK: number;
  context: ContextWindow;
  minScore: number;
  productDiversity: ProductDiversity;
  /** Text → sparse terms, as the points were written (SparseWeighting.terms). */
  terms: (text: string) => string[];
}

export interface QdrantReader {
  retrieve(request: RetrievalRequest, signal?: AbortSignal): Promise<RetrievalResult>;
  listDocuments(tenantId: string, options: ListOptions, signal?: AbortSignal): Promise<DocumentPage>;
  getChunk(tenantId: string, chunkId: string, signal?: AbortSignal): Promise<Chunk | undefined>;
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
  if (vectors.sparse.indices.length > 0)
    prefetch.push({ query: { indices: vectors.sparse.indices, values: vectors.sparse.values }, using: SPARSE_VECTOR, filter, limit: options.candidates });
  if (vectors.dense.some((value) => value !== 0)) prefetch.push({ query: Array.from(vectors.dense), using: DENSE_VECTOR, filter, limit: options.candidates });
  return { prefetch, query: { rrf: { k: options.rrfK + 1 } }, filter, limit: options.candidates, with_payload: true, with_vector: false };
}

/**
 * Reads: one Query API call per retrieval, then the reranker, then one scroll for neighbouring
 * chunks; chunks and listings by scroll. Every request carries the tenant filter, and every
 * point read is checked again for its tenant.
 */
export function createQdrantReader(options: QdrantReaderOptions): QdrantReader {
  const { client, embedder, reranker, candidates, rrfK, context, minScore, productDiversity, terms } = options;

  const neighbors = async (tenantId: string, hits: readonly Chunk[], signal?: AbortSignal): Promise<Map<string, Chunk[]>> => {
    const byDocument = new Map<string, Chunk[]>();
    const windows = windowsFilter(tenantId, hits, context);
    if (windows === null) return byDocument;
    const result = await client.scroll("neighbour scroll", { filter: windows.filter, limit: windows.limit, with_payload: true, with_vector: false }, signal);
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
    async retrieve(request, signal) {
      checkRequest(request);
      signal?.throwIfAborted();
      if (request.documentIds !== undefined && request.documentIds.length === 0) return { hits: [] };

      const dense = await embedQuery(embedder, request.query, signal);
      const body = queryRequest(request, { sparse: querySparseVector(request.query, terms), dense }, { candidates, rrfK });
      if (body.prefetch === undefined || (Array.isArray(body.prefetch) && body.prefetch.length === 0)) return { hits: [] };

      const result = await client.call<Schemas["QueryResponse"]>("query", (init) => client.api.queryPoints({ collection_name: client.collection, ...body }, init), signal);
      const fused: { chunk: Chunk; score: number }[] = [];
      for (const point of result.points) {
        const chunk = chunkFromPayload(point.payload);
        if (chunk === null) throw new RetrievalUnavailableError(`Qdrant returned point ${String(point.id)} without a frontdesk payload`);
        if (chunk.tenantId !== request.tenantId) continue;
        fused.push({ chunk, score: point.score });
      }
      signal?.throwIfAborted();

      // The other rows of the candidates' tables join the rerank, as in the embedded index
      // (siblingRows): one more scroll, only when a candidate is a table row.
      const rowCandidates = fused.map((item) => item.chunk).filter((chunk) => chunk.unit.kind === "row");
      if (rowCandidates.length > 0 && context.tableRows > 0) {
        const tables = await neighbors(request.tenantId, rowCandidates, signal);
        const rows = siblingRows(
          fused.map((item) => item.chunk),
          (chunk) => tables.get(chunk.documentId) ?? [],
          context.tableRows,
        );
        for (const chunk of rows) fused.push({ chunk, score: 0 });
      }

      const rerankScores = await rerank(
        reranker,
        request,
        fused.map((item) => item.chunk),
        signal,
      );
      const kept = cut(
        rerankScores,
        request.topK,
        minScore,
        fused.map((item) => item.chunk.product),
        productDiversity,
      ).flatMap(({ position, score }) => {
        const item = fused[position];
        return item === undefined ? [] : [{ chunk: item.chunk, fusedScore: item.score, score }];
      });
      const expansion = await neighbors(
        request.tenantId,
        kept.map((item) => item.chunk),
        signal,
      );
      const hits: RetrievedChunk[] = kept.map(({ chunk, fusedScore, score }) => ({
        chunk,
        score,
        stages: { fusedScore, rerankScore: score },
        neighbors: neighborsOf(chunk, expansion.get(chunk.documentId) ?? [], context),
      }));
      return { hits };
    },

    async listDocuments(tenantId, listOptions, signal) {
      const offset = pageTokenField(listOptions.pageToken, "offset") || undefined;
      const result = await client.scroll(
        "list",
        { filter: listingFilter(tenantId, listOptions.domain), limit: listOptions.pageSize, with_payload: true, with_vector: false, ...(offset === undefined ? {} : { offset }) },
        signal,
      );
      const documents = result.points.map((point) => documentSummary(point.payload, tenantId)).filter((summary): summary is DocumentSummary => summary !== null);
      const next = result.next_page_offset;
      return { documents, nextPageToken: typeof next === "string" || typeof next === "number" ? encodePageToken({ offset: String(next) }) : "" };
    },

    async getChunk(tenantId, chunkId, signal) {
      const parsed = parseChunkId(chunkId);
      if (parsed === null) return undefined;
      const result = await client.scroll("get chunk", { filter: chunkFilter(tenantId, parsed.documentId, chunkId), limit: 1, with_payload: true, with_vector: false }, signal);
      const chunk = chunkFromPayload(result.points[0]?.payload);
      return chunk !== null && chunk.tenantId === tenantId && chunk.chunkId === chunkId ? chunk : undefined;
    },
  };
}
