import type { CompiledAgentGraph } from "../agent/graph.js";
import { summarizeNode } from "../agent/progress.js";
import { freshTurnState, type AgentStateUpdate, type AgentStateValue, type TurnContext } from "../agent/state.js";
import type { NodeProgressEvent, TurnResult } from "../domain/turn.js";

/** A task event of LangGraph's "tasks" stream mode: one when a node starts, one when it ends. */
type TaskEvent = { id: string; name: string; result?: unknown; error?: unknown; input?: unknown };

export interface GraphRunOptions {
  signal?: AbortSignal;
  now: () => number;
  /** Every node's start and end, numbered from 1 in the order they happened. */
  onProgress: (event: NodeProgressEvent) => void;
}

/**
 * Runs one turn of the graph on `threadKey` and decodes its task stream into progress events.
 * The checkpoint is written once, at the end (durability "exit"), through the turn-scoped saver
 * the caller opened; throws when the graph fails or ends without a result.
 */
export async function runGraphTurn(graph: CompiledAgentGraph, threadKey: string, turn: TurnContext, options: GraphRunOptions): Promise<TurnResult> {
  const started = new Map<string, number>();
  let seq = 0;
  let result: AgentStateValue["result"] = null;
  const emit = (event: Omit<NodeProgressEvent, "seq">) => options.onProgress({ ...event, seq: ++seq });

  const stream = await graph.stream(freshTurnState(turn), {
    configurable: { thread_id: threadKey },
    durability: "exit",
    streamMode: ["tasks"],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const chunk of stream as AsyncIterable<[string, TaskEvent]>) {
    const [, task] = chunk;
    const at = options.now();
    if (!("result" in task) && !("error" in task)) {
      started.set(task.id, at);
      emit({ node: task.name, phase: "started", elapsedMs: at - turn.startedAtMs, durationMs: 0, summary: "" });
      continue;
    }
    const update = (task.result ?? {}) as AgentStateUpdate;
    if (update.result) result = update.result;
    emit({
      node: task.name,
      phase: "completed",
      elapsedMs: at - turn.startedAtMs,
      durationMs: at - (started.get(task.id) ?? at),
      summary: summarizeNode(task.name, update),
    });
  }
  if (result === null) throw new Error("the turn ended without a result");
  return result;
}
