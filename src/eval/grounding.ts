import { toEvidence } from "../agent/evidence.js";
import { checkGrounding } from "../agent/grounding.js";
import { analyze } from "../text/analysis/index.js";
import type { Chunk } from "../retrieval/index.js";
import { foldForMatch } from "../text/normalize.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../config/config.js";

/**
 * The bundle's answer frames ("Our document on this is only published in Persian…"): copy that
 * says where the claims come from, never a fact of its own, so it may stand beside them.
 */
let frames: string[] | undefined;
function answerFrames(): string[] {
  if (frames === undefined) {
    const copy = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "bundle/copy.json"), "utf8")) as Record<string, Record<string, string>>;
    frames = Object.entries(copy)
      .filter(([key]) => key.startsWith("answer."))
      .flatMap(([, texts]) => Object.values(texts));
  }
  return frames;
}

/**
 * The ungrounded-answer check of the evaluation, deterministic and independent of the model that
 * wrote the answer. An answer is grounded when:
 * - it has claims, each citing at least one chunk that exists in the corpus;
 * - every number of a claim is in a chunk it cites (src/agent/grounding.ts, canonical numbers);
 * - every claim is a sentence of a chunk it cites, or shares at least SUPPORT_COVERAGE of its
 *   content terms with its cited chunks (a paraphrasing model is not penalised for wording);
 * - the answer text says nothing besides its claims (no uncited sentence slipped in), but for
 *   the bundle's answer frames.
 */
export const SUPPORT_COVERAGE = 0.8;

export interface AnswerForGrounding {
  text: string;
  claims: ReadonlyArray<{ text: string; chunkIds: readonly string[] }>;
}

export interface GroundingCheck {
  grounded: boolean;
  problems: string[];
}

const quote = (text: string) => `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;

export function checkAnswerGrounding(answer: AnswerForGrounding, getChunk: (chunkId: string) => Chunk | undefined): GroundingCheck {
  const problems: string[] = [];
  if (answer.claims.length === 0) return { grounded: false, problems: ["a grounded answer without claims: nothing is cited"] };

  const evidence = new Map<string, Chunk>();
  answer.claims.forEach((claim, index) => {
    for (const id of claim.chunkIds) {
      const chunk = getChunk(id);
      if (chunk === undefined) problems.push(`claim ${index + 1} cites ${id}, which is not in the corpus`);
      else evidence.set(id, chunk);
    }
  });

  const report = checkGrounding(
    answer.claims.map((c) => ({ text: c.text, chunkIds: c.chunkIds.filter((id) => evidence.has(id)) })),
    [...evidence.values()].map((chunk) => toEvidence(chunk, 0)),
  );
  for (const failure of report.failures) problems.push(`claim ${failure.claimIndex + 1} ${quote(answer.claims[failure.claimIndex]!.text)}: ${failure.reason}`);

  answer.claims.forEach((claim, index) => {
    if (report.verbatim[index]) return;
    const terms = [...new Set(analyze(claim.text))];
    if (terms.length === 0) return;
    const source = new Set(claim.chunkIds.flatMap((id) => (evidence.has(id) ? analyze(`${evidence.get(id)!.title}\n${evidence.get(id)!.text}`) : [])));
    const covered = terms.filter((t) => source.has(t)).length / terms.length;
    if (covered < SUPPORT_COVERAGE) {
      problems.push(`claim ${index + 1} ${quote(claim.text)}: only ${Math.round(covered * 100)}% of its terms are in its cited chunk(s)`);
    }
  });

  // The text a user reads must be the claims and nothing else: remove each claim, then only
  // punctuation and separators may remain.
  let rest = foldForMatch(answer.text);
  for (const frame of answerFrames()) rest = rest.replace(foldForMatch(frame), " ");
  for (const claim of answer.claims) {
    const folded = foldForMatch(claim.text)
      .trim()
      .replace(/[\s.!?:;,]+$/u, "");
    const at = rest.indexOf(folded);
    if (folded !== "" && at >= 0) rest = `${rest.slice(0, at)} ${rest.slice(at + folded.length)}`;
  }
  const uncited = rest.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  if (uncited !== "") problems.push(`the answer text says what no claim cites: ${quote(uncited)}`);

  return { grounded: problems.length === 0, problems };
}
