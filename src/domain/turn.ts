import type { UserProfile } from "./profile.js";
import type { Language } from "../text/language.js";

/** A validated turn, as the agent receives it. The tenant comes from credentials only. */
export interface TurnInput {
  tenantId: string;
  threadId: string;
  userId: string;
  text: string;
  /** "" when the caller sent none: replay is then disabled. */
  requestId: string;
  locale?: string;
  domain?: string;
}

export const ESCALATION_REASONS = [
  "user_requested",
  "insufficient_retrieval",
  "ungrounded",
  "low_confidence",
  "restricted_intent",
  "budget_exhausted",
  "frustration",
  "account_specific",
  "dependency_failure",
] as const;
export type EscalationReason = (typeof ESCALATION_REASONS)[number];

export type AnswerKind = "grounded" | "chitchat" | "out_of_scope";

export interface CitedClaim {
  text: string;
  chunkIds: string[];
}

export interface Citation {
  chunkId: string;
  documentId: string;
  title: string;
}

export interface ClarifyOption {
  label: string;
  documentId: string;
  domain: string;
  title: string;
  product: string;
}

export interface ChunkRef {
  chunkId: string;
  documentId: string;
  title: string;
  score: number;
}

export interface HandoffContext {
  rewrittenQuery: string;
  topChunks: ChunkRef[];
  conversationSummary: string;
  userProfile: UserProfile;
  lastUserMessage: string;
  language: Language;
}

/** The single outcome of a turn: a discriminated union, never a set of flags. */
export type TurnOutcome =
  | {
      kind: "answer";
      answerKind: AnswerKind;
      text: string;
      claims: CitedClaim[];
      citations: Citation[];
      confidence: number;
    }
  | {
      kind: "clarify";
      question: string;
      options: ClarifyOption[];
      attempt: number;
    }
  | {
      kind: "escalate";
      reason: EscalationReason;
      message: string;
      detail: string;
      handoff: HandoffContext;
    };

export type EscalationOutcome = Extract<TurnOutcome, { kind: "escalate" }>;

export interface RoleUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface TurnStats {
  modelCalls: number;
  retrievalRounds: number;
  regenerations: number;
  durationMs: number;
  roles: Record<string, RoleUsage>;
}

export interface TurnResult {
  threadId: string;
  turnId: string;
  requestId: string;
  language: Language;
  outcome: TurnOutcome;
  stats: TurnStats;
  /** ISO-8601. */
  completedAt: string;
}

/** Emitted for every graph node start and end while a turn runs. */
export interface NodeProgressEvent {
  node: string;
  phase: "started" | "completed";
  elapsedMs: number;
  durationMs: number;
  summary: string;
  seq: number;
}

export interface ThreadTurnRecord {
  turnId: string;
  requestId: string;
  userText: string;
  outcome: TurnOutcome["kind"];
  reply: string;
  language: Language;
  completedAt: string;
}

export interface ThreadView {
  threadId: string;
  status: "active" | "escalated";
  handoff: EscalationOutcome | null;
  recentTurns: ThreadTurnRecord[];
  summary: string;
  turnCount: number;
  updatedAt: string | null;
}

/** What another service watching a thread learns about its turns, from whichever process runs them. */
export type ThreadEvent =
  | { kind: "progress"; turnId: string; progress: NodeProgressEvent }
  | { kind: "result"; turnId: string; result: TurnResult }
  /** The turn ended without a result (cancelled, past its deadline, or failed); the thread is as it was. */
  | { kind: "failed"; turnId: string; reason: "cancelled" | "error" };

/** One message of a watch stream. After fell_behind the stream ends: resync with getThread, then watch again. */
export type WatchItem = { kind: "event"; threadId: string; event: ThreadEvent } | { kind: "fell_behind"; reason: "slow_consumer" | "source_interrupted" };
