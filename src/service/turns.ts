import type { CompiledAgentGraph } from "../agent/graph.js";
import { textHash } from "../agent/nodes/record-turn.js";
import { createRedactor, DEFAULT_REDACTION, type RedactionPolicy } from "../agent/redaction.js";
import type { AgentStateValue, TurnContext } from "../agent/state.js";
import type { Logger } from "../domain/logger.js";
import type { Taxonomy } from "../domain/taxonomy.js";
import type { ThreadEvent, ThreadView, TurnInput, TurnResult } from "../domain/turn.js";
import { threadKey, type ProfileStore, type ThreadLocks, type TurnEvents, type TurnTransaction } from "../persistence/index.js";
import { runGraphTurn } from "./graph-run.js";
import type { ThreadWatch, TurnAttempt, TurnService } from "./types.js";
import { watchItems } from "./watch.js";

export interface TurnServiceDeps {
  graph: CompiledAgentGraph;
  transaction: TurnTransaction;
  locks: ThreadLocks;
  /** Long-term memory, for erasure (nodes read and write it through AgentDeps). */
  profiles: ProfileStore;
  /** Where running turns are published for watchers. */
  events: TurnEvents;
  /** Deletes everything kept for a thread key; true when something existed. */
  eraseThread: (threadKey: string) => Promise<boolean>;
  /** The tenant's taxonomy: a request's domain filter must name one of its domains. */
  taxonomy: (tenantId: string, signal?: AbortSignal) => Promise<Taxonomy>;
  now: () => number;
  newId: () => string;
  logger: Logger;
  /** What GetThread shows of personal data (the bundle's "get_thread"); default: masked. */
  redaction?: RedactionPolicy;
}

export { threadKey };

/**
 * A retry of a completed turn (same request_id) gets that turn's stored result without running
 * the graph; the same id with other text is a conflict. Checked before the escalation latch, so
 * the retry of the very turn that escalated gets its result, not the refusal.
 */
function replayOf(thread: Partial<AgentStateValue> | null, input: TurnInput): TurnAttempt | null {
  if (input.requestId === "") return null;
  const previous = thread?.replay?.find((r) => r.requestId === input.requestId);
  if (previous === undefined) return null;
  return previous.textHash === textHash(input.text) ? { kind: "replayed", result: previous.result } : { kind: "request_conflict" };
}

/**
 * The thread as GetThread shows it. Stored turns were treated when written ("history",
 * "summary"); "get_thread" treats again only what it is stricter about than they were. The
 * handoff is shown as stored, under its own fields' actions.
 */
function threadView(threadId: string, thread: Partial<AgentStateValue>, policy: RedactionPolicy): ThreadView {
  const history = thread.history ?? [];
  const r = createRedactor(policy);
  return {
    threadId,
    status: thread.threadStatus ?? "active",
    handoff: thread.handoff ?? null,
    recentTurns: history.map((h) => ({
      turnId: h.turnId,
      requestId: h.requestId,
      userText: r.tighten("history", "get_thread", h.user),
      outcome: h.outcome,
      reply: r.tighten("history", "get_thread", h.reply),
      language: h.language,
      completedAt: h.completedAt,
    })),
    summary: r.tighten("summary", "get_thread", thread.summary ?? ""),
    turnCount: thread.turnCount ?? 0,
    updatedAt: history.at(-1)?.completedAt ?? null,
  };
}

/**
 * The turn service: one turn at a time per thread (the lock), replay, the escalation latch, the
 * graph run with its single commit, and the events watchers see — published only after the
 * commit, so a watcher never sees a result the thread does not keep.
 */
export function createTurnService(deps: TurnServiceDeps): TurnService {
  const { graph, transaction, locks, logger, events } = deps;

  const publish = (input: TurnInput, event: ThreadEvent) => events.publish({ tenantId: input.tenantId, threadId: input.threadId, payload: event });

  async function readThread(key: string): Promise<Partial<AgentStateValue> | null> {
    const snapshot = await graph.getState({ configurable: { thread_id: key } });
    return snapshot.createdAt === undefined ? null : (snapshot.values as Partial<AgentStateValue>);
  }

  return {
    async runTurn(input, options = {}): Promise<TurnAttempt> {
      if (input.domain !== undefined && input.domain !== "") {
        // The tenant's own domains, from its documents: a filter naming another would silently
        // retrieve nothing.
        const { domains } = await deps.taxonomy(input.tenantId, options.signal);
        if (!domains.includes(input.domain)) return { kind: "unknown_domain", domains };
      }
      const key = threadKey(input.tenantId, input.threadId);
      const lease = await locks.tryAcquire(key);
      if (lease === null) return { kind: "busy" };
      try {
        const thread = await readThread(key);
        const replayed = replayOf(thread, input);
        if (replayed !== null) return replayed;
        if (thread?.threadStatus === "escalated" && thread.handoff) return { kind: "thread_closed", handoff: thread.handoff };

        const startedAtMs = deps.now();
        const turn: TurnContext = {
          turnId: deps.newId(),
          tenantId: input.tenantId,
          threadId: input.threadId,
          userId: input.userId,
          text: input.text,
          requestId: input.requestId,
          locale: input.locale ?? "",
          domain: input.domain ?? "",
          startedAtMs,
          ...(options.timeLimitMs !== undefined ? { deadlineAtMs: startedAtMs + options.timeLimitMs } : {}),
        };

        transaction.begin(key);
        let result: TurnResult;
        try {
          result = await runGraphTurn(graph, key, turn, {
            now: deps.now,
            ...(options.signal ? { signal: options.signal } : {}),
            onProgress: (progress) => {
              options.onProgress?.(progress);
              publish(input, { kind: "progress", turnId: turn.turnId, progress });
            },
          });
          await transaction.commit(key);
        } catch (error) {
          transaction.discard(key);
          publish(input, { kind: "failed", turnId: turn.turnId, reason: options.signal?.aborted === true ? "cancelled" : "error" });
          throw error;
        }
        publish(input, { kind: "result", turnId: turn.turnId, result });
        logger.info(
          { thread: input.threadId, tenant: input.tenantId, turn: result.turnId, outcome: result.outcome.kind, ms: result.stats.durationMs, modelCalls: result.stats.modelCalls },
          "turn completed",
        );
        return { kind: "completed", result };
      } finally {
        await lease.release();
      }
    },

    async getThread(tenantId, threadId) {
      const thread = await readThread(threadKey(tenantId, threadId));
      return thread === null ? null : threadView(threadId, thread, deps.redaction ?? DEFAULT_REDACTION);
    },

    async deleteThread(tenantId, threadId) {
      const key = threadKey(tenantId, threadId);
      // Holding the thread's lock: a turn committing after the erasure would bring the thread back.
      const lease = await locks.tryAcquire(key);
      if (lease === null) return { kind: "busy" };
      try {
        const existed = await deps.eraseThread(key);
        logger.info({ tenant: tenantId, thread: threadId, existed }, "thread deleted");
        return { kind: "deleted", existed };
      } finally {
        await lease.release();
      }
    },

    async deleteUserMemory(tenantId, userId) {
      const existed = await deps.profiles.delete(tenantId, userId);
      logger.info({ tenant: tenantId, existed }, "user memory deleted");
      return { existed };
    },

    async watch(filter): Promise<ThreadWatch> {
      return watchItems(await events.subscribe(filter), logger);
    },
  };
}
