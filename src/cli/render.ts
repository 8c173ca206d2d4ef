import { Code, type ConnectError } from "@connectrpc/connect";
import type { ClarifyOption, NodeProgressEvent, TurnOutcome } from "../domain/turn.js";
import type { ReceivedEscalation, ReceivedOutcome, ReceivedTurnResult } from "../wire/index.js";

/**
 * Pure text rendering for `frontdesk chat`: what the server sent (as domain values) in, strings
 * out, no I/O, so every format is unit-tested without a terminal.
 */

type Answer = Extract<TurnOutcome, { kind: "answer" }>;
type Clarify = Extract<TurnOutcome, { kind: "clarify" }>;

/** `⋯ retrieve: 8 chunks …` while a node runs, `✓ retrieve: 8 chunks (12 ms)` when it is done. */
export function renderProgress(p: NodeProgressEvent): string {
  const summary = p.summary !== "" ? `: ${p.summary}` : "";
  if (p.phase === "completed") return `✓ ${p.node}${summary} (${p.durationMs} ms)`;
  return `⋯ ${p.node}${summary} …`;
}

/** Claim text followed by numbered markers that point into the Sources list. */
export function renderAnswer(answer: Answer): string {
  const numberOf = new Map(answer.citations.map((c, i) => [c.chunkId, i + 1] as const));
  const body =
    answer.claims.length === 0
      ? answer.text
      : answer.claims
          .map((claim) => {
            const markers = claim.chunkIds
              .map((id) => numberOf.get(id))
              .filter((n): n is number => n !== undefined)
              .map((n) => `[${n}]`)
              .join("");
            return markers === "" ? claim.text : `${claim.text} ${markers}`;
          })
          .join(" ");
  if (answer.citations.length === 0 || answer.answerKind !== "grounded") return body;
  const sources = answer.citations.map((c, i) => `  [${i + 1}] ${c.title} (${c.chunkId})`);
  return [body, "", "Sources:", ...sources].join("\n");
}

export function renderClarify(clarify: Pick<Clarify, "question" | "options">): string {
  const options = clarify.options.map((o, i) => `  ${i + 1}. ${o.label}`);
  const hint = clarify.options.length > 0 ? ["(type a number to choose)"] : [];
  return [clarify.question, ...options, ...hint].join("\n");
}

export function renderEscalate(e: ReceivedEscalation): string {
  return `${e.message}\n→ handing over to a person (reason: ${e.reason})`;
}

export function renderOutcome(outcome: ReceivedOutcome): string {
  switch (outcome.kind) {
    case "answer":
      return renderAnswer(outcome);
    case "clarify":
      return renderClarify(outcome);
    case "escalate":
      return renderEscalate(outcome);
    case "none":
      return "(the server sent a result without an outcome)";
    default: {
      const unhandled: never = outcome;
      return `(unknown outcome ${JSON.stringify(unhandled)})`;
    }
  }
}

export function renderResult(result: ReceivedTurnResult): string {
  return renderOutcome(result.outcome);
}

/** `InvalidArgument` → `invalid_argument`, the spelling Connect and gRPC documents use. */
export function codeName(code: Code): string {
  return (Code[code] ?? "unknown").replace(/(?<=[a-z])(?=[A-Z])/gu, "_").toLowerCase();
}

export function renderError(err: ConnectError): string {
  return `error (${codeName(err.code)}): ${err.rawMessage}`;
}

/** FAILED_PRECONDITION on a turn: the thread is closed; show the stored handoff if it came along. */
export function renderThreadClosed(handoff: ReceivedEscalation | undefined): string {
  if (handoff === undefined) return "This conversation was handed over to a person.";
  return `This conversation was handed over to a person (reason: ${handoff.reason}).\n${handoff.message}`;
}

/** A typed number picks that clarify option: its label is sent as the next turn. */
export function resolveChoice(line: string, options: readonly Pick<ClarifyOption, "label">[]): string {
  if (!/^\d+$/u.test(line)) return line;
  const option = options[Number(line) - 1];
  return option !== undefined ? option.label : line;
}
