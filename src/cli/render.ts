import { Code, ConnectError } from "@connectrpc/connect";
import type { ThreadClosed } from "../../gen/frontdesk/v1/thread_pb.js";
import {
  AnswerKind,
  Phase,
  type Answer,
  type Clarify,
  type Escalate,
  type NodeProgress,
  type TurnResult,
} from "../../gen/frontdesk/v1/turn_pb.js";
import { escalationReasonFromWire } from "../server/mapping.js";

/**
 * Pure text rendering for `frontdesk chat`: wire messages in, strings out, no I/O, so every
 * format is unit-tested without a terminal.
 */

/** `⋯ retrieve: 8 chunks …` while a node runs, `✓ retrieve: 8 chunks (12 ms)` when it is done. */
export function renderProgress(p: NodeProgress): string {
  const summary = p.summary !== "" ? `: ${p.summary}` : "";
  if (p.phase === Phase.COMPLETED) return `✓ ${p.node}${summary} (${p.durationMs} ms)`;
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
  if (answer.citations.length === 0 || answer.kind !== AnswerKind.GROUNDED) return body;
  const sources = answer.citations.map((c, i) => `  [${i + 1}] ${c.title} (${c.chunkId})`);
  return [body, "", "Sources:", ...sources].join("\n");
}

export function renderClarify(clarify: Clarify): string {
  const options = clarify.options.map((o, i) => `  ${i + 1}. ${o.label}`);
  const hint = clarify.options.length > 0 ? ["(type a number to choose)"] : [];
  return [clarify.question, ...options, ...hint].join("\n");
}

export function reasonName(e: Escalate): string {
  return escalationReasonFromWire(e.reason);
}

export function renderEscalate(e: Escalate): string {
  return `${e.message}\n→ handing over to a person (reason: ${reasonName(e)})`;
}

export function renderResult(result: TurnResult): string {
  switch (result.outcome.case) {
    case "answer":
      return renderAnswer(result.outcome.value);
    case "clarify":
      return renderClarify(result.outcome.value);
    case "escalate":
      return renderEscalate(result.outcome.value);
    case undefined:
      return "(the server sent a result without an outcome)";
    default: {
      const unhandled: never = result.outcome;
      return `(unknown outcome ${JSON.stringify(unhandled)})`;
    }
  }
}

/** `InvalidArgument` → `invalid_argument`, the spelling Connect and gRPC documents use. */
export function codeName(code: Code): string {
  return (Code[code] ?? "unknown").replace(/(?<=[a-z])(?=[A-Z])/gu, "_").toLowerCase();
}

export function renderError(err: ConnectError): string {
  return `error (${codeName(err.code)}): ${err.rawMessage}`;
}

/** FAILED_PRECONDITION on a turn: the thread is closed; show the stored handoff if it came along. */
export function renderThreadClosed(detail: ThreadClosed | undefined): string {
  if (detail?.handoff === undefined) return "This conversation was handed over to a person.";
  return `This conversation was handed over to a person (reason: ${reasonName(detail.handoff)}).\n${detail.handoff.message}`;
}

/** A typed number picks that clarify option: its label is sent as the next turn. */
export function resolveChoice(line: string, options: readonly { label: string }[]): string {
  if (!/^\d+$/u.test(line)) return line;
  const option = options[Number(line) - 1];
  return option !== undefined ? option.label : line;
}
