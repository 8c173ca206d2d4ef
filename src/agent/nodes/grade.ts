import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { evidenceFromHits, findAmbiguity } from "../evidence.js";
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
 */
export function gradeNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const { grading, budgets } = deps.settings;
    const hits = state.hits;
    const best = hits[0]?.score ?? 0;
    const relevant = hits.filter((h) => h.score >= grading.insufficientScore).map((h) => h.chunk.chunkId);
    let update: AgentStateUpdate = {};
    let grade: GradeState;

    const taxonomy = await deps.retriever.taxonomy(state.turn!.tenantId, config.signal);
    const general = new Set(taxonomy.products.filter((p) => p.general).map((p) => p.product));
    const ambiguity =
      hits.length > 0 && best >= grading.sufficientScore
        ? findAmbiguity(hits, state.rewrittenQuery, state.language, grading.ambiguityMargin, grading.maxClarifyOptions, (chunk) => general.has(chunk.product))
        : null;
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

    if (grade.verdict === "insufficient" && state.retrievalRounds >= budgets.retrievalRounds) {
      update.escalation = {
        reason: "insufficient_retrieval",
        detail: `nothing relevant enough after ${state.retrievalRounds} retrieval round(s) (best score ${best.toFixed(2)})`,
      };
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

