import type { EvidenceChunk } from "../models/roles.js";
import { foldForMatch } from "../text/normalize.js";
import { extractNumbers } from "../text/numbers.js";
import { splitSentences } from "../text/sentences.js";
import type { CitedClaim } from "../domain/turn.js";

/**
 * Deterministic grounding checks, run before any model check (DESIGN §3): every claim cites at
 * least one chunk retrieved this turn, and every number in a claim appears in a chunk it cites.
 * Numbers are compared canonically, so "2,000,000", "2000000" and "۲٬۰۰۰٬۰۰۰" are one number.
 */
export interface GroundingReport {
  failures: Array<{ claimIndex: number; reason: string }>;
  /** Claims that are a sentence of their cited chunk, verbatim after normalisation. */
  verbatim: boolean[];
}

const comparable = (text: string) => foldForMatch(text).replace(/[\s.!?؟:;,،]+$/u, "");

/**
 * A table cell or list item quoted with its labels ("Prices — 8–15 days — Premier: 185") is
 * verbatim when every piece between the separators is text of the cited chunk, in order.
 */
function quotesPieces(claim: string, chunk: string): boolean {
  const pieces = claim
    .split(/\s—\s|;\s/u)
    .map(comparable)
    .filter((p) => p !== "");
  if (pieces.length < 2) return false;
  const haystack = foldForMatch(chunk);
  let from = 0;
  for (const piece of pieces) {
    const at = haystack.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/**
 * A claim that is a whole piece of its chunk's text — from the start or a separator (" — ", ": ",
 * a sentence end) to the end or the next one — is verbatim too: a list item quoted without the
 * lead-in its chunk repeats ("8 to 15 days: 6,800,000 rials").
 */
function isFragment(claim: string, chunk: string): boolean {
  const piece = comparable(claim);
  if (piece.length < 3) return false;
  const haystack = comparable(chunk);
  let at = haystack.indexOf(piece);
  while (at >= 0) {
    const before = haystack.slice(0, at);
    const after = haystack.slice(at + piece.length);
    if ((before === "" || /(?:\s—|:|[.!?])\s*$/u.test(before)) && (after === "" || /^\s*(?:—|;|[.!?])/u.test(after))) return true;
    at = haystack.indexOf(piece, at + 1);
  }
  return false;
}

export function checkGrounding(claims: readonly CitedClaim[], evidence: readonly EvidenceChunk[]): GroundingReport {
  const byId = new Map(evidence.map((e) => [e.chunkId, e]));
  const failures: GroundingReport["failures"] = [];
  const verbatim: boolean[] = [];
  claims.forEach((claim, claimIndex) => {
    const cited = claim.chunkIds.map((id) => byId.get(id));
    const unknown = claim.chunkIds.filter((_, i) => cited[i] === undefined);
    if (claim.chunkIds.length === 0) failures.push({ claimIndex, reason: "cites no chunk" });
    if (unknown.length > 0) failures.push({ claimIndex, reason: `cites chunks not retrieved this turn: ${unknown.join(", ")}` });
    const sources = cited.filter((c): c is EvidenceChunk => c !== undefined);
    const available = new Set(sources.flatMap((s) => extractNumbers(s.text)));
    const missing = extractNumbers(claim.text).filter((n) => !available.has(n));
    if (missing.length > 0 && sources.length > 0) {
      failures.push({ claimIndex, reason: `number ${missing.join(", ")} not in the cited chunk ${sources.map((s) => s.chunkId).join(", ")}` });
    }
    const sentence = comparable(claim.text);
    verbatim.push(
      sources.some((s) => splitSentences(s.text).some((candidate) => comparable(candidate) === sentence) || quotesPieces(claim.text, s.text) || isFragment(claim.text, s.text)),
    );
  });
  return { failures, verbatim };
}
