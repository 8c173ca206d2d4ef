import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { renderCopy, type CopyKey } from "../bundle.js";
import { evidenceFromHits } from "../evidence.js";
import { topicHandoff } from "../gates.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";

/**
 * Answers. Chitchat and out-of-scope turns get a short reply from the bundle's copy: no
 * retrieval, no facts, no citations, no model call. Knowledge turns are answered only from the
 * retrieved chunks, every claim cited; a draft that is not answered or not confident enough
 * escalates (ADR trigger 4). After a failed verification this node runs again once, told why.
 */
export function generateNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const language = state.language;
    if (state.intent === "chitchat" || state.intent === "out_of_scope") {
      const gate = state.gate;
      const kind = gate?.kind === "chitchat" ? gate.chitchat : gate?.kind === "classifier" ? (gate.chitchat ?? "smalltalk") : "smalltalk";
      const key: CopyKey = state.intent === "out_of_scope" ? "out_of_scope.reply" : `chitchat.${kind}`;
      return {
        outcome: {
          kind: "answer",
          answerKind: state.intent === "out_of_scope" ? "out_of_scope" : "chitchat",
          text: renderCopy(deps.bundle, key, language),
          claims: [],
          citations: [],
          confidence: 0,
        },
      };
    }

    const regenerating = state.verification !== null && !state.verification.grounded;
    const feedback = regenerating ? state.verification!.failures.map((f) => `Rejected: "${state.draft?.claims[f.claimIndex]?.text ?? ""}" (${f.reason})`).join("\n") : undefined;
    const call = await callModel(
      deps,
      state,
      "generate",
      {
        userText: state.turn!.text,
        query: state.rewrittenQuery,
        language,
        chunks: evidenceFromHits(state.hits, state.grading?.relevantChunkIds ?? []),
        ...(feedback !== undefined ? { feedback } : {}),
        // The reader's match, first evidence; on regeneration the model works from the chunks alone.
        ...(state.grading?.reading !== undefined && !regenerating ? { reading: state.grading.reading } : {}),
      },
      config.signal,
    );
    if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
    const { claims, answered, confidence } = call.output;
    const update: AgentStateUpdate = {
      ...call.accounting,
      draft: { claims, answered, confidence },
      verification: null,
      regenerations: regenerating ? state.regenerations + 1 : state.regenerations,
    };
    const topic = () => deps.policy.restrictedTopic(state.turn!.text);
    if (!answered || claims.length === 0) {
      const detail = "the retrieved chunks do not answer the question (answered: false)";
      update.escalation = topicHandoff(state.gate, topic(), `the documents do not answer (${detail})`) ?? { reason: "low_confidence", detail };
    } else if (confidence < deps.settings.grading.minConfidence) {
      const detail = `answer confidence ${confidence.toFixed(2)} below ${deps.settings.grading.minConfidence}`;
      update.escalation = topicHandoff(state.gate, topic(), `the documents do not answer (${detail})`) ?? { reason: "low_confidence", detail };
    }
    return update;
  };
}
