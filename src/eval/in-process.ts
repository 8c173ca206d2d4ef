import { performance } from "node:perf_hooks";
import type { AgentStateValue } from "../agent/state.js";
import { threadKey } from "../service/turns.js";
import type { TurnResult } from "../domain/turn.js";
import type { TurnAttempt } from "../service/types.js";
import { createApp, type AppOverrides } from "../app/index.js";
import type { Config } from "../config/config.js";
import type { Logger } from "../domain/logger.js";
import { createMemoryPersistence } from "../persistence/memory.js";
import { loadCorpusDir } from "../retrieval/index.js";
import { emptyObservation, type EvalTarget, type ObservedTurn, type TurnRequest } from "./target.js";

export interface InProcessTargetOptions {
  /** The service's configuration; its checkpointer is ignored (threads live in memory). */
  config: Config;
  logger: Logger;
  /** Test-only documents loaded after the configured corpus (eval/fixtures). */
  extraCorpusDirs?: readonly string[];
  /** A model provider other than the configured one (tests). */
  models?: AppOverrides["models"];
  /** How reports name this target. Default "in-process". */
  label?: string;
}

export interface InProcessTarget extends EvalTarget {
  /** The thread's checkpointed values after its last turn (golden transcripts, failure reports). */
  threadState(threadId: string): Promise<Partial<AgentStateValue> | null>;
}

/** How many retrieved chunks a failure report shows. */
const TOP_CHUNKS = 5;

/** The observable part of a completed turn. */
export function observeResult(result: TurnResult): Omit<ObservedTurn, "rewrittenQuery" | "topChunks" | "nodes" | "latencyMs"> {
  const base = {
    language: result.language,
    citations: [] as ObservedTurn["citations"],
    claims: [] as ObservedTurn["claims"],
    options: [] as ObservedTurn["options"],
    reason: null,
    detail: "",
    modelCalls: result.stats.modelCalls,
  };
  const outcome = result.outcome;
  switch (outcome.kind) {
    case "answer":
      return {
        ...base,
        outcome: outcome.answerKind === "grounded" ? "answer" : outcome.answerKind,
        text: outcome.text,
        citations: outcome.citations.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId })),
        claims: outcome.claims.map((c) => ({ text: c.text, chunkIds: [...c.chunkIds] })),
      };
    case "clarify":
      return {
        ...base,
        outcome: "clarify",
        text: [outcome.question, ...outcome.options.map((o) => o.label)].join("\n"),
        options: outcome.options.map((o) => ({ label: o.label, documentId: o.documentId, product: o.product })),
      };
    case "escalate":
      return { ...base, outcome: "escalate", text: outcome.message, reason: outcome.reason, detail: outcome.detail };
  }
}

/**
 * The application in this process, as the server runs it (same composition root, same
 * configuration), with threads in memory so that every evaluation starts clean and its
 * checkpoints can be read back for the failure report.
 */
export async function createInProcessTarget(options: InProcessTargetOptions): Promise<InProcessTarget> {
  const persistence = createMemoryPersistence();
  const extraCorpusDirs = options.extraCorpusDirs ?? [];
  const app = await createApp(options.config, options.logger, {
    persistence,
    extraCorpusDirs,
    ...(options.models !== undefined ? { models: options.models } : {}),
  });
  const tenantId = app.tenants[0]!;
  const fixtures = new Set<string>();
  for (const dir of extraCorpusDirs) {
    for (const document of (await loadCorpusDir(dir, { tenantId })).documents) fixtures.add(document.id);
  }

  async function threadState(threadId: string): Promise<Partial<AgentStateValue> | null> {
    const tuple = await persistence.saver.getTuple({ configurable: { thread_id: threadKey(tenantId, threadId) } });
    return tuple === undefined ? null : (tuple.checkpoint.channel_values as Partial<AgentStateValue>);
  }

  return {
    label: options.label ?? "in-process",
    fixtures,
    threadState,
    getChunk: (chunkId) => app.getChunk(tenantId, chunkId),
    async runTurn(request: TurnRequest): Promise<ObservedTurn> {
      const nodes: ObservedTurn["nodes"] = [];
      const started = performance.now();
      let attempt: TurnAttempt;
      try {
        attempt = await app.turnService.runTurn(
          {
            tenantId,
            threadId: request.threadId,
            userId: request.userId,
            text: request.text,
            requestId: "",
            ...(request.domain !== undefined ? { domain: request.domain } : {}),
          },
          { onProgress: (event) => event.phase === "completed" && nodes.push({ node: event.node, summary: event.summary }) },
        );
      } catch (error) {
        return { ...emptyObservation("error", `the turn failed: ${(error as Error).message}`, performance.now() - started), nodes };
      }
      const latencyMs = performance.now() - started;
      switch (attempt.kind) {
        case "completed":
        case "replayed": {
          const state = await threadState(request.threadId);
          return {
            ...observeResult(attempt.result),
            rewrittenQuery: state?.rewrittenQuery ?? null,
            topChunks: (state?.hits ?? []).slice(0, TOP_CHUNKS).map((h) => ({
              chunkId: h.chunk.chunkId,
              documentId: h.chunk.documentId,
              title: h.chunk.title,
              score: h.score,
            })),
            nodes,
            latencyMs,
          };
        }
        case "thread_closed":
          return emptyObservation("refused", `thread closed by an earlier escalation (${attempt.handoff.reason})`, latencyMs);
        case "busy":
          return emptyObservation("error", "another turn was running on this thread", latencyMs);
        case "request_conflict":
          return emptyObservation("error", "request id reused with another text", latencyMs);
      }
    },
    close: () => app.close(),
  };
}
