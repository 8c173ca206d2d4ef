import { RetrievalUnavailableError, type Chunk, type Embedder, type RetrievalRequest, type Reranker } from "../types.js";

/**
 * The steps both backends run around their own search: the request checks, embedding with its
 * checks, and after the fused candidates are known, rerank → sort → cut. A dependency's failure
 * (embedder, reranker) comes out as RetrievalUnavailableError; an abort as the caller's reason.
 */

/** Every search is tenant-scoped: a request without a tenant is a bug in the caller, not "all tenants". */
export function checkTenant(request: Pick<RetrievalRequest, "tenantId">): void {
  if (typeof request.tenantId !== "string" || request.tenantId === "") throw new RangeError("retrieve: tenantId is required");
}

export function checkRequest(request: RetrievalRequest): void {
  checkTenant(request);
  if (!Number.isInteger(request.topK) || request.topK < 1) throw new RangeError(`retrieve: topK must be a positive integer, got ${request.topK}`);
}

/** Passage vectors, one per text; checked before any index is touched, so a bad embedder cannot leave one half-updated. */
export async function embedPassages(embedder: Embedder, texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  let vectors: Float32Array[];
  try {
    vectors = await embedder.embed(texts, signal);
  } catch (error) {
    throw unavailable(error, "embedding", signal);
  }
  return checked(embedder, vectors, texts.length);
}

/** The query vector: `embedQuery` when the embedder has one, else the passage embedding. */
export async function embedQuery(embedder: Embedder, query: string, signal?: AbortSignal): Promise<Float32Array> {
  let vectors: Float32Array[];
  try {
    vectors = embedder.embedQuery !== undefined ? [await embedder.embedQuery(query, signal)] : await embedder.embed([query], signal);
  } catch (error) {
    throw unavailable(error, "embedding", signal);
  }
  const [vector] = checked(embedder, vectors, 1);
  if (vector === undefined) throw new RetrievalUnavailableError("embedder returned no query vector");
  return vector;
}

function checked(embedder: Embedder, vectors: Float32Array[], count: number): Float32Array[] {
  if (vectors.length !== count) throw new RetrievalUnavailableError(`embedder returned ${vectors.length} vectors for ${count} texts`);
  if (vectors.some((vector) => vector.length !== embedder.dimension)) {
    throw new RetrievalUnavailableError(`embedder returned vectors that are not of dimension ${embedder.dimension}`);
  }
  return vectors;
}

/** One score per candidate, aligned; retrieval stops here when the signal fired meanwhile. */
export async function rerank(reranker: Reranker, request: Pick<RetrievalRequest, "query" | "language">, candidates: readonly Chunk[], signal?: AbortSignal): Promise<number[]> {
  let scores: number[];
  try {
    scores = candidates.length === 0 ? [] : await reranker.rerank(request.query, candidates, request.language === undefined ? {} : { language: request.language }, signal);
  } catch (error) {
    throw unavailable(error, "reranking", signal);
  }
  signal?.throwIfAborted();
  if (scores.length !== candidates.length) throw new RetrievalUnavailableError(`reranker returned ${scores.length} scores for ${candidates.length} candidates`);
  return scores;
}

/** The final order, as positions of `scores`: rerank score, ties kept in fused order (Array.prototype.sort is stable). */
export function rerankedOrder(scores: readonly number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
}

/** How many of the last kept places go to products the best candidates missed, and how close to the best they must score. */
export interface ProductDiversity {
  slots: number;
  share: number;
}

/**
 * The first `topK` candidates of the final order whose score is at least `minScore`. With
 * `products` (each candidate's product), up to `diversity.slots` of the last places go to the
 * best candidate of each product not yet kept that scores at least `diversity.share` of the best:
 * a question several products answer ("is there a waiting period?") must see more than one.
 */
export function cut(
  scores: readonly number[],
  topK: number,
  minScore: number,
  products?: readonly string[],
  diversity: ProductDiversity = { slots: 0, share: 1 },
): { position: number; score: number }[] {
  const order = rerankedOrder(scores).filter((position) => (scores[position] ?? 0) >= minScore);
  const kept = order.slice(0, topK).map((position) => ({ position, score: scores[position] ?? 0 }));
  if (products === undefined || diversity.slots === 0 || kept.length === 0) return kept;
  const floor = kept[0]!.score * diversity.share;
  const seen = new Set(kept.map((k) => products[k.position]));
  const extra: { position: number; score: number }[] = [];
  for (const position of order.slice(topK)) {
    if (extra.length === diversity.slots || (scores[position] ?? 0) < floor) break;
    const product = products[position]!;
    if (seen.has(product)) continue;
    seen.add(product);
    extra.push({ position, score: scores[position] ?? 0 });
  }
  if (extra.length === 0) return kept;
  return [...kept.slice(0, Math.max(1, kept.length - extra.length)), ...extra].slice(0, Math.max(topK, 1));
}

/** An abort stays an abort (the caller's reason); anything else is a dependency failure. */
function unavailable(error: unknown, stage: string, signal?: AbortSignal): unknown {
  if (signal?.aborted === true) return signal.reason;
  if (error instanceof RetrievalUnavailableError) return error;
  return new RetrievalUnavailableError(`${stage} failed`, { cause: error });
}
