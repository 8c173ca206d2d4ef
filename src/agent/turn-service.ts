import type { Logger } from "../domain/logger.js";
import { threadKey, type ProfileStore, type ThreadLocks, type TurnEvents, type TurnTransaction, type Watch, type WatchMessage } from "../persistence/index.js";
import { detectLanguage, type Language } from "../text/language.js";
import type { CompiledAgentGraph } from "./graph.js";
import { textHash } from "./nodes/record-turn.js";
import { summarizeNode } from "./progress.js";
import { freshTurnState, type AgentStateUpdate, type AgentStateValue, type TurnContext } from "./state.js";
import type { NodeProgressEvent, ThreadEvent, ThreadView, ThreadWatch, TurnAttempt, TurnInput, TurnService, WatchItem } from "./types.js";

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
  defaultLanguage: Language;
  now: () => number;
  newId: () => string;
  logger: Logger;
}

export { threadKey };

type TaskEvent = { id: string; name: string; result?: unknown; error?: unknown; input?: unknown };

const EVENT_KINDS = new Set(["progress", "result", "failed"]);

/**
 * Events come back from storage (another process published them): check the shape this build
 * relies on before handing one on, rather than trusting it.
 */
export function parseThreadEvent(payload: unknown): ThreadEvent | null {
  if (typeof payload !== "object" || payload === null) return null;
  if (!("kind" in payload) || typeof payload.kind !== "string" || !EVENT_KINDS.has(payload.kind)) return null;
  if (!("turnId" in payload) || typeof payload.turnId !== "string") return null;
  if (payload.kind === "progress" && !("progress" in payload && typeof payload.progress === "object" && payload.progress !== null)) return null;
  if (payload.kind === "result" && !("result" in payload && typeof payload.result === "object" && payload.result !== null)) return null;
  if (payload.kind === "failed" && !("reason" in payload && (payload.reason === "cancelled" || payload.reason === "error"))) return null;
  return payload as ThreadEvent;
}

function toWatchItem(message: WatchMessage, logger: Logger): WatchItem | null {
  if (message.kind === "fell_behind") return { kind: "fell_behind", reason: message.reason };
  const event = parseThreadEvent(message.event.payload);
  if (event === null) {
    logger.warn({ thread: message.event.threadId }, "ignored a turn event of unknown shape");
    return null;
  }
  return { kind: "event", threadId: message.event.threadId, event };
}

/** A watch over stored events as typed watch items (events of unknown shape are logged and skipped). */
export function watchItems(source: Watch, logger: Logger): ThreadWatch {
  return {
    close: () => source.close(),
    async *[Symbol.asyncIterator]() {
      for await (const message of source) {
        const item = toWatchItem(message, logger);
        if (item !== null) yield item;
      }
    },
  };
}

export function createTurnService(deps: TurnServiceDeps): TurnService {
  const { graph, transaction, locks, logger, events } = deps;

  const publish = (input: TurnInput, event: ThreadEvent) => events.publish({ tenantId: input.tenantId, threadId: input.threadId, payload: event });

  async function readThread(key: string): Promise<Partial<AgentStateValue> | null> {
    const snapshot = await graph.getState({ configurable: { thread_id: key } });
    return snapshot.createdAt === undefined ? null : (snapshot.values as Partial<AgentStateValue>);
  }

  return {
    async runTurn(input: TurnInput, options = {}): Promise<TurnAttempt> {
      const key = threadKey(input.tenantId, input.threadId);
      const lease = await locks.tryAcquire(key);
      if (lease === null) return { kind: "busy" };
      try {
        const thread = await readThread(key);
        // Replay first: the retry of the very turn that escalated gets its result, not the refusal.
        if (input.requestId !== "") {
          const previous = thread?.replay?.find((r) => r.requestId === input.requestId);
          if (previous !== undefined) {
            return previous.textHash === textHash(input.text) ? { kind: "replayed", result: previous.result } : { kind: "request_conflict" };
          }
        }
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
        const language = detectLanguage(input.text, input.locale, deps.defaultLanguage).language;
        const started = new Map<string, number>();
        let seq = 0;
        let result: AgentStateValue["result"] = null;
        const emit = (event: Omit<NodeProgressEvent, "seq">) => {
          const progress: NodeProgressEvent = { ...event, seq: ++seq };
          options.onProgress?.(progress);
          publish(input, { kind: "progress", turnId: turn.turnId, progress });
        };

        transaction.begin(key);
        try {
          const stream = await graph.stream(freshTurnState(turn, language), {
            configurable: { thread_id: key },
            durability: "exit",
            streamMode: ["tasks"],
            ...(options.signal ? { signal: options.signal } : {}),
          });
          for await (const chunk of stream as AsyncIterable<[string, TaskEvent]>) {
            const [, task] = chunk;
            const at = deps.now();
            if (!("result" in task) && !("error" in task)) {
              started.set(task.id, at);
              emit({ node: task.name, phase: "started", elapsedMs: at - startedAtMs, durationMs: 0, summary: "" });
              continue;
            }
            const update = (task.result ?? {}) as AgentStateUpdate;
            if (update.result) result = update.result;
            emit({
              node: task.name,
              phase: "completed",
              elapsedMs: at - startedAtMs,
              durationMs: at - (started.get(task.id) ?? at),
              summary: summarizeNode(task.name, update),
            });
          }
          if (result === null) throw new Error("the turn ended without a result");
          await transaction.commit(key);
        } catch (error) {
          transaction.discard(key);
          publish(input, { kind: "failed", turnId: turn.turnId, reason: options.signal?.aborted === true ? "cancelled" : "error" });
          throw error;
        }
        // Only after the commit: a watcher never sees a result the thread does not keep.
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

    async getThread(tenantId: string, threadId: string): Promise<ThreadView | null> {
      const thread = await readThread(threadKey(tenantId, threadId));
      if (thread === null) return null;
      const history = thread.history ?? [];
      return {
        threadId,
        status: thread.threadStatus ?? "active",
        handoff: thread.handoff ?? null,
        recentTurns: history.map((h) => ({
          turnId: h.turnId,
          requestId: h.requestId,
          userText: h.user,
          outcome: h.outcome,
          reply: h.reply,
          language: h.language,
          completedAt: h.completedAt,
        })),
        summary: thread.summary ?? "",
        turnCount: thread.turnCount ?? 0,
        updatedAt: history.at(-1)?.completedAt ?? null,
      };
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
