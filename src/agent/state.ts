import { Annotation } from "@langchain/langgraph";
import type { HistoryLine } from "../domain/conversation.js";
import type { UserProfile } from "../domain/profile.js";
import type { Intent, GradeVerdict } from "../models/roles.js";
import type { Chunk } from "../retrieval/index.js";
import type { Language } from "../text/language.js";
import type { Gate } from "./policy.js";
import type { ClarifyOption, CitedClaim, EscalationOutcome, EscalationReason, RoleUsage, TurnOutcome, TurnResult } from "../domain/turn.js";

/**
 * The graph state. Field names are checkpoint data: renaming one is a migration, and
 * test/agent/state-names.test.ts pins them. Thread fields persist across turns; turn fields are
 * reset by every run's input (freshTurnState), so nothing from the previous turn leaks in.
 */

/** The validated request plus server-assigned ids; the tenant comes from credentials. */
export interface TurnContext {
  turnId: string;
  tenantId: string;
  threadId: string;
  userId: string;
  text: string;
  requestId: string;
  locale: string;
  domain: string;
  startedAtMs: number;
  /** When the caller gives up on the turn (its time limit); absent when there is none. */
  deadlineAtMs?: number;
}

export interface HistoryEntry extends HistoryLine {
  turnId: string;
  requestId: string;
  completedAt: string;
}

export interface PendingClarify {
  query: string;
  options: ClarifyOption[];
  language: Language;
}

/** A completed turn kept for request_id replay. The text is stored as a hash, not verbatim. */
export interface ReplayRecord {
  requestId: string;
  textHash: string;
  result: TurnResult;
}

export interface RetrievalFilter {
  domain?: string;
  documentIds?: string[];
}

/** A retrieved chunk as kept in state: enough for grading, generation and the handoff. */
export interface Hit {
  chunk: Chunk;
  score: number;
  neighbors: Chunk[];
}

export interface GradeState {
  verdict: GradeVerdict;
  relevantChunkIds: string[];
  /**
   * "reader" when the deterministic reader decided, "scores" when retrieval scores did, "model"
   * when the model was asked, "clarify_reply" when a reply to a clarifying question added nothing
   * and the question is asked again.
   */
  method: "scores" | "model" | "reader" | "clarify_reply";
  /** For "ambiguous": the options a clarifying question would offer. */
  options: ClarifyOption[];
  /** For an ambiguous table: what the options choose ("Trip length"; "" for a table's plan columns). */
  dimension?: string;
  /** The reader's answer when it found one: generate offers it as the first evidence. */
  reading?: { basis: "cell" | "item" | "sentence"; claims: Array<{ text: string; chunkIds: string[] }>; coverage: number };
  /** Why the reader judged the evidence insufficient (for the handoff's detail). */
  why?: string;
}

export interface DraftState {
  claims: CitedClaim[];
  answered: boolean;
  confidence: number;
}

export interface VerificationState {
  grounded: boolean;
  failures: Array<{ claimIndex: number; reason: string }>;
  /** "deterministic" when the draft failed or passed on checks alone (no model call). */
  method: "deterministic" | "model";
}

export interface PendingEscalation {
  reason: EscalationReason;
  detail: string;
  /** A more specific copy key than escalation.<reason>, e.g. clarify_not_converging. */
  copyKey?: "escalation.clarify_not_converging";
}

const replace = <T>(initial: () => T) => Annotation<T>({ reducer: (_previous: T, next: T) => next, default: initial });

export const ThreadFields = {
  threadStatus: replace<"active" | "escalated">(() => "active"),
  handoff: replace<EscalationOutcome | null>(() => null),
  history: replace<HistoryEntry[]>(() => []),
  summary: replace<string>(() => ""),
  turnCount: replace<number>(() => 0),
  clarifyStreak: replace<number>(() => 0),
  pendingClarify: replace<PendingClarify | null>(() => null),
  replay: replace<ReplayRecord[]>(() => []),
  profile: replace<UserProfile>(() => ({})),
};

/** The value of every turn field at the start of a turn. */
export interface TurnValues {
  turn: TurnContext | null;
  language: Language;
  gate: Gate | null;
  intent: Intent | null;
  rewrittenQuery: string;
  retrievalFilter: RetrievalFilter;
  retrievalRounds: number;
  hits: Hit[];
  grading: GradeState | null;
  draft: DraftState | null;
  regenerations: number;
  verification: VerificationState | null;
  escalation: PendingEscalation | null;
  outcome: TurnOutcome | null;
  modelCalls: number;
  usage: Record<string, RoleUsage>;
  memoryWritten: boolean;
  /** Document sentences retrieval withheld this turn as planted instructions: no reply may carry them. */
  withheld: string[];
  result: TurnResult | null;
}

export function turnDefaults(): TurnValues {
  return {
    turn: null,
    language: "fa",
    gate: null,
    intent: null,
    rewrittenQuery: "",
    retrievalFilter: {},
    retrievalRounds: 0,
    hits: [],
    grading: null,
    draft: null,
    regenerations: 0,
    verification: null,
    escalation: null,
    outcome: null,
    modelCalls: 0,
    usage: {},
    memoryWritten: false,
    withheld: [],
    result: null,
  };
}

const turnField = <K extends keyof TurnValues>(key: K) => replace<TurnValues[K]>(() => turnDefaults()[key]);

export const TurnFields = {
  turn: turnField("turn"),
  language: turnField("language"),
  gate: turnField("gate"),
  intent: turnField("intent"),
  rewrittenQuery: turnField("rewrittenQuery"),
  retrievalFilter: turnField("retrievalFilter"),
  retrievalRounds: turnField("retrievalRounds"),
  hits: turnField("hits"),
  grading: turnField("grading"),
  draft: turnField("draft"),
  regenerations: turnField("regenerations"),
  verification: turnField("verification"),
  escalation: turnField("escalation"),
  outcome: turnField("outcome"),
  modelCalls: turnField("modelCalls"),
  usage: turnField("usage"),
  memoryWritten: turnField("memoryWritten"),
  withheld: turnField("withheld"),
  result: turnField("result"),
} satisfies { [K in keyof TurnValues]: unknown };

export const AgentState = Annotation.Root({ ...ThreadFields, ...TurnFields });

export type AgentStateValue = typeof AgentState.State;
/** A node's partial update: plain values (every field replaces; no reducer merges). */
export type AgentStateUpdate = Partial<AgentStateValue>;

/**
 * The run input: the new turn, and every turn field back at its default. The reply language is
 * detected once, by load_memory, which knows the thread's history and the user's preference.
 */
export function freshTurnState(turn: TurnContext): AgentStateUpdate {
  return { ...turnDefaults(), turn };
}
