import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { renderCopy } from "../bundle.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";

/**
 * Asks which product the user means, or which of a table's rows or columns applies. The options are the grade step's, built only from the
 * retrieved chunks' metadata; the model (when configured) may only word the question.
 */
export function clarifyNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const options = state.grading?.options ?? [];
    const attempt = state.clarifyStreak + 1;
    // A table's own labels (a plan, a band) are not products: the question says so.
    const first = state.grading?.dimension !== undefined ? "clarify.question_table" : "clarify.question";
    let question = renderCopy(deps.bundle, attempt > 1 ? "clarify.question_again" : first, state.language);
    let update: AgentStateUpdate = {};
    if (deps.settings.clarifyWithModel) {
      const call = await callModel(
        deps,
        state,
        "clarify",
        { userText: state.turn!.text, query: state.rewrittenQuery, language: state.language, options: options.map((o) => o.label) },
        config.signal,
      );
      if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
      update = { ...call.accounting };
      question = call.output.question;
    }
    return { ...update, outcome: { kind: "clarify", question, options, attempt } };
  };
}
