import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { evidenceFromHits, findAmbiguity } from "../evidence.js";
import { topicHandoff } from "../gates.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue, GradeState } from "../state.js";

/**
 * Judges what retrieval returned: sufficient, ambiguous or insufficient. Retrieval scores and
 * chunk metadata decide first; the model is asked only in the uncertain band between the two
 * score thresholds. Budgets are applied here: an insufficient result with no retrieval round
 * left, or an ambiguity after the clarify budget, becomes an escalation.
 *
 * A clarifying question is only grounded when its options fit the question, so ambiguity is
 * judged on strong results only (best score at least the sufficient score). "How much is boat
 * insurance?" retrieves weak price passages of other products; offering them as options would be
 * a guess, so it is graded like any weak result.
 *
 * A reply to a clarifying question that picks none of its options (triage's clarify_reply) and
 * adds nothing retrieval can use is not an insufficient retrieval: the pending question is asked
 * again, within the same clarify budget, so the second such reply ends in budget_exhausted.
 */
export function gradeNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const { grading, budgets } = deps.settings;
    const hits = state.hits;
    const best = hits[0]?.score ?? 0;
    const relevant = hits.filter((h) => h.score >= grading.insufficientScore).map((h) => h.chunk.chunkId);
    let update: AgentStateUpdate = {};
    let grade: GradeState;

    // The classifier read the message as out of scope: unless retrieval found something good
    // enough to answer from (by scores alone), that is the reply: no model call, retry or handoff.
    if (state.gate?.kind === "classifier" && state.gate.label === "out_of_scope" && best < grading.sufficientScore) {
      return { grading: { verdict: "insufficient", relevantChunkIds: [], method: "scores", options: [] }, intent: "out_of_scope" };
    }
    const ambiguity = hits.length > 0 && best >= grading.sufficientScore ? findAmbiguity(hits, state.rewrittenQuery, state.language, grading.ambiguityMargin, grading.maxClarifyOptions, deps.bundle.sharedDomains) : null;
    if (hits.length === 0 || best < grading.insufficientScore) {
      grade = { verdict: "insufficient", relevantChunkIds: [], method: "scores", options: [] };
    } else if (ambiguity !== null) {
      grade = { verdict: "ambiguous", relevantChunkIds: relevant, method: "scores", options: ambiguity.options };
    } else if (best >= grading.sufficientScore) {
      grade = { verdict: "sufficient", relevantChunkIds: relevant, method: "scores", options: [] };
    } else {
      const call = await callModel(
        deps,
        state,
        "grade",
        { query: state.rewrittenQuery, language: state.language, chunks: evidenceFromHits(hits, relevant) },
        config.signal,
      );
      if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
      update = { ...call.accounting };
      const known = new Set(hits.map((h) => h.chunk.chunkId));
      const ids = call.output.relevantChunkIds.filter((id) => known.has(id));
      // The model may call a question ambiguous, but a clarifying question needs real options:
      // without two products in the results there is nothing grounded to offer.
      const verdict = call.output.verdict === "ambiguous" ? "insufficient" : call.output.verdict;
      grade = { verdict, relevantChunkIds: ids.length > 0 ? ids : relevant, method: "model", options: [] };
    }

    // A reply to a clarifying question that picked none of its options and gave retrieval
    // nothing to use: the question is asked again, and that counts toward the clarify budget.
    const pending = state.pendingClarify;
    if (grade.verdict === "insufficient" && state.retrievalRounds >= budgets.retrievalRounds && state.gate?.kind === "clarify_reply" && pending !== null && pending.options.length > 0) {
      grade = { verdict: "ambiguous", relevantChunkIds: [], method: "clarify_reply", options: pending.options };
    }
    if (grade.verdict === "insufficient" && state.retrievalRounds >= budgets.retrievalRounds) {
      const detail = `nothing relevant enough after ${state.retrievalRounds} retrieval round(s) (best score ${best.toFixed(2)})`;
      update.escalation = topicHandoff(state.gate, deps.policy.restrictedTopic(state.turn!.text), `the documents do not answer (${detail})`) ?? { reason: "insufficient_retrieval", detail };
    }
    if (grade.verdict === "ambiguous" && state.clarifyStreak >= budgets.clarifyStreak) {
      update.escalation = {
        reason: "budget_exhausted",
        detail: `still ambiguous after ${state.clarifyStreak} consecutive clarifying question(s)`,
        copyKey: "escalation.clarify_not_converging",
      };
    }
    return { ...update, grading: grade };
  };
}

