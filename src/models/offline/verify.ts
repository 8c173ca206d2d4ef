import { extractNumbers, splitSentences } from "../../text/index.js";
import type { EvidenceChunk, VerifyInput, VerifyOutput } from "../roles.js";
import { chunkSentences } from "./sentences.js";
import type { OfflineThresholds } from "./thresholds.js";
import { analyzeTerms, contentTerms, coverage, negationCount, termBag } from "./terms.js";

/**
 * Lexical entailment, claim by claim, against the chunks the claim cites:
 * (a) every number in the claim is among the chunks' numbers (canonical forms, so "2,000,000"
 *     and «۲٬۰۰۰٬۰۰۰» agree), and in a chunk sentence saying much the same (sharing
 *     at least half the claim's terms, and nearly as many as the best-matching sentence);
 * (b) enough of the claim's content terms occur in the chunks (title included);
 * (c) no negation flip: the claim and the chunk sentence that best supports it contain the same
 *     number of negations ("is covered" vs "is not covered" share every content term).
 * Reasons name the failed check and the chunk, never quote chunk text: the agent passes them
 * back to generate as feedback, and generate skips every sentence quoted in its feedback.
 */

function displayNumber(canonical: string): string {
  return /^\d{4,}$/u.test(canonical) ? Number(canonical).toLocaleString("en-US") : canonical;
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/**
 * A chunk sentence vouches for a claim's numbers when it shares at least this share of the
 * claim sentence's terms, and nearly as many as the best-matching sentence (within the margin).
 */
const NUMBER_CONTEXT_OVERLAP = 0.5;
const NUMBER_CONTEXT_MARGIN = 0.2;

interface SourceSentence {
  text: string;
  /** Share of the claim sentence's content terms it contains. */
  overlap: number;
  /** Each number with how often the sentence states it. */
  numbers: Map<string, number>;
}

function countNumbers(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of extractNumbers(text)) counts.set(n, (counts.get(n) ?? 0) + 1);
  return counts;
}

/** The cited chunks' sentences, each with its overlap with `part`, best first (ties: shorter). */
function sourceSentences(part: string, chunks: readonly EvidenceChunk[]): SourceSentence[] {
  const terms = [...new Set(analyzeTerms(part))];
  const out: SourceSentence[] = [];
  for (const chunk of chunks) {
    for (const sentence of chunkSentences(chunk.text)) {
      const bag = termBag(analyzeTerms(sentence.text));
      const shared = terms.filter((t) => bag.has(t)).length;
      out.push({ text: sentence.text, overlap: terms.length === 0 ? 0 : shared / terms.length, numbers: countNumbers(sentence.text) });
    }
  }
  return out.sort((a, b) => b.overlap - a.overlap || a.text.length - b.text.length);
}

function check(claim: { text: string; chunks: EvidenceChunk[] }, thresholds: OfflineThresholds): { supported: boolean; reason: string } {
  if (claim.chunks.length === 0) return { supported: false, reason: "the claim cites no retrieved chunk" };
  const ids = claim.chunks.map((c) => c.chunkId).join(", ");
  const where = claim.chunks.length === 1 ? `chunk ${ids}` : `chunks ${ids}`;

  const chunkNumbers = new Set(claim.chunks.flatMap((c) => extractNumbers(`${c.title}\n${c.text}`)));
  const missingNumber = extractNumbers(claim.text).find((n) => !chunkNumbers.has(n));
  if (missingNumber !== undefined) return { supported: false, reason: `number ${displayNumber(missingNumber)} not in ${where}` };

  const terms = contentTerms(claim.text);
  if (terms.length === 0) return { supported: false, reason: "the claim has no content to check" };
  const bag = termBag(claim.chunks.flatMap((c) => analyzeTerms(`${c.title}\n${c.text}`)));
  const cov = coverage(terms, bag);
  if (cov.ratio < thresholds.verifyTermCoverage) {
    const missing = cov.missing.slice(0, 5).join(", ");
    return { supported: false, reason: `only ${percent(cov.ratio)} of the claim's terms are in ${where} (missing: ${missing})` };
  }

  for (const part of splitSentences(claim.text)) {
    const sources = sourceSentences(part, claim.chunks);
    const support = sources[0];
    if (support === undefined || support.overlap === 0) return { supported: false, reason: `no sentence of ${where} supports "${part}"` };
    // A number must also sit in a sentence saying much the same thing: "within 7 days" does not
    // become true because another line of the chunk mentions 7.
    const near = sources.filter((s) => s.overlap >= NUMBER_CONTEXT_OVERLAP && s.overlap >= support.overlap - NUMBER_CONTEXT_MARGIN);
    // Counted: "+7 21 8000 7000" must not pass against "+98 21 8000 7000" because 7 occurs too.
    const stray = [...countNumbers(part)].find(([n, count]) => !near.some((s) => (s.numbers.get(n) ?? 0) >= count))?.[0];
    if (stray !== undefined) return { supported: false, reason: `number ${displayNumber(stray)} is not stated in the matching sentence of ${where}` };
    // Counted, not just detected: "is not covered, with no waiting period" must not pass
    // against "is covered, with no waiting period".
    const claimNegations = negationCount(part);
    const sourceNegations = negationCount(support.text);
    if (claimNegations !== sourceNegations) {
      return {
        supported: false,
        reason: claimNegations > sourceNegations ? `negation not in ${where}: the claim negates what the source affirms` : `${where} negates what the claim affirms`,
      };
    }
  }
  return { supported: true, reason: `all numbers and ${percent(cov.ratio)} of the terms found in ${where}` };
}

export function verify(input: VerifyInput, thresholds: OfflineThresholds): VerifyOutput {
  return { claims: input.claims.map((claim, index) => ({ index, ...check(claim, thresholds) })) };
}
