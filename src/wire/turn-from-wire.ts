import { timestampDate } from "@bufbuild/protobuf/wkt";
import { AnswerKind as WireAnswerKind, Phase, type Escalate, type NodeProgress, type TurnResult as WireTurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import { UserProfileSchema, type UserProfile } from "../domain/profile.js";
import type { AnswerKind, EscalationOutcome, EscalationReason, NodeProgressEvent, TurnOutcome, TurnResult } from "../domain/turn.js";
import { escalationReasonFromWire } from "./turn.js";

/**
 * Wire → domain, for clients (the CLI, the evaluation over the wire, the example backend). What a
 * server sends may come from a newer build: unknown enum values become "unspecified", a profile
 * with unknown fields keeps the fields this build knows, and nothing here throws on content.
 */

/** An escalation as received: its reason may be one this build does not know. */
export type ReceivedEscalation = Omit<EscalationOutcome, "reason" | "handoff"> & {
  reason: EscalationReason | "unspecified";
  handoff: Omit<EscalationOutcome["handoff"], "language"> & { language: string };
};
export type ReceivedOutcome = Exclude<TurnOutcome, { kind: "escalate" }> | ReceivedEscalation | { kind: "none" };
export interface ReceivedTurnResult extends Omit<TurnResult, "outcome" | "language"> {
  language: string;
  outcome: ReceivedOutcome;
}

function profileFromJson(json: unknown): UserProfile {
  if (typeof json !== "object" || json === null) return {};
  const known = Object.fromEntries(Object.entries(json).filter(([key]) => key in UserProfileSchema.shape));
  const parsed = UserProfileSchema.safeParse(known);
  return parsed.success ? parsed.data : {};
}

function answerKindFromWire(kind: WireAnswerKind): AnswerKind {
  switch (kind) {
    case WireAnswerKind.CHITCHAT:
      return "chitchat";
    case WireAnswerKind.OUT_OF_SCOPE:
      return "out_of_scope";
    default:
      return "grounded";
  }
}

export function escalationFromWire(e: Escalate): ReceivedEscalation {
  const h = e.handoffContext;
  return {
    kind: "escalate",
    reason: escalationReasonFromWire(e.reason),
    message: e.message,
    detail: e.detail,
    handoff: {
      rewrittenQuery: h?.rewrittenQuery ?? "",
      topChunks: (h?.topChunks ?? []).map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, title: c.title, score: c.score })),
      conversationSummary: h?.conversationSummary ?? "",
      userProfile: profileFromJson(h?.userProfile),
      lastUserMessage: h?.lastUserMessage ?? "",
      language: h?.language ?? "",
    },
  };
}

function outcomeFromWire(outcome: WireTurnResult["outcome"]): ReceivedOutcome {
  switch (outcome.case) {
    case "answer":
      return {
        kind: "answer",
        answerKind: answerKindFromWire(outcome.value.kind),
        text: outcome.value.text,
        claims: outcome.value.claims.map((c) => ({ text: c.text, chunkIds: [...c.chunkIds] })),
        citations: outcome.value.citations.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, title: c.title })),
        confidence: outcome.value.confidence,
      };
    case "clarify":
      return {
        kind: "clarify",
        question: outcome.value.question,
        attempt: outcome.value.attempt,
        options: outcome.value.options.map((o) => ({ label: o.label, documentId: o.documentId, domain: o.domain, title: o.title, product: o.product })),
      };
    case "escalate":
      return escalationFromWire(outcome.value);
    default:
      return { kind: "none" };
  }
}

export function turnResultFromWire(result: WireTurnResult): ReceivedTurnResult {
  const stats = result.stats;
  return {
    threadId: result.threadId,
    turnId: result.turnId,
    requestId: result.requestId,
    language: result.language,
    outcome: outcomeFromWire(result.outcome),
    stats: {
      modelCalls: stats?.modelCalls ?? 0,
      retrievalRounds: stats?.retrievalRounds ?? 0,
      regenerations: stats?.regenerations ?? 0,
      durationMs: stats?.durationMs ?? 0,
      roles: Object.fromEntries((stats?.roles ?? []).map((r) => [r.role, { calls: r.calls, inputTokens: r.inputTokens, outputTokens: r.outputTokens }])),
    },
    completedAt: result.completedAt === undefined ? "" : timestampDate(result.completedAt).toISOString(),
  };
}

export function progressFromWire(p: NodeProgress): NodeProgressEvent {
  return {
    node: p.node,
    phase: p.phase === Phase.COMPLETED ? "completed" : "started",
    elapsedMs: p.elapsedMs,
    durationMs: p.durationMs,
    summary: p.summary,
    seq: p.seq,
  };
}
