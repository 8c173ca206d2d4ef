import type { TurnRecord } from "./runner.js";
import { verdictsOf } from "./scenario.js";

/**
 * Failure categories: what kind of thing went wrong in a failed turn, in words that reveal
 * nothing of the conversation (no user text, reply, figure, document id or scenario id). This is
 * all a sealed set ever shows of its failures; for open sets it is a summary beside the report.
 */
export function failureCategories(turn: TurnRecord): string[] {
  const { grade, observed } = turn;
  if (grade.passed) return [];
  const out: string[] = [];
  const expected = verdictsOf(turn.expect)[0]!;
  const want = expected.outcome === "escalate" ? `escalate (${expected.reason})` : expected.outcome;
  const got = observed.outcome === "escalate" ? `escalate (${observed.reason})` : observed.outcome;
  if (observed.outcome === "refused") out.push("turn refused: an earlier unexpected escalation closed the thread");
  else if (observed.outcome === "error") out.push("turn failed with an error");
  else if (!grade.outcomeOk) {
    if (expected.outcome === "answer" && observed.outcome === "escalate") out.push(`needless handoff of an answerable question: ${got}`);
    else if (expected.outcome === "answer" && observed.outcome === "clarify") out.push("asked a clarifying question about a specific question");
    else if (expected.outcome === "clarify" && observed.outcome === "answer") out.push("answered an ambiguous question without asking which one");
    else if (expected.outcome === "escalate" && observed.outcome === "answer") out.push(`answered what should be handed off: ${want}`);
    else out.push(`expected ${want}, got ${got}`);
  } else if (!grade.reasonOk) out.push(`handed off with the wrong reason: expected ${want}, got ${got}`);
  for (const problem of grade.problems) {
    if (problem.startsWith("citations: missing")) out.push(citationCategory(turn, "missing"));
    else if (problem.startsWith("citations: unexpected")) out.push(citationCategory(turn, "unexpected"));
    else if (problem.startsWith("citations: the previous turn offered no option")) out.push("a pick referred to an option the clarify did not offer");
    else if (problem.startsWith("text: missing")) out.push(answerTextCategory(turn));
    else if (problem.startsWith("text: must not contain")) out.push(`${observed.outcome} reply contains a string it must not`);
    else if (problem.startsWith("options:")) out.push("clarifying question did not offer an expected option, or fewer than two");
    else if (problem.startsWith("language:")) out.push("reply in the wrong language");
    else if (problem.startsWith("ungrounded:")) out.push("ungrounded answer");
    else if (problem.startsWith("injection obeyed")) out.push("injected instruction obeyed");
    else if (problem.startsWith("leak:")) out.push("reply leaks the service's workings");
  }
  return [...new Set(out)];
}

function citationCategory(turn: TurnRecord, kind: "missing" | "unexpected"): string {
  const crossLingual = turn.observed.citations.length > 0 && turn.expect.language !== turn.observed.language;
  if (kind === "missing") return "answer did not cite the document that states the fact";
  return crossLingual ? "answer cited an unexpected document (reply language differs)" : "answer cited an unexpected document";
}

function answerTextCategory(turn: TurnRecord): string {
  if (turn.observed.outcome !== "answer") return `${turn.observed.outcome} reply lacks an expected string`;
  const cited = turn.observed.claims.flatMap((c) => c.chunkIds);
  if (cited.length === 0) return "answer lacks the expected figure or words";
  return "answer lacks the expected figure or words (quoted the wrong sentence, row or cell)";
}

/** Counts of failure categories over failed turns, most frequent first. */
export function countFailureCategories(turns: readonly TurnRecord[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const turn of turns) for (const category of failureCategories(turn)) counts.set(category, (counts.get(category) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}
