import type { EvidenceChunk, GradeInput, GradeOutput } from "../roles.js";
import { domainsOf, evidenceWeights, GENERIC_TERMS, missingEverywhere, QUESTION_NOISE } from "./lexicon.js";
import type { OfflineThresholds } from "./thresholds.js";
import { sectionOf } from "./sentences.js";
import { analyzeTerms, contentTerms, coverage, termBag, type ContextBag } from "./terms.js";

/**
 * Grading from query-term coverage and retrieval scores. Each chunk's coverage is the weighted
 * share of query terms it contains (terms rare among the given chunks weigh more, generic ones
 * like "insurance" less; terms only in its section heading count 0.75, only in its title 0.5). The verdict:
 * - ambiguous: chunks of two or more products are about equally good and the query names none
 *   of them (by a product's own title words or by domain);
 * - sufficient: the best chunk covers enough of the query and was retrieved with a usable score;
 * - insufficient: otherwise.
 */

/** Weight of coverage against the retrieval score in a chunk's combined score. */
const COVERAGE_WEIGHT = 0.75;
/** A query term found only in a chunk's section heading, or only in its title, counts this much. */
const SECTION_WEIGHT = 0.75;
const TITLE_WEIGHT = 0.5;
/** Added to chunks of a product the query names, so they rank first. */
const NAMED_PRODUCT_BONUS = 0.1;

interface Graded {
  chunk: EvidenceChunk;
  coverage: number;
  combined: number;
  productKey: string;
}

function productKey(chunk: EvidenceChunk): string {
  return chunk.product !== "" ? chunk.product : chunk.documentId;
}

// Title words that do not name a product when a question uses them: "Paying Your Premium" is not
// what "how much is the premium?" asks about.
const NON_NAMING = new Set(analyzeTerms("premium price pay payment your قیمت پرداخت"));

/** Words that name a product: its title and key, without generic and commercial words. */
function nameTerms(chunk: EvidenceChunk): Set<string> {
  return new Set(analyzeTerms(`${chunk.title} ${chunk.product.replace(/[-_]/gu, " ")}`).filter((t) => !GENERIC_TERMS.has(t) && !NON_NAMING.has(t)));
}

export function grade(input: GradeInput, thresholds: OfflineThresholds): GradeOutput {
  const queryTerms = contentTerms(input.query).filter((t) => !QUESTION_NOISE.has(t));
  if (queryTerms.length === 0 || input.chunks.length === 0) return { verdict: "insufficient", relevantChunkIds: [] };

  const textBags = input.chunks.map((c) => termBag(analyzeTerms(c.text)));
  const titleBags = input.chunks.map((c) => termBag(analyzeTerms(c.title)));
  const sectionBags = input.chunks.map((c) => termBag(analyzeTerms(sectionOf(c))));
  const fullBags = input.chunks.map((c) => termBag(analyzeTerms(`${c.title} ${sectionOf(c)} ${c.text}`)));
  const weights = evidenceWeights(queryTerms, fullBags);
  // A specific term found nowhere ("skiing") raises the bar for "sufficient".
  const required = missingEverywhere(queryTerms, fullBags).length > 0 ? Math.max(thresholds.sufficientCoverage, thresholds.unmatchedTermCoverage) : thresholds.sufficientCoverage;

  // Products the query names by a word that only that product's title (or key) has.
  const productNames = new Map<string, Set<string>>();
  for (const chunk of input.chunks) {
    const key = productKey(chunk);
    const names = productNames.get(key) ?? new Set<string>();
    for (const term of nameTerms(chunk)) names.add(term);
    productNames.set(key, names);
  }
  const queryBag = termBag(queryTerms);
  const named = new Set<string>();
  for (const [key, names] of productNames) {
    const others = new Set<string>();
    for (const [otherKey, otherNames] of productNames) if (otherKey !== key) for (const t of otherNames) others.add(t);
    if ([...names].some((t) => !others.has(t) && queryBag.has(t))) named.add(key);
  }

  const graded: Graded[] = input.chunks.map((chunk, i) => {
    const contexts: ContextBag[] = [
      [sectionBags[i]!, SECTION_WEIGHT],
      [titleBags[i]!, TITLE_WEIGHT],
    ];
    const cov = coverage(queryTerms, textBags[i]!, weights, contexts).ratio;
    const key = productKey(chunk);
    const combined = COVERAGE_WEIGHT * cov + (1 - COVERAGE_WEIGHT) * chunk.score + (named.has(key) ? NAMED_PRODUCT_BONUS : 0);
    return { chunk, coverage: cov, combined, productKey: key };
  });
  graded.sort((a, b) => b.combined - a.combined);
  const best = graded[0]!;

  const usable = (g: Graded): boolean => g.coverage >= required && g.chunk.score >= thresholds.minRetrievalScore;
  const relevant = graded.filter((g) => g.coverage >= thresholds.relevantCoverage).map((g) => g.chunk.chunkId);

  if (named.size === 0) {
    let candidates = graded.filter((g) => usable(g) && g.combined >= best.combined - thresholds.ambiguityMargin);
    // A query naming a domain ("car insurance price") is only ambiguous within that domain.
    const queryDomains = domainsOf(queryTerms);
    if (queryDomains.size > 0) {
      candidates = candidates.filter((g) => {
        const chunkDomains = domainsOf(analyzeTerms(`${g.chunk.title} ${g.chunk.product.replace(/[-_]/gu, " ")} ${g.chunk.domain}`));
        return [...chunkDomains].some((d) => queryDomains.has(d));
      });
    }
    const products = new Set(candidates.map((g) => g.productKey));
    if (products.size >= 2) {
      const ids = candidates.map((g) => g.chunk.chunkId);
      return { verdict: "ambiguous", relevantChunkIds: [...ids, ...relevant.filter((id) => !ids.includes(id))] };
    }
  }

  if (graded.some(usable)) return { verdict: "sufficient", relevantChunkIds: relevant };
  return { verdict: "insufficient", relevantChunkIds: relevant };
}
