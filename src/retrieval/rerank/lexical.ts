import { analyze } from "../../text/analysis/index.js";
import { CONCEPT_TOKEN_PREFIX } from "../../text/concepts.js";
import { extractRanges } from "../../text/numbers.js";
import { candidateTermStats, type TermStats } from "../hybrid/bm25.js";
import { fieldText } from "../hybrid/chunker.js";
import type { Chunk, Reranker } from "../types.js";
import { mayBeNear, NearFormCache } from "./near-forms.js";

/** Weights of the lexical reranker's parts; they sum to 1 so a score is at most 1. */
export interface LexicalRerankWeights {
  /** IDF-weighted share of the query terms found in the chunk (title, section, text). Default 0.75. */
  coverage: number;
  /** Matched query terms close together in the chunk. Default 0.1. */
  proximity: number;
  /** IDF-weighted share of the query terms found in the title or section. Default 0.1. */
  field: number;
  /** The chunk is in the requested reply language. Default 0.05. */
  language: number;
}

export const DEFAULT_RERANK_WEIGHTS: LexicalRerankWeights = { coverage: 0.75, proximity: 0.1, field: 0.1, language: 0.05 };

export interface LexicalRerankerOptions {
  /**
   * Index statistics of a tenant, for IDF: `sparseIndex.termStats`. Default: the statistics of
   * the candidates being reranked (`candidateTermStats`), for a backend that cannot report
   * document frequencies (Qdrant).
   */
  termStats?: (tenantId: string) => TermStats;
  /** Default `DEFAULT_RERANK_WEIGHTS`; must sum to 1. */
  weights?: LexicalRerankWeights;
  /** Text → terms to match: the analyzer's (default), or with concept tokens (HybridSettings.terms). */
  terms?: (text: string) => string[];
}

/**
 * A model-free reranker whose score means the same thing for every query: "how much of what
 * was asked (weighted by how rare each word is) does this chunk contain", so the grade node can
 * use absolute thresholds. With c = coverage, p = proximity, f = field coverage, l = language:
 *
 *   score = c · (w_c + w_p · p + w_l · l) + w_f · f        (f ≤ c, so score ≤ 1)
 *
 * Proximity and language only scale what already matched: a chunk that matches nothing scores
 * 0 whatever its language. A query term counts as found when the chunk has the same term
 * (credit 1) or, for words without digits, a near form: one word a prefix (≥ 4 letters) of the
 * other, credit 0.7 (0.56 when the prefix is under 60% of the longer word), as the light
 * Persian stemmer leaves تعمیر / تعمیرگاه apart; or a spelling variant of about the same length
 * (character-trigram Dice ≥ 0.6), credit 0.7 × Dice, for typos. Numbers match exactly only:
 * 2000 is not 20000.
 */
export function createLexicalReranker(options: LexicalRerankerOptions = {}): Reranker {
  const weights = options.weights ?? DEFAULT_RERANK_WEIGHTS;
  const total = weights.coverage + weights.proximity + weights.field + weights.language;
  if (Math.abs(total - 1) > 1e-9 || Object.values(weights).some((w) => w < 0)) {
    throw new RangeError(`rerank weights must be non-negative and sum to 1, got ${total}`);
  }
  const termsOf = options.terms ?? analyze;
  // Chunks are immutable (the embedded index freezes the ones it stores), so their analysis is
  // computed once and dropped with the chunk: a WeakMap keeps no chunk alive.
  const analyzed = new WeakMap<Chunk, ChunkTerms>();
  // Near-form similarity is a function of two words alone: kept across calls, as queries share
  // most of their words with earlier ones.
  const near = new NearFormCache();
  return {
    async rerank(query, candidates, rerankOptions = {}, signal) {
      signal?.throwIfAborted();
      const queryTerms = [...new Set(termsOf(query))];
      if (queryTerms.length === 0) return candidates.map(() => 0);
      const termStats = options.termStats ?? (() => candidateTermStats(candidates, termsOf));
      const statsByTenant = new Map<string, TermStats>();
      const terms = candidates.map((chunk) => chunkTerms(chunk, termsOf, analyzed));
      const forms = queryFormsAmong(queryTerms, terms, near);
      return candidates.map((chunk, i) => {
        let stats = statsByTenant.get(chunk.tenantId);
        if (stats === undefined) {
          stats = termStats(chunk.tenantId);
          statsByTenant.set(chunk.tenantId, stats);
        }
        const idf = queryTerms.map((term) => stats.idf(term));
        const parts = computeParts(queryTerms, idf, terms[i]!, forms);
        const language = rerankOptions.language !== undefined && chunk.lang === rerankOptions.language ? 1 : 0;
        const score = parts.coverage * (weights.coverage + weights.proximity * parts.proximity + weights.language * language) + weights.field * parts.field;
        return Math.min(1, Math.max(0, score));
      });
    },
  };
}

export interface ScoreParts {
  coverage: number;
  proximity: number;
  field: number;
}

/**
 * The reranker's parts for one chunk, for distinct analyzer `queryTerms` with their IDF
 * weights; exported for tests and for the offline grader.
 */
export function scoreParts(queryTerms: readonly string[], idf: readonly number[], chunk: Chunk): ScoreParts {
  const terms = chunkTerms(chunk, analyze, new WeakMap());
  return computeParts(queryTerms, idf, terms, queryFormsAmong(queryTerms, [terms], new NearFormCache()));
}

function computeParts(queryTerms: readonly string[], idf: readonly number[], { positions, fieldPositions, ranges }: ChunkTerms, forms: QueryForms): ScoreParts {
  const matcher = new TermMatcher(positions, forms, ranges);
  const fieldMatcher = new TermMatcher(fieldPositions, forms, []);

  let weightSum = 0;
  let covered = 0;
  let fieldCovered = 0;
  const matched: number[][] = [];
  queryTerms.forEach((term, i) => {
    const weight = idf[i] ?? 0;
    weightSum += weight;
    const match = matcher.match(term);
    covered += weight * match.credit;
    fieldCovered += weight * fieldMatcher.match(term).credit;
    if (match.positions.length > 0) matched.push(match.positions);
  });
  if (weightSum === 0) return { coverage: 0, proximity: 0, field: 0 };
  return {
    coverage: covered / weightSum,
    proximity: proximity(matched, queryTerms.length),
    field: Math.min(fieldCovered, covered) / weightSum,
  };
}

interface ChunkTerms {
  /** Where each term stands in the chunk's title, section and text, and in its title and section alone. */
  positions: ReadonlyMap<string, number[]>;
  fieldPositions: ReadonlyMap<string, number[]>;
  /** The ranges the chunk states ("31–40"): a query's number inside one is a match. */
  ranges: Array<[number, number]>;
}

function chunkTerms(chunk: Chunk, termsOf: (text: string) => string[], cache: WeakMap<Chunk, ChunkTerms>): ChunkTerms {
  let terms = cache.get(chunk);
  if (terms === undefined) {
    const fieldTerms = termsOf(fieldText(chunk));
    terms = { positions: positionsOf([...fieldTerms, ...termsOf(chunk.text)]), fieldPositions: positionsOf(fieldTerms), ranges: extractRanges(chunk.text) };
    cache.set(chunk, terms);
  }
  return terms;
}

/** Each term of a sequence with its positions, in order of first occurrence. */
function positionsOf(sequence: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  sequence.forEach((term, position) => {
    const list = positions.get(term);
    if (list === undefined) positions.set(term, [position]);
    else list.push(position);
  });
  return positions;
}

/**
 * What matching a query term needs beyond the exact term, worked out once per rerank: its value
 * when it is a number, else the words of the candidates it is a near form of, with their
 * similarity. A chunk's best near form is then looked up among these few instead of comparing
 * the term with each of the chunk's words.
 */
type QueryForms = ReadonlyMap<string, { value: number | null; near: ReadonlyArray<readonly [string, number]> }>;

function queryFormsAmong(queryTerms: readonly string[], candidates: readonly ChunkTerms[], near: NearFormCache): QueryForms {
  const vocabulary = new Set<string>();
  for (const { positions } of candidates) for (const term of positions.keys()) vocabulary.add(term);
  const out = new Map<string, { value: number | null; near: Array<readonly [string, number]> }>();
  for (const queryTerm of queryTerms) {
    const similar: Array<readonly [string, number]> = [];
    out.set(queryTerm, { value: /^\d+(?:\.\d+)?$/u.test(queryTerm) ? Number(queryTerm) : null, near: similar });
    if (!matchesByNearForm(queryTerm)) continue;
    const row = near.row(queryTerm);
    for (const term of vocabulary) {
      if (!mayBeNear(queryTerm, term)) continue;
      const similarity = row(term);
      if (similarity > 0) similar.push([term, similarity]);
    }
  }
  return out;
}

/** Numbers match exactly only (or inside a range); so do concept tokens ("~car" is not near "~cargo"). */
const matchesByNearForm = (queryTerm: string): boolean => !/\d/u.test(queryTerm) && !queryTerm.startsWith(CONCEPT_TOKEN_PREFIX);

/** Best credit of a query term against a chunk's terms, with where it matched. */
class TermMatcher {
  constructor(
    private readonly positionsByTerm: ReadonlyMap<string, number[]>,
    private readonly forms: QueryForms,
    private readonly ranges: ReadonlyArray<[number, number]>,
  ) {}

  match(queryTerm: string): { credit: number; positions: number[] } {
    const exact = this.positionsByTerm.get(queryTerm);
    if (exact !== undefined) return { credit: 1, positions: exact };
    const forms = this.forms.get(queryTerm);
    if (forms === undefined) return { credit: 0, positions: [] };
    // A number inside a range the chunk states: "35" is a row "31–40" (no position: it is not a word of the chunk).
    const value = forms.value;
    if (value !== null) return { credit: this.ranges.some(([lo, hi]) => value >= lo && value <= hi) ? RANGE_CREDIT : 0, positions: [] };
    // The most similar of the chunk's words; of equally similar ones, the first in the chunk.
    let credit = 0;
    let positions: number[] = [];
    for (const [term, similarity] of forms.near) {
      const termPositions = this.positionsByTerm.get(term);
      if (termPositions === undefined) continue;
      if (similarity > credit || (similarity === credit && credit > 0 && termPositions[0]! < positions[0]!)) {
        credit = similarity;
        positions = termPositions;
      }
    }
    return { credit, positions };
  }
}

const RANGE_CREDIT = 0.8;

/**
 * How close together the matched query terms sit: m / (shortest span holding one position of
 * each matched term), 1 when adjacent. A one-term query is trivially "together" (1); when
 * fewer than two of several query terms match there is nothing to be close to (0).
 */
function proximity(positionLists: readonly number[][], queryTermCount: number): number {
  const m = positionLists.length;
  if (m === 0) return 0;
  if (m === 1) return queryTermCount === 1 ? 1 : 0;
  const events = positionLists.flatMap((list, term) => list.map((position) => ({ position, term }))).sort((a, b) => a.position - b.position);
  const inWindow = new Array<number>(m).fill(0);
  let distinct = 0;
  let best = Infinity;
  let left = 0;
  for (const event of events) {
    if (inWindow[event.term]++ === 0) distinct++;
    while (distinct === m) {
      const first = events[left];
      if (first === undefined) break;
      best = Math.min(best, event.position - first.position + 1);
      if (--inWindow[first.term] === 0) distinct--;
      left++;
    }
  }
  return Number.isFinite(best) ? m / best : 0;
}
