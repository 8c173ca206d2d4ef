/**
 * The offline model's tunable thresholds. Every value is a share (0..1) unless noted; defaults
 * were chosen on the bundled corpus and the fixtures in test/models/offline.
 */
export interface OfflineThresholds {
  /** grade: the best chunk must cover at least this weighted share of the query terms to be sufficient. Default 0.6. */
  sufficientCoverage: number;
  /** grade: a chunk with a lower retrieval score never makes the evidence sufficient. Default 0.2. */
  minRetrievalScore: number;
  /** grade: chunks covering at least this share are listed as relevant. Default 0.34. */
  relevantCoverage: number;
  /** grade: chunks whose combined score is within this of the best are "equally good" for ambiguity. Default 0.12. */
  ambiguityMargin: number;
  /** generate: the best sentence must cover at least this weighted share of the query terms. Default 0.5. */
  answerCoverage: number;
  /**
   * grade and generate: when a specific query term occurs in none of the chunks ("skiing"), the
   * best chunk or sentence must cover at least this share instead. Default 0.75.
   */
  unmatchedTermCoverage: number;
  /** generate: at most this many sentences (claims) per answer. Default 3. */
  maxClaims: number;
  /** generate: an extra sentence must score at least this share of the best sentence's score. Default 0.7. */
  extraSentenceRatio: number;
  /** verify: at least this share of a claim's content terms must appear in its cited chunks. Default 0.85. */
  verifyTermCoverage: number;
}

export const DEFAULT_THRESHOLDS: Readonly<OfflineThresholds> = Object.freeze({
  sufficientCoverage: 0.6,
  minRetrievalScore: 0.2,
  relevantCoverage: 0.34,
  ambiguityMargin: 0.12,
  answerCoverage: 0.5,
  unmatchedTermCoverage: 0.75,
  maxClaims: 3,
  extraSentenceRatio: 0.7,
  verifyTermCoverage: 0.85,
});
