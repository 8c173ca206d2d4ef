import { create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  AnswerKind as WireAnswerKind,
  AnswerSchema,
  ClarifySchema,
  EscalateSchema,
  EscalationReason as WireEscalationReason,
  NodeProgressSchema,
  Phase,
  TurnResultSchema,
  type Escalate,
  type NodeProgress,
  type TurnResult as WireTurnResult,
} from "../../gen/frontdesk/v1/turn_pb.js";
import type { AnswerKind, EscalationOutcome, EscalationReason, NodeProgressEvent, TurnOutcome, TurnResult } from "../domain/turn.js";
import type { UserProfile } from "../domain/profile.js";

export function assertNever(value: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(value)}`);
}

/** uint32 fields reject fractions and negatives at serialisation time; clamp here instead. */
export function u32(n: number): number {
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(Math.round(n), 0xffff_ffff);
}

/** An unparsable timestamp is left unset rather than failing the whole response. */
export function timestamp(iso: string | null): Timestamp | undefined {
  if (iso === null || iso === "") return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : timestampFromDate(date);
}

export function escalationReasonToWire(reason: EscalationReason): WireEscalationReason {
  switch (reason) {
    case "user_requested":
      return WireEscalationReason.USER_REQUESTED;
    case "insufficient_retrieval":
      return WireEscalationReason.INSUFFICIENT_RETRIEVAL;
    case "ungrounded":
      return WireEscalationReason.UNGROUNDED;
    case "low_confidence":
      return WireEscalationReason.LOW_CONFIDENCE;
    case "restricted_intent":
      return WireEscalationReason.RESTRICTED_INTENT;
    case "budget_exhausted":
      return WireEscalationReason.BUDGET_EXHAUSTED;
    case "frustration":
      return WireEscalationReason.FRUSTRATION;
    case "account_specific":
      return WireEscalationReason.ACCOUNT_SPECIFIC;
    case "dependency_failure":
      return WireEscalationReason.DEPENDENCY_FAILURE;
    default:
      return assertNever(reason);
  }
}

/** The reverse, for clients; "unspecified" for a value this build does not know. */
export function escalationReasonFromWire(reason: WireEscalationReason): EscalationReason | "unspecified" {
  switch (reason) {
    case WireEscalationReason.USER_REQUESTED:
      return "user_requested";
    case WireEscalationReason.INSUFFICIENT_RETRIEVAL:
      return "insufficient_retrieval";
    case WireEscalationReason.UNGROUNDED:
      return "ungrounded";
    case WireEscalationReason.LOW_CONFIDENCE:
      return "low_confidence";
    case WireEscalationReason.RESTRICTED_INTENT:
      return "restricted_intent";
    case WireEscalationReason.BUDGET_EXHAUSTED:
      return "budget_exhausted";
    case WireEscalationReason.FRUSTRATION:
      return "frustration";
    case WireEscalationReason.ACCOUNT_SPECIFIC:
      return "account_specific";
    case WireEscalationReason.DEPENDENCY_FAILURE:
      return "dependency_failure";
    case WireEscalationReason.UNSPECIFIED:
      return "unspecified";
    default:
      // Open enum: a newer server may send a value this client does not know.
      return "unspecified";
  }
}

export function answerKindToWire(kind: AnswerKind): WireAnswerKind {
  switch (kind) {
    case "grounded":
      return WireAnswerKind.GROUNDED;
    case "chitchat":
      return WireAnswerKind.CHITCHAT;
    case "out_of_scope":
      return WireAnswerKind.OUT_OF_SCOPE;
    default:
      return assertNever(kind);
  }
}

/** Struct carries JSON only: drop undefined members so the profile stays a valid JsonObject. */
function profileToJson(profile: UserProfile): JsonObject {
  const json: JsonObject = {};
  for (const [key, value] of Object.entries(profile) as [string, JsonValue | undefined][]) {
    if (value !== undefined) json[key] = value;
  }
  return json;
}

export function escalationToWire(e: EscalationOutcome): Escalate {
  return create(EscalateSchema, {
    message: e.message,
    reason: escalationReasonToWire(e.reason),
    detail: e.detail,
    handoffContext: {
      rewrittenQuery: e.handoff.rewrittenQuery,
      topChunks: e.handoff.topChunks.map((c) => ({
        chunkId: c.chunkId,
        documentId: c.documentId,
        title: c.title,
        score: c.score,
      })),
      conversationSummary: e.handoff.conversationSummary,
      userProfile: profileToJson(e.handoff.userProfile),
      lastUserMessage: e.handoff.lastUserMessage,
      language: e.handoff.language,
    },
  });
}

function outcomeToWire(outcome: TurnOutcome): WireTurnResult["outcome"] {
  switch (outcome.kind) {
    case "answer":
      return {
        case: "answer",
        value: create(AnswerSchema, {
          text: outcome.text,
          confidence: outcome.confidence,
          kind: answerKindToWire(outcome.answerKind),
          citations: outcome.citations.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, title: c.title })),
          claims: outcome.claims.map((c) => ({ text: c.text, chunkIds: [...c.chunkIds] })),
        }),
      };
    case "clarify":
      return {
        case: "clarify",
        value: create(ClarifySchema, {
          question: outcome.question,
          attempt: u32(outcome.attempt),
          options: outcome.options.map((o) => ({
            label: o.label,
            documentId: o.documentId,
            domain: o.domain,
            title: o.title,
            product: o.product,
          })),
        }),
      };
    case "escalate":
      return { case: "escalate", value: escalationToWire(outcome) };
    default:
      return assertNever(outcome);
  }
}

export function turnResultToWire(result: TurnResult): WireTurnResult {
  return create(TurnResultSchema, {
    threadId: result.threadId,
    turnId: result.turnId,
    requestId: result.requestId,
    language: result.language,
    outcome: outcomeToWire(result.outcome),
    stats: {
      modelCalls: u32(result.stats.modelCalls),
      retrievalRounds: u32(result.stats.retrievalRounds),
      regenerations: u32(result.stats.regenerations),
      durationMs: u32(result.stats.durationMs),
      roles: Object.entries(result.stats.roles).map(([role, usage]) => ({
        role,
        calls: u32(usage.calls),
        inputTokens: u32(usage.inputTokens),
        outputTokens: u32(usage.outputTokens),
      })),
    },
    completedAt: timestamp(result.completedAt),
  });
}

function phaseToWire(phase: NodeProgressEvent["phase"]): Phase {
  switch (phase) {
    case "started":
      return Phase.STARTED;
    case "completed":
      return Phase.COMPLETED;
    default:
      return assertNever(phase);
  }
}

export function progressToWire(event: NodeProgressEvent): NodeProgress {
  return create(NodeProgressSchema, {
    node: event.node,
    phase: phaseToWire(event.phase),
    elapsedMs: u32(event.elapsedMs),
    durationMs: u32(event.durationMs),
    summary: event.summary,
    seq: u32(event.seq),
  });
}
