import { parseChunkId, type DocumentSummary } from "../document-index.js";
import { searchableText } from "../hybrid/chunker.js";
import { hashContent } from "../hybrid/content-hash.js";
import { neighborsOf, siblingRows } from "../hybrid/context-window.js";
import { rrf, type FusedItem } from "../hybrid/fusion.js";
import { resolveHybridOptions, type HybridRetrievalOptions } from "../hybrid/options.js";
import { checkRequest, checkTenant, cut, embedPassages, embedQuery, rerank, rerankedOrder } from "../hybrid/pipeline.js";
import { checkChunks } from "../instructions.js";
import { createLexicalReranker } from "../rerank/lexical.js";
import type { Chunk, RetrievalRequest, RetrievalResult, RetrievedChunk, Retriever, SourceDocument } from "../types.js";
import { createDenseIndex } from "./dense-index.js";
import type { ChunkFilter, ScoredChunkId } from "./filter.js";
import { chunkLabels, labelSetsOf } from "../taxonomy.js";
import { createTaxonomyCache } from "../taxonomy-cache.js";
import { createSparseIndex } from "./sparse-index.js";

/** The embedded index's reranker, by default, uses this index's per-tenant term statistics. */
export type EmbeddedRetrieverOptions = HybridRetrievalOptions;

export interface AddReport {
  /** One status per document, in the order given. */
  statuses: ("added" | "replaced" | "unchanged")[];
  /** Ids new to their tenant. */
  added: string[];
  /** Ids whose content changed: old chunks replaced. */
  replaced: string[];
  /** Ids already indexed with the same content: nothing done. */
  unchanged: string[];
}

/** Every stage's ranking for one query, for benchmarks and diagnostics (`explain`). */
export interface StageRankings {
  /** BM25, best first, up to `depth`. */
  sparse: ScoredChunkId[];
  /** Cosine, best first, up to `depth`. */
  dense: ScoredChunkId[];
  /** RRF of the two, best first, up to `depth`. */
  fused: FusedItem[];
  /**
   * The final order: the first `candidates` fused chunks reordered by the reranker (as `retrieve`
   * does), then the rest of the fused list in fused order, with their fused scores.
   */
  reranked: ScoredChunkId[];
  /** Wall time of each stage in milliseconds (the dense stage includes embedding the query). */
  timings: { sparseMs: number; denseMs: number; fuseMs: number; rerankMs: number };
}

export interface EmbeddedRetriever extends Retriever {
  /**
   * Chunks, embeds and indexes documents. Re-adding an id replaces that document's chunks;
   * re-adding unchanged content is a no-op. Calls are applied one after another, in call order.
   */
  add(documents: readonly SourceDocument[], signal?: AbortSignal): Promise<AddReport>;
  /**
   * Removes a document; false when the tenant has no such document. The tenant is part of the
   * key: document ids are only unique within a tenant.
   */
  remove(tenantId: string, documentId: string): boolean;
  /** The tenant's documents, sorted by id. */
  listDocuments(tenantId: string): DocumentSummary[];
  getDocument(tenantId: string, documentId: string): DocumentSummary | undefined;
  getChunk(tenantId: string, chunkId: string): Chunk | undefined;
  /** Runs every stage of `retrieve` for `request`, keeping `depth` results per stage. */
  explain(request: Omit<RetrievalRequest, "topK">, depth: number, signal?: AbortSignal): Promise<StageRankings>;
  /** Chunks indexed, all tenants. */
  readonly size: number;
}

interface StoredDocument {
  summary: DocumentSummary;
  /** In document order (chunkIndex). */
  chunks: Chunk[];
  byId: Map<string, Chunk>;
}

/**
 * Frozen all the way down: hits hand these objects to callers, and the indexes and the reranker's
 * cache rely on them never changing.
 */
function freezeChunk(chunk: Chunk): Chunk {
  Object.freeze(chunk.sectionPath);
  if (chunk.unit.kind === "row") {
    for (const cell of chunk.unit.cells) Object.freeze(cell);
    Object.freeze(chunk.unit.cells);
  }
  Object.freeze(chunk.unit);
  return Object.freeze(chunk);
}

/**
 * The embedded hybrid retriever: BM25 and exact dense search per tenant, fused with RRF,
 * reranked, expanded with neighbouring chunks. Everything lives in memory of one process; the
 * Qdrant retriever implements the same `Retriever` contract for scale-out.
 */
export function createEmbeddedRetriever(options: EmbeddedRetrieverOptions): EmbeddedRetriever {
  const { embedder, candidates, rrfK, context, minScore, productDiversity, chunker, bm25, terms, reranker: configured, instructions } = resolveHybridOptions(options);
  const sparse = createSparseIndex({ ...bm25, analyzer: terms });
  const dense = createDenseIndex({ dimension: embedder.dimension });
  const reranker = configured ?? createLexicalReranker({ termStats: (tenantId) => sparse.termStats(tenantId), terms });
  const tenants = new Map<string, Map<string, StoredDocument>>();
  // Adds are serialised: two concurrent adds of one id must not interleave their index writes.
  let queue: Promise<unknown> = Promise.resolve();

  const findDocument = (tenantId: string, documentId: string): StoredDocument | undefined => tenants.get(tenantId)?.get(documentId);
  // This process sees every change of its documents: a taxonomy lasts until one.
  const taxonomies = createTaxonomyCache({
    ttlMs: Infinity,
    load: (tenantId) =>
      [...(tenants.get(tenantId)?.values() ?? [])].map(({ summary, chunks }) => ({
        id: summary.id,
        title: summary.title,
        product: summary.product,
        domain: summary.domain,
        lang: summary.lang,
        text: chunks.map((c) => `${c.section}\n${c.text}`).join("\n"),
        labels: chunks.map(chunkLabels).join("\n"),
        labelSets: labelSetsOf(chunks),
      })),
  });

  const removeDocument = (tenantId: string, documentId: string): boolean => {
    const documents = tenants.get(tenantId);
    if (documents?.delete(documentId) !== true) return false;
    taxonomies.invalidate(tenantId);
    sparse.remove(tenantId, documentId);
    dense.remove(tenantId, documentId);
    if (documents.size === 0) tenants.delete(tenantId);
    return true;
  };

  interface Prepared {
    /** Position in the add() call, for `statuses`. */
    position: number;
    document: SourceDocument;
    contentHash: string;
    chunks: Chunk[];
    /** Chunks the detector flagged; undefined without one. */
    instructionChunks: number | undefined;
  }

  /** Decides what to do with each document of a group with distinct (tenant, id) keys. */
  const prepare = (document: SourceDocument, position: number, report: AddReport): Prepared | null => {
    if (document.tenantId === "" || document.id === "") throw new RangeError("a document needs a non-empty id and tenantId");
    const contentHash = hashContent(document);
    const existing = findDocument(document.tenantId, document.id);
    if (existing?.summary.contentHash === contentHash) {
      existing.summary.source = document.source;
      report.unchanged.push(document.id);
      report.statuses[position] = "unchanged";
      return null;
    }
    const chunks = chunker.chunk(document).map(freezeChunk);
    return { position, document, contentHash, chunks, instructionChunks: checkChunks(instructions, document, chunks) };
  };

  const apply = ({ position, document, contentHash, chunks, instructionChunks }: Prepared, vectors: readonly Float32Array[], report: AddReport): void => {
    // Synchronous: a concurrent retrieve sees the old version or the new one, never a mix. A
    // remove() may have run while the group was being embedded: look again.
    const replaced = removeDocument(document.tenantId, document.id);
    sparse.add(chunks);
    dense.add(chunks.map((chunk, i) => ({ chunk, vector: vectors[i] ?? new Float32Array(embedder.dimension) })));
    let documents = tenants.get(document.tenantId);
    if (documents === undefined) {
      documents = new Map();
      tenants.set(document.tenantId, documents);
    }
    const { id, tenantId, title, product, domain, lang, source } = document;
    taxonomies.invalidate(tenantId);
    documents.set(id, {
      summary: { id, tenantId, title, product, domain, lang, source, chunkCount: chunks.length, contentHash, ...(instructionChunks === undefined ? {} : { instructionChunks }) },
      chunks,
      byId: new Map(chunks.map((chunk) => [chunk.chunkId, chunk])),
    });
    (replaced ? report.replaced : report.added).push(id);
    report.statuses[position] = replaced ? "replaced" : "added";
  };

  /**
   * Adds a group of documents with distinct keys: their chunks are embedded in one call (the
   * embedder batches), so a remote embedder sees full batches instead of one request per document.
   */
  const addGroup = async (group: readonly SourceDocument[], first: number, report: AddReport, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    const prepared = group.map((document, i) => prepare(document, first + i, report)).filter((item): item is Prepared => item !== null);
    const texts = prepared.flatMap((item) => item.chunks.map(searchableText));
    const vectors = await embedPassages(embedder, texts, signal);
    signal?.throwIfAborted();
    let offset = 0;
    for (const item of prepared) {
      apply(item, vectors.slice(offset, offset + item.chunks.length), report);
      offset += item.chunks.length;
    }
  };

  const getChunk = (tenantId: string, chunkId: string): Chunk | undefined => {
    const parsed = parseChunkId(chunkId);
    if (parsed === null) return undefined;
    return findDocument(tenantId, parsed.documentId)?.byId.get(chunkId);
  };

  return {
    add(documents, signal) {
      const run = async (): Promise<AddReport> => {
        const report: AddReport = { statuses: [], added: [], replaced: [], unchanged: [] };
        // A key seen twice in one call closes the group: the later version is applied after the
        // earlier one, exactly as two calls would be.
        let group: SourceDocument[] = [];
        let first = 0;
        const keys = new Set<string>();
        for (const [position, document] of documents.entries()) {
          const key = `${document.tenantId}\u0000${document.id}`;
          if (keys.has(key)) {
            await addGroup(group, first, report, signal);
            group = [];
            first = position;
            keys.clear();
          }
          keys.add(key);
          group.push(document);
        }
        if (group.length > 0) await addGroup(group, first, report, signal);
        return report;
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },

    remove: removeDocument,

    listDocuments(tenantId) {
      const documents = [...(tenants.get(tenantId)?.values() ?? [])].map((stored) => ({ ...stored.summary }));
      return documents.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    getDocument(tenantId, documentId) {
      const stored = findDocument(tenantId, documentId);
      return stored === undefined ? undefined : { ...stored.summary };
    },

    getChunk,

    taxonomy: (tenantId, signal) => taxonomies.get(tenantId, signal),

    get size() {
      return sparse.size;
    },

    async retrieve(request: RetrievalRequest, signal?: AbortSignal): Promise<RetrievalResult> {
      checkRequest(request);
      const { sparseHits, denseHits, fused, chunks, documents, rerankScores, timings } = await runStages(request, candidates, signal);
      const hits = cut(
        rerankScores,
        request.topK,
        minScore,
        chunks.map((c) => c.product),
        productDiversity,
      ).flatMap(({ position, score }): RetrievedChunk[] => {
        const chunk = chunks[position];
        const item = fused[position];
        if (chunk === undefined || item === undefined) return [];
        const [sparseRank, denseRank] = item.ranks;
        return [
          {
            chunk,
            score,
            stages: {
              ...(sparseRank === undefined ? {} : { sparseRank, sparseScore: sparseHits[sparseRank - 1]?.score ?? 0 }),
              ...(denseRank === undefined ? {} : { denseRank, denseScore: denseHits[denseRank - 1]?.score ?? 0 }),
              fusedScore: item.score,
              rerankScore: score,
            },
            neighbors: neighborsOf(chunk, documents[position] ?? [], context),
          },
        ];
      });
      return { hits, stageMs: { sparse: timings.sparseMs, dense: timings.denseMs, fuse: timings.fuseMs, rerank: timings.rerankMs } };
    },

    async explain(request, depth, signal) {
      if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`explain: depth must be a positive integer, got ${depth}`);
      const stages = await runStages(request, depth, signal);
      const { chunks, rerankScores, fused } = stages;
      const reranked: ScoredChunkId[] = rerankedOrder(rerankScores).map((i) => ({ chunkId: chunks[i]?.chunkId ?? "", score: rerankScores[i] ?? 0 }));
      for (const item of fused.slice(chunks.length)) reranked.push({ chunkId: item.id, score: item.score });
      return { sparse: stages.sparseHits, dense: stages.denseHits, fused, reranked, timings: stages.timings };
    },
  };

  interface Stages {
    sparseHits: ScoredChunkId[];
    denseHits: ScoredChunkId[];
    /** Fused, up to `depth`. */
    fused: FusedItem[];
    /** The first `candidates` fused chunks, their documents' chunks and their rerank scores, aligned. */
    chunks: Chunk[];
    documents: Chunk[][];
    rerankScores: number[];
    timings: StageRankings["timings"];
  }

  async function runStages(request: Omit<RetrievalRequest, "topK">, depth: number, signal?: AbortSignal): Promise<Stages> {
    // The tenant filter is applied inside both index scans (each tenant is its own partition),
    // never to a global top-k afterwards, so another tenant's chunks cannot crowd out or leak.
    checkTenant(request);
    signal?.throwIfAborted();

    const filter: ChunkFilter = { tenantId: request.tenantId };
    if (request.domain !== undefined && request.domain !== "") filter.domain = request.domain;
    if (request.documentIds !== undefined) filter.documentIds = request.documentIds;

    let clock = performance.now();
    const lap = (): number => {
      const now = performance.now();
      const elapsed = now - clock;
      clock = now;
      return elapsed;
    };
    // The query is embedded first, so that both scans and the chunk lookups below run in one
    // synchronous stretch: a document replaced meanwhile (a replica following the shared store)
    // is seen wholly old or wholly new, never as ids of one version resolved against the other.
    const queryVector = await embedQuery(embedder, request.query, signal);
    signal?.throwIfAborted();
    const embedMs = lap();
    const sparseHits = sparse.search(request.query, { filter, limit: depth });
    const sparseMs = lap();
    const denseHits = dense.search(queryVector, { filter, limit: depth });
    const denseMs = embedMs + lap();

    const fused = rrf([sparseHits.map((hit) => hit.chunkId), denseHits.map((hit) => hit.chunkId)], rrfK).slice(0, depth);
    const documents: Chunk[][] = [];
    const chunks = fused.slice(0, candidates).map((item) => {
      const chunk = getChunk(request.tenantId, item.id);
      if (chunk === undefined) throw new Error(`embedded retriever: index returned unknown chunk ${item.id}`);
      // The document's chunks as they are now, for neighbours after the (asynchronous) rerank.
      documents.push(findDocument(chunk.tenantId, chunk.documentId)?.chunks ?? []);
      return chunk;
    });
    // Rows of the candidates' tables join the rerank (unranked by the first stages), bounded by
    // the table context: a table's rows look alike to sparse and dense search.
    for (const row of siblingRows(chunks, (c) => findDocument(c.tenantId, c.documentId)?.chunks ?? [], context.tableRows)) {
      chunks.push(row);
      documents.push(findDocument(row.tenantId, row.documentId)?.chunks ?? []);
      fused.splice(chunks.length - 1, 0, { id: row.chunkId, score: 0, ranks: [undefined, undefined] });
    }
    const fuseMs = lap();

    const rerankScores = await rerank(reranker, request, chunks, signal);
    const rerankMs = lap();
    return { sparseHits, denseHits, fused, chunks, documents, rerankScores, timings: { sparseMs, denseMs, fuseMs, rerankMs } };
  }
}
