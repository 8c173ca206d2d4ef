import { extractNumbers, foldForMatch } from "../../text/index.js";
import type { Claim, EvidenceChunk, GenerateInput, GenerateOutput } from "../roles.js";
import { AMOUNT_QUESTION, evidenceWeights, GENERIC_TERMS, isProductWord, missingEverywhere, QUESTION_NOISE } from "./lexicon.js";
import { chunkSentences, introducesList, sectionOf, type ChunkSentence } from "./sentences.js";
import type { OfflineThresholds } from "./thresholds.js";
import { analyzeTerms, clamp01, contentTerms, coverage, isPersianTerm, round2, termBag, type ContextBag, type TermBag } from "./terms.js";

/**
 * Extractive answering. Only chunks in the reply language are used; each is split into
 * sentences, and a sentence scores by weighted coverage of the question's terms (rare terms
 * weigh more; a term found only in the heading above the sentence counts 0.75, only in the
 * chunk's title 0.5), plus small bonuses: the chunk's retrieval score, a heading about the asked
 * aspect (not just the product), a sentence opening with the asked aspect, a number when the
 * question asks for an amount; and small penalties for conditional
 * sentences and list introductions without their list.
 *
 * The best sentence answers. Up to `maxClaims` sentences of the same product join it: first
 * those adding question terms it lacks, then sentences of the same passage about the same
 * specific aspect ("deductible"), when they score close enough. A sentence introducing a list
 * ("The call centre opening hours are:") brings its items. Sentences are quoted verbatim, each
 * citing its own chunk, in document order. Too little coverage means "not answered": the agent
 * hands off rather than guessing.
 */

/** Bonus per unit of retrieval score: breaks ties between equally covering sentences. */
const SCORE_BONUS = 0.1;
/** Bonus per unit of coverage of the question by the sentence's heading and title alone. */
const CONTEXT_BONUS = 0.1;
/** Bonus for a sentence (or its list) with a number when the question asks for an amount. */
const NUMBER_BONUS = 0.2;
/** Bonus for a sentence that opens with the asked aspect ("Unmarried children are covered…"): it is about it. */
const LEAD_BONUS = 0.05;
/** How many leading content terms count as the sentence's opening. */
const LEAD_TERMS = 3;
/** Penalty for a list introduction whose items are not in the chunk: it states nothing. */
const DANGLING_INTRO_PENALTY = 0.1;
/** Penalty for a conditional sentence ("If…", «اگر…»): an exception, rarely the main answer. */
const CONDITIONAL_PENALTY = 0.05;
const CONDITIONAL = /^(?:if|when|unless|in case|اگر|چنانچه|در صورتی که|در صورت)(?![\p{L}])/iu;
/** Weights of terms found only in the heading above a sentence, or only in the chunk's title. */
const HEADING_WEIGHT = 0.75;
const TITLE_WEIGHT = 0.5;
/** Words an amount itself answers: a sentence stating a number covers them in an amount question. */
const AMOUNT_WORDS = termBag(analyzeTerms("limit limits ceiling cap amount سقف مبلغ"));
/** Most sentences one answer quotes, list items included. */
const MAX_CLAIMS_WITH_LISTS = 8;
/** Most list items quoted after a list introduction. */
const MAX_LIST_ITEMS = 6;

interface Candidate {
  chunk: EvidenceChunk;
  chunkOrder: number;
  sentenceIndex: number;
  text: string;
  bag: TermBag;
  contexts: ContextBag[];
  coverage: number;
  score: number;
  /** The list items this sentence introduces, quoted with it. */
  list: ChunkSentence[];
}

// "How much is X?" / «X چقدر است؟» without a cost word asks for the price.
const HOW_MUCH_IS = /(?<![\p{L}])(?:how much (?:is|are|does|do|will|would)|what does .* cost|چقدر (?:است|هست|می شود|میشود|میشه|تمام می شود)|چند است|چنده)(?![\p{L}])/u;
const PRICE_TERM: Record<"en" | "fa", string> = { en: analyzeTerms("premium")[0] ?? "premium", fa: analyzeTerms("قیمت")[0] ?? "قیمت" };

/** The question's terms in the reply language (the query may be in another one). */
function questionTerms(input: GenerateInput): string[] {
  const wanted = (t: string): boolean => !QUESTION_NOISE.has(t) && (/^\d/u.test(t) || isPersianTerm(t) === (input.language === "fa"));
  let terms = contentTerms(input.query).filter(wanted);
  if (terms.length === 0) terms = contentTerms(input.userText).filter(wanted);
  // Only when nothing but the product is named: «دوره انتظار زایمان چقدر است؟» asks a duration,
  // "how much is the deductible?" the deductible.
  const asked = foldForMatch(`${input.userText} ${input.query}`);
  const price = PRICE_TERM[input.language];
  const productOnly = terms.every((t) => GENERIC_TERMS.has(t) || isProductWord(t));
  if (terms.length > 0 && productOnly && HOW_MUCH_IS.test(asked)) terms = [...terms, price];
  return terms;
}

/** The list items right after sentence `index` (contiguous, in order). */
function listAfter(sentences: readonly ChunkSentence[], index: number): ChunkSentence[] {
  const items: ChunkSentence[] = [];
  for (const s of sentences.slice(index + 1)) {
    if (!s.listItem || items.length >= MAX_LIST_ITEMS) break;
    items.push(s);
  }
  return items;
}

function chunkPosition(chunk: EvidenceChunk, fallback: number): number {
  const match = /#(\d+)$/u.exec(chunk.chunkId);
  return match !== null ? Number(match[1]) : fallback;
}

export function generate(input: GenerateInput, thresholds: OfflineThresholds): GenerateOutput {
  // The reader (src/reading) already found the cell, item or sentence that states what is asked:
  // quoted as it is, each claim citing its chunk.
  if (input.reading !== undefined && input.reading.claims.length > 0) {
    return { claims: input.reading.claims.map((c) => ({ text: c.text, chunkIds: [...c.chunkIds] })), answered: true, confidence: round2(clamp01(input.reading.coverage)) };
  }
  const notAnswered = (confidence = 0): GenerateOutput => ({ claims: [], answered: false, confidence: round2(clamp01(confidence)) });
  const chunks = input.chunks.filter((c) => c.lang === input.language);
  const terms = questionTerms(input);
  if (chunks.length === 0 || terms.length === 0) return notAnswered();

  const chunkBags = chunks.map((c) => termBag(analyzeTerms(`${c.title} ${c.text}`)));
  const weights = evidenceWeights(terms, chunkBags);
  // A specific question term no chunk contains ("skiing") means the chunks talk around the
  // question: only a sentence covering nearly everything else may answer.
  const required = missingEverywhere(terms, chunkBags).length > 0 ? Math.max(thresholds.answerCoverage, thresholds.unmatchedTermCoverage) : thresholds.answerCoverage;
  const amountQuestion = AMOUNT_QUESTION.test(foldForMatch(`${input.userText} ${input.query}`));
  // On regeneration the agent's feedback quotes the rejected sentences; never offer them again.
  const rejected = foldForMatch(input.feedback ?? "");
  const isRejected = (text: string): boolean => rejected !== "" && rejected.includes(foldForMatch(text));

  const aspects = terms.filter((t) => !GENERIC_TERMS.has(t) && !isProductWord(t));
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  chunks.forEach((chunk, order) => {
    const section = sectionOf(chunk);
    const titleKey = foldForMatch(chunk.title);
    // Chunk 0 may open with the document title as a line of its own: a heading, not a claim.
    const sentences = chunkSentences(chunk.text).filter((s) => foldForMatch(s.text) !== titleKey);
    const title = termBag(analyzeTerms(chunk.title));
    // A list item is read with the sentence introducing its list ("The device insurance
    // deductible … is the amount the policyholder pays for each claim:"), as a reader would.
    let intro: ChunkSentence | null = null;
    for (const sentence of sentences) {
      if (!sentence.listItem) intro = introducesList(sentence.text) ? sentence : null;
      // Context-expanded chunks overlap: the same sentence may come twice.
      const key = `${chunk.product}\u0000${foldForMatch(sentence.text)}`;
      if (seen.has(key) || isRejected(sentence.text)) continue;
      seen.add(key);
      const sentenceTerms = analyzeTerms(sentence.text);
      const bag = termBag(sentenceTerms);
      const lead = termBag(sentenceTerms.slice(0, LEAD_TERMS));
      const contexts: ContextBag[] = [
        [termBag(analyzeTerms(sentence.heading !== "" ? sentence.heading : section)), HEADING_WEIGHT],
        [title, TITLE_WEIGHT],
      ];
      if (sentence.listItem && intro !== null) contexts.push([termBag(analyzeTerms(intro.text)), HEADING_WEIGHT]);
      const list = introducesList(sentence.text) ? listAfter(sentences, sentence.index).filter((s) => !isRejected(s.text)) : [];
      const statesAmount = [sentence, ...list].some((s) => extractNumbers(s.text).length > 0);
      // "What is the dental limit?": "…paid up to 150,000,000 rials…" states the limit without the word.
      const answered: ContextBag[] = amountQuestion && statesAmount ? [...contexts, [AMOUNT_WORDS, 1]] : contexts;
      const cov = coverage(terms, bag, weights, answered).ratio;
      // A heading about the asked aspect ("Call centre" for "call centre hours") marks the
      // answering passage; one repeating the product name does not (every section of a document
      // is about its product).
      const about = aspects.length > 0 ? coverage(aspects, termBag([]), weights, contexts).ratio : 0;
      let score = cov + SCORE_BONUS * clamp01(chunk.score) + CONTEXT_BONUS * about;
      if (amountQuestion && statesAmount) score += NUMBER_BONUS;
      if (introducesList(sentence.text) && list.length === 0) score -= DANGLING_INTRO_PENALTY;
      if (CONDITIONAL.test(sentence.text)) score -= CONDITIONAL_PENALTY;
      if (aspects.some((t) => lead.has(t))) score += LEAD_BONUS;
      candidates.push({ chunk, chunkOrder: order, sentenceIndex: sentence.index, text: sentence.text, bag, contexts, coverage: cov, score, list });
    }
  });
  if (candidates.length === 0) return notAnswered();

  candidates.sort((a, b) => b.score - a.score || a.chunkOrder - b.chunkOrder || a.sentenceIndex - b.sentenceIndex);
  const best = candidates[0]!;
  if (best.coverage < required) return notAnswered(best.coverage / 2);

  const chosen = selectSentences(best, candidates, terms, thresholds);
  const claimed = expandLists(chosen);

  // Document order: documents by first appearance (relevance), then chunk, then sentence.
  const documentOrder = new Map<string, number>();
  chunks.forEach((c, i) => {
    if (!documentOrder.has(c.documentId)) documentOrder.set(c.documentId, i);
  });
  claimed.sort(
    (a, b) =>
      documentOrder.get(a.chunk.documentId)! - documentOrder.get(b.chunk.documentId)! ||
      chunkPosition(a.chunk, a.chunkOrder) - chunkPosition(b.chunk, b.chunkOrder) ||
      a.sentenceIndex - b.sentenceIndex,
  );

  const union = termBag(claimed.flatMap((c) => [...c.bag.terms]));
  const unionCoverage = coverage(
    terms,
    union,
    weights,
    claimed.flatMap((c) => c.contexts),
  ).ratio;
  const bestScore = Math.max(...claimed.map((c) => clamp01(c.chunk.score)));
  const claims: Claim[] = claimed.map((c) => ({ text: c.text, chunkIds: [c.chunk.chunkId] }));
  return { claims, answered: true, confidence: round2(clamp01(0.85 * unionCoverage + 0.15 * bestScore)) };
}

function selectSentences(best: Candidate, candidates: readonly Candidate[], terms: readonly string[], thresholds: OfflineThresholds): Candidate[] {
  const chosen: Candidate[] = [best];
  const close = candidates.filter((c) => c !== best && c.chunk.product === best.chunk.product && c.score >= best.score * thresholds.extraSentenceRatio);

  // First: sentences adding question terms the answer does not state yet. Terms the best
  // sentence's heading or title already gives count as stated.
  const covered = new Set(terms.filter((t) => best.bag.has(t) || best.contexts.some(([bag]) => bag.has(t))));
  for (const candidate of close) {
    if (chosen.length >= thresholds.maxClaims) break;
    const adds = terms.filter((t) => !covered.has(t) && candidate.bag.has(t));
    if (adds.length === 0) continue;
    for (const t of adds) covered.add(t);
    chosen.push(candidate);
  }

  // Then: more of the same passage about the specific aspects the best sentence states
  // ("deductible" → "…rises to 20%…"). Not when a list already carries the detail.
  const aspects = terms.filter((t) => best.bag.has(t) && !GENERIC_TERMS.has(t) && !isProductWord(t));
  if (aspects.length > 0 && best.list.length === 0) {
    for (const candidate of close) {
      if (chosen.length >= thresholds.maxClaims) break;
      if (chosen.includes(candidate) || candidate.chunk.chunkId !== best.chunk.chunkId) continue;
      if (aspects.every((t) => candidate.bag.has(t))) chosen.push(candidate);
    }
  }
  return chosen;
}

/** The chosen sentences with the items of any list they introduce, without repeats. */
function expandLists(chosen: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const taken = new Set<string>();
  for (const candidate of chosen) {
    const items = candidate.list.map((s) => ({ ...candidate, sentenceIndex: s.index, text: s.text, bag: termBag(analyzeTerms(s.text)), list: [] }));
    for (const item of [candidate, ...items]) {
      const key = `${item.chunk.chunkId}\u0000${item.sentenceIndex}`;
      if (taken.has(key) || out.length >= MAX_CLAIMS_WITH_LISTS) continue;
      taken.add(key);
      out.push(item);
    }
  }
  return out;
}
