import { createHash } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { appendHistory } from "../history.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue, HistoryEntry } from "../state.js";
import type { TurnOutcome, TurnResult } from "../../domain/turn.js";

export const textHash = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

function replyOf(outcome: TurnOutcome): string {
  switch (outcome.kind) {
    case "answer":
      return outcome.text;
    case "clarify":
      return `${outcome.question} ${outcome.options.map((o, i) => `(${i + 1}) ${o.label}`).join(" ")}`;
    case "escalate":
      return outcome.message;
  }
}

function productsOf(outcome: TurnOutcome, state: AgentStateValue): string[] {
  if (outcome.kind === "clarify") return outcome.options.map((o) => o.product);
  if (outcome.kind === "answer") {
    const products = new Map(state.hits.flatMap((h) => [h.chunk, ...h.neighbors]).map((c) => [c.chunkId, c.product]));
    return [...new Set(outcome.claims.flatMap((c) => c.chunkIds).map((id) => products.get(id)).filter((p): p is string => p !== undefined))];
  }
  return [];
}

/**
 * Terminal bookkeeping for every path: appends the turn to the bounded history, builds the
 * TurnResult (kept for request_id replay), and updates the clarify streak.
 */
export function recordTurnNode(deps: AgentDeps) {
  return async (state: AgentStateValue, _config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    const outcome = state.outcome;
    if (outcome === null) throw new Error("record_turn reached without an outcome");
    const completedAt = new Date(deps.now()).toISOString();
    const result: TurnResult = {
      threadId: turn.threadId,
      turnId: turn.turnId,
      requestId: turn.requestId,
      language: state.language,
      outcome,
      stats: {
        modelCalls: state.modelCalls,
        retrievalRounds: state.retrievalRounds,
        regenerations: state.regenerations,
        durationMs: Math.max(0, deps.now() - turn.startedAtMs),
        roles: state.usage,
      },
      completedAt,
    };
    const entry: HistoryEntry = {
      user: turn.text,
      reply: replyOf(outcome),
      outcome: outcome.kind,
      language: state.language,
      products: productsOf(outcome, state),
      turnId: turn.turnId,
      requestId: turn.requestId,
      completedAt,
      ...(state.rewrittenQuery !== "" ? { rewrittenQuery: state.rewrittenQuery } : {}),
    };
    const { history, summary } = appendHistory(state.history, state.summary, entry, deps.settings.limits.historyTurns, deps.settings.limits.summaryMaxChars);
    const replay =
      turn.requestId === ""
        ? state.replay
        : [...state.replay.filter((r) => r.requestId !== turn.requestId), { requestId: turn.requestId, textHash: textHash(turn.text), result }].slice(
            -deps.settings.limits.replayRecords,
          );
    return {
      result,
      history,
      summary,
      replay,
      turnCount: state.turnCount + 1,
      clarifyStreak: outcome.kind === "clarify" ? state.clarifyStreak + 1 : 0,
      pendingClarify:
        outcome.kind === "clarify"
          ? { query: state.gate?.kind === "clarify_reply" && state.pendingClarify !== null ? state.pendingClarify.query : state.rewrittenQuery, options: outcome.options, language: state.language }
          : null,
    };
  };
}
