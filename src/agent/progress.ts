import { redactPersonalData } from "../text/pii.js";
import type { AgentStateUpdate } from "./state.js";

/**
 * One readable line per finished node for consoles and the progress stream. Watchers other than
 * the caller read these lines (agent consoles, analytics): the query's personal data is always masked.
 */
export function summarizeNode(node: string, update: AgentStateUpdate): string {
  const escalating = update.escalation ? ` → escalate (${update.escalation.reason})` : "";
  switch (node) {
    case "load_memory":
      return `language ${update.language ?? "?"}; profile with ${Object.keys(update.profile ?? {}).length} fact(s)`;
    case "triage": {
      const gate = update.gate;
      if (!gate) return `intent: ${update.intent ?? "?"} (model)${escalating}`;
      switch (gate.kind) {
        case "classifier":
          return gate.by === "alone"
            ? `classifier: ${gate.label} p=${gate.probability.toFixed(2)}${escalating}`
            : `classifier unsure (${gate.lean?.label ?? "?"} p=${(gate.lean?.probability ?? 0).toFixed(2)}); model: ${gate.model ?? "?"} → ${gate.label}${escalating}`;
        case "clarify_reply":
          return `reply to the clarifying question picks no option (classifier: ${gate.label} p=${gate.probability.toFixed(2)})`;
        case "restricted":
          return `rule: restricted (${gate.category})${escalating}`;
        case "frustration":
          return `${gate.signal === "again" || gate.signal === "rising" || gate.signal === "repeat" ? "conversation" : "rule"}: frustration (${gate.signal})${escalating}`;
        default:
          return `rule: ${gate.kind}${escalating}`;
      }
    }
    case "contextualize":
      return update.rewrittenQuery !== undefined ? `query: "${redactPersonalData(update.rewrittenQuery)}"` : `no rewrite${escalating}`;
    case "retrieve": {
      const best = update.hits?.[0];
      return best ? `${update.hits!.length} chunks, best ${best.score.toFixed(2)} (${best.chunk.chunkId})` : `no chunks${escalating}`;
    }
    case "grade":
      if (update.intent === "out_of_scope") return `${update.grading?.verdict ?? "insufficient"} (${update.grading?.method ?? "scores"}) → out of scope`;
      return update.grading ? `${update.grading.verdict} (${update.grading.method})${escalating}` : `not graded${escalating}`;
    case "clarify":
      return update.outcome?.kind === "clarify" ? `asking: ${update.outcome.options.map((o) => o.product).join(" / ")}` : escalating.trim();
    case "generate":
      if (update.outcome?.kind === "answer") return `${update.outcome.answerKind} reply`;
      if (update.draft) return `${update.draft.claims.length} cited sentence(s), confidence ${update.draft.confidence.toFixed(2)}${escalating}`;
      return `no draft${escalating}`;
    case "verify":
      if (!update.verification) return `not verified${escalating}`;
      return update.verification.grounded ? `grounded (${update.verification.method})` : `ungrounded: ${update.verification.failures[0]?.reason ?? "?"}${escalating}`;
    case "escalate":
      return update.outcome?.kind === "escalate" ? `handoff: ${update.outcome.reason}` : "handoff";
    case "write_memory":
      return update.memoryWritten ? "profile updated" : "nothing new to remember";
    case "record_turn":
      return `turn ${update.turnCount ?? "?"} recorded`;
    default:
      return "";
  }
}
