import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";

/**
 * Classifies the turn. Deterministic gates first (explicit handoff, restricted intents,
 * frustration, a clarify choice, account questions, plain chitchat); the model is asked only
 * when no rule decides.
 */
export function triageNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    const gate = deps.policy.evaluate({
      text: turn.text,
      previousUserTexts: state.history.map((h) => h.user),
      pendingOptions: state.pendingClarify?.options ?? null,
    });
    if (gate !== null) {
      switch (gate.kind) {
        case "handoff":
          return { gate, intent: "handoff_request", escalation: { reason: "user_requested", detail: `asked for a person ("${gate.phrase}")` } };
        case "restricted":
          return { gate, escalation: { reason: "restricted_intent", detail: `${gate.category.replace("_", " ")} ("${gate.phrase}") is never automated` } };
        case "frustration":
          return { gate, escalation: { reason: "frustration", detail: gate.detail } };
        case "account":
          return { gate, intent: "account", escalation: { reason: "account_specific", detail: `about the user's own records ("${gate.phrase}")` } };
        case "chitchat":
          return { gate, intent: "chitchat" };
        case "clarify_choice":
          return { gate, intent: "knowledge" };
        default: {
          const unreachable: never = gate;
          throw new Error(`unknown gate ${JSON.stringify(unreachable)}`);
        }
      }
    }
    const call = await callModel(deps, state, "triage", { text: turn.text, language: state.language, history: state.history }, config.signal);
    if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
    const { intent } = call.output;
    const update: AgentStateUpdate = { ...call.accounting, intent };
    if (intent === "handoff_request") update.escalation = { reason: "user_requested", detail: "asked for a person (model triage)" };
    if (intent === "account") update.escalation = { reason: "account_specific", detail: "about the user's own records (model triage)" };
    return update;
  };
}
