import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { renderCopy } from "../bundle.js";
import { conversationSummary } from "../history.js";
import type { AgentDeps } from "../deps.js";
import { createRedactor } from "../redaction.js";
import type { AgentStateUpdate, AgentStateValue, PendingEscalation } from "../state.js";
import type { EscalationOutcome } from "../../domain/turn.js";

/** How many retrieved chunks the human agent sees in the handoff. */
const HANDOFF_CHUNKS = 5;

/**
 * Terminal: produces the handoff signal and closes the thread. It performs no transfer; the
 * caller runs its own "connect me to a human" path with the handoff context. The context is
 * treated field by field (bundle/redaction.json): the conversation summary is made of stored
 * turns, so only what their own fields kept is treated again; the last message (and the query
 * restating it) is the user's raw words, kept only when the policy says so.
 */
export function escalateNode(deps: AgentDeps) {
  return async (state: AgentStateValue, _config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    // Routing only comes here with a reason recorded; a missing one is a bug, handed off all the same.
    const outcome = escalationOutcome(deps, state, state.escalation ?? { reason: "budget_exhausted", detail: "escalated without a recorded reason" });
    return { outcome, threadStatus: "escalated", handoff: outcome };
  };
}

/** The handoff for `pending`: also what record_turn sends instead of a reply that failed the outgoing check. */
export function escalationOutcome(deps: AgentDeps, state: AgentStateValue, pending: PendingEscalation): EscalationOutcome {
  {
    const turn = state.turn!;
    const r = createRedactor(deps.bundle.redaction);
    const summary = r.tighten("summary", "handoff.conversation_summary", state.summary);
    const history = state.history.map((h) => ({
      ...h,
      user: r.tighten("history", "handoff.conversation_summary", h.user),
      reply: r.tighten("history", "handoff.conversation_summary", h.reply),
    }));
    const outcome: EscalationOutcome = {
      kind: "escalate",
      reason: pending.reason,
      message: renderCopy(deps.bundle, pending.copyKey ?? `escalation.${pending.reason}`, state.language),
      detail: pending.detail,
      handoff: {
        rewrittenQuery: r.user("handoff.last_user_message", state.rewrittenQuery),
        topChunks: state.hits.slice(0, HANDOFF_CHUNKS).map((h) => ({
          chunkId: h.chunk.chunkId,
          documentId: h.chunk.documentId,
          title: h.chunk.title,
          score: Number(h.score.toFixed(4)),
        })),
        conversationSummary: conversationSummary(summary, history),
        userProfile: state.profile,
        lastUserMessage: r.user("handoff.last_user_message", turn.text),
        language: state.language,
      },
    };
    return outcome;
  }
}
