import type { Logger } from "../domain/logger.js";
import type { ThreadLocks, TurnTransaction } from "../persistence/index.js";
import { detectLanguage, type Language } from "../text/language.js";
import type { CompiledAgentGraph } from "./graph.js";
import { textHash } from "./nodes/record-turn.js";
import { summarizeNode } from "./progress.js";
import { freshTurnState, type AgentStateUpdate, type AgentStateValue, type TurnContext } from "./state.js";
import type { NodeProgressEvent, ThreadView, TurnAttempt, TurnInput, TurnService } from "./types.js";

export interface TurnServiceDeps {
  graph: CompiledAgentGraph;
  transaction: TurnTransaction;
  locks: ThreadLocks;
  defaultLanguage: Language;
  now: () => number;
  newId: () => string;
  logger: Logger;
}

/**
 * The checkpoint key of a thread. Tenant and thread ids cannot contain "/", so one tenant's
 * thread can never address another's, whatever ids it sends.
 */
export const threadKey = (tenantId: string, threadId: string) => `${tenantId}/${threadId}`;

type TaskEvent = { id: string; name: string; result?: unknown; error?: unknown; input?: unknown };

export function createTurnService(deps: TurnServiceDeps): TurnService {
  const { graph, transaction, locks, logger } = deps;

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
        if (thread?.threadStatus === "escalated" && thread.handoff) return { kind: "thread_closed", handoff: thread.handoff };
        if (input.requestId !== "") {
          const previous = thread?.replay?.find((r) => r.requestId === input.requestId);
          if (previous !== undefined) {
            return previous.textHash === textHash(input.text) ? { kind: "replayed", result: previous.result } : { kind: "request_conflict" };
          }
        }

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
        const emit = (event: Omit<NodeProgressEvent, "seq">) => options.onProgress?.({ ...event, seq: ++seq });

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
          throw error;
        }
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
  };
}
