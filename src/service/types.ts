import type { EscalationOutcome, NodeProgressEvent, ThreadView, TurnInput, TurnResult, WatchItem } from "../domain/turn.js";

/**
 * The application services' contracts: what the transport (and the CLI, the evaluation) call.
 * Outcomes a caller must handle are typed results; failures that are not listed (storage down)
 * are thrown.
 */

/**
 * What a turn attempt came to. Transport maps these to wire results and error codes; inside the
 * code they stay typed. Failures that are not listed here (storage down) are thrown.
 */
export type TurnAttempt =
  | { kind: "completed"; result: TurnResult }
  /** Same request_id and text as a turn already completed: its stored result, not re-run. */
  | { kind: "replayed"; result: TurnResult }
  | { kind: "thread_closed"; handoff: EscalationOutcome }
  /** Another turn on this thread is running ("reject" double-texting strategy). */
  | { kind: "busy" }
  /** Same request_id as a completed turn, different text. */
  | { kind: "request_conflict" }
  /** The request's domain filter names a domain none of the tenant's documents has. */
  | { kind: "unknown_domain"; domains: string[] };

export interface ThreadWatch extends AsyncIterable<WatchItem> {
  close(): void;
}

export type DeleteThreadAttempt = { kind: "deleted"; existed: boolean } | { kind: "busy" };

export interface RunTurnOptions {
  signal?: AbortSignal;
  /**
   * The turn's time limit, which the caller enforces through `signal`. Known to the graph so
   * that model calls stop in time to hand off instead of being cut off by the deadline.
   */
  timeLimitMs?: number;
  onProgress?: (event: NodeProgressEvent) => void;
}

/** The application service the transport calls. */
export interface TurnService {
  runTurn(input: TurnInput, options?: RunTurnOptions): Promise<TurnAttempt>;
  /** null when the thread has never run a turn (for this tenant). */
  getThread(tenantId: string, threadId: string): Promise<ThreadView | null>;
  /** Erases the thread (checkpoints, history, replay records); busy while a turn runs on it. */
  deleteThread(tenantId: string, threadId: string): Promise<DeleteThreadAttempt>;
  /** Erases the user's long-term memory in this tenant. */
  deleteUserMemory(tenantId: string, userId: string): Promise<{ existed: boolean }>;
  /** Turn events of one thread, or of every thread of the tenant when threadId is omitted. */
  watch(filter: { tenantId: string; threadId?: string }): Promise<ThreadWatch>;
}
