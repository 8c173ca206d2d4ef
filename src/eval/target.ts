import type { EscalationReason } from "../domain/turn.js";
import type { Chunk } from "../retrieval/index.js";

/**
 * What the evaluation sees of one turn, whichever way it ran (in-process or over the wire).
 * `refused` is a turn the service would not run (a closed thread); `error` a turn that failed.
 */
export type ObservedOutcome = "answer" | "chitchat" | "out_of_scope" | "clarify" | "escalate" | "refused" | "error";

export interface ObservedChunk {
  chunkId: string;
  documentId: string;
  title: string;
  score: number;
}

export interface ObservedTurn {
  outcome: ObservedOutcome;
  /** The result's language; "" when the turn produced no result. */
  language: string;
  /** What the user would read: answer text, the question with its options, or the handoff message. */
  text: string;
  citations: Array<{ chunkId: string; documentId: string }>;
  claims: Array<{ text: string; chunkIds: string[] }>;
  /** Clarify options, in order. */
  options: Array<{ label: string; documentId: string; product: string }>;
  reason: EscalationReason | "unspecified" | null;
  /** The escalation detail, or the refusal / error message. */
  detail: string;
  /** null when the target cannot see it (over the wire, for turns that did not escalate). */
  rewrittenQuery: string | null;
  /** The retrieved chunks, best first (escalations carry them over the wire; in-process always). */
  topChunks: ObservedChunk[];
  /** Completed graph nodes, in order, with their one-line summaries. */
  nodes: Array<{ node: string; summary: string }>;
  modelCalls: number;
  latencyMs: number;
}

export interface TurnRequest {
  threadId: string;
  userId: string;
  text: string;
  domain?: string;
}

/** Something the harness can hold conversations with. */
export interface EvalTarget {
  /** "in-process" or the server address. */
  readonly label: string;
  /** Test-only documents this target serves, by id; fixture scenarios need theirs. */
  readonly fixtures: ReadonlySet<string>;
  runTurn(request: TurnRequest): Promise<ObservedTurn>;
  /** The indexed chunk a citation names, to check answers against their sources. */
  getChunk(chunkId: string): Chunk | undefined;
  close(): Promise<void>;
}

export function emptyObservation(outcome: "refused" | "error", detail: string, latencyMs: number): ObservedTurn {
  return {
    outcome,
    language: "",
    text: "",
    citations: [],
    claims: [],
    options: [],
    reason: null,
    detail,
    rewrittenQuery: null,
    topChunks: [],
    nodes: [],
    modelCalls: 0,
    latencyMs,
  };
}
