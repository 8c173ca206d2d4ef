import { createHash } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { appendHistory } from "../history.js";
import type { AgentDeps } from "../deps.js";
import { createOutgoingCheck, outgoingTexts, type OutgoingCheck } from "../outgoing.js";
import { createRedactor, type Redactor } from "../redaction.js";
import { escalationOutcome } from "./escalate.js";
import type { AgentStateUpdate, AgentStateValue, DraftState, GradeState, HistoryEntry, VerificationState } from "../state.js";
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
    return [
      ...new Set(
        outcome.claims
          .flatMap((c) => c.chunkIds)
          .map((id) => products.get(id))
          .filter((p): p is string => p !== undefined),
      ),
    ];
  }
  return [];
}

/**
 * The outcome as results keep it (replay, the caller, watchers): the agent's words under the
 * "replay" action. A handoff's context was already treated by escalate, field by field.
 */
function redactOutcome(outcome: TurnOutcome, r: Redactor): TurnOutcome {
  switch (outcome.kind) {
    case "answer":
      return { ...outcome, text: r.agent("replay", outcome.text), claims: outcome.claims.map((c) => ({ ...c, text: r.agent("replay", c.text) })) };
    case "clarify":
      return { ...outcome, question: r.agent("replay", outcome.question) };
    case "escalate":
      return { ...outcome, message: r.agent("replay", outcome.message), detail: r.agent("replay", outcome.detail) };
  }
}

/**
 * The working fields this turn leaves in the checkpoint, treated like what they derive from: the
 * user's message and query as history (the query as a query: see Redactor.query), drafts and
 * readings as results. The message was needed
 * raw while the turn ran (retrieval, models); the checkpoint never holds more than the policy allows.
 */
function redactWorkingFields(state: AgentStateValue, r: Redactor): AgentStateUpdate {
  const turn = state.turn!;
  const draft: DraftState | null = state.draft && { ...state.draft, claims: state.draft.claims.map((c) => ({ ...c, text: r.agent("replay", c.text) })) };
  const grading: GradeState | null = state.grading && {
    ...state.grading,
    ...(state.grading.reading ? { reading: { ...state.grading.reading, claims: state.grading.reading.claims.map((c) => ({ ...c, text: r.agent("replay", c.text) })) } } : {}),
    ...(state.grading.why !== undefined ? { why: r.agent("replay", state.grading.why) } : {}),
  };
  const verification: VerificationState | null = state.verification && {
    ...state.verification,
    failures: state.verification.failures.map((f) => ({ ...f, reason: r.agent("replay", f.reason) })),
  };
  return {
    turn: { ...turn, text: r.user("history", turn.text) },
    rewrittenQuery: r.query("history", state.rewrittenQuery),
    draft,
    grading,
    verification,
    escalation: state.escalation && { ...state.escalation, detail: r.agent("replay", state.escalation.detail) },
  };
}

/**
 * The outgoing check, the last step before a result leaves the graph: a reply that would carry
 * prompt text, a reason code, policy lists, bundle internals or a withheld planted sentence is
 * not sent; the turn hands off instead (reason ungrounded: the reply cannot be sent as written),
 * its detail naming only the kinds of leak. A handoff's own message is bundle copy: a leak there
 * is a configuration error, logged, and the message still goes.
 */
function withOutgoingChecked(deps: AgentDeps, check: OutgoingCheck, state: AgentStateValue): AgentStateValue {
  const outcome = state.outcome!;
  const leaks = outgoingTexts(outcome).flatMap((text) => check.leaks(text, state.withheld));
  if (leaks.length === 0) return state;
  const kinds = [...new Set(leaks.map((l) => l.kind))];
  if (outcome.kind === "escalate") {
    deps.logger.error({ leaks: kinds }, "a handoff message fails the outgoing check: fix copy.json");
    return state;
  }
  deps.logger.warn({ leaks: leaks.map((l) => `${l.kind}: ${l.what}`) }, "reply withheld by the outgoing check; the turn hands off");
  const escalation = { reason: "ungrounded" as const, detail: `the reply failed the outgoing check (${kinds.join(", ")}) and was not sent` };
  const handoff = escalationOutcome(deps, state, escalation);
  return { ...state, escalation, outcome: handoff, threadStatus: "escalated" };
}

/**
 * Terminal bookkeeping for every path: appends the turn to the bounded history, builds the
 * TurnResult (kept for request_id replay), and updates the clarify streak. Personal data is
 * treated here, as the turn is written into the thread (bundle/redaction.json).
 */
export function recordTurnNode(deps: AgentDeps) {
  const check = deps.outgoing ?? createOutgoingCheck({ prompts: [], policy: deps.bundle.policy });
  return async (checked: AgentStateValue, _config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = checked.turn!;
    if (checked.outcome === null) throw new Error("record_turn reached without an outcome");
    const state = withOutgoingChecked(deps, check, checked);
    const finalOutcome = state.outcome!;
    // The user's words as the state holds them: this message raw, stored turns as their policy left them.
    const r = createRedactor(deps.bundle.redaction, [turn.text, state.rewrittenQuery, ...state.history.flatMap((h) => [h.user, h.rewrittenQuery ?? ""])]);
    const outcome = redactOutcome(finalOutcome, r);
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
      user: r.user("history", turn.text),
      reply: r.agent("history", replyOf(finalOutcome)),
      outcome: outcome.kind,
      language: state.language,
      products: productsOf(outcome, state),
      turnId: turn.turnId,
      requestId: turn.requestId,
      completedAt,
      ...(state.rewrittenQuery !== "" ? { rewrittenQuery: r.query("history", state.rewrittenQuery) } : {}),
    };
    const appended = appendHistory(state.history, state.summary, entry, deps.settings.limits.historyTurns, deps.settings.limits.summaryMaxChars);
    // Summary lines are made of stored turns: treated again only where "summary" is stricter than "history".
    const { history } = appended;
    const summary = r.tighten("history", "summary", appended.summary);
    const replay =
      turn.requestId === ""
        ? state.replay
        : [...state.replay.filter((record) => record.requestId !== turn.requestId), { requestId: turn.requestId, textHash: textHash(turn.text), result }].slice(
            -deps.settings.limits.replayRecords,
          );
    return {
      ...redactWorkingFields(state, r),
      ...(state !== checked ? { threadStatus: state.threadStatus } : {}),
      outcome,
      // The thread's latch keeps the same handoff the result carries.
      ...(outcome.kind === "escalate" ? { handoff: outcome } : {}),
      result,
      history,
      summary,
      replay,
      turnCount: state.turnCount + 1,
      clarifyStreak: outcome.kind === "clarify" ? state.clarifyStreak + 1 : 0,
      pendingClarify:
        outcome.kind === "clarify"
          ? {
              // A reply that picked nothing is asked the same question again, about the same query.
              query: state.gate?.kind === "clarify_reply" && state.pendingClarify !== null ? state.pendingClarify.query : r.query("history", state.rewrittenQuery),
              options: outcome.options,
              language: state.language,
            }
          : null,
    };
  };
}
