import type { Classifier, GateClass } from "../learn/index.js";
import type { Intent } from "../models/roles.js";
import { RESTRICTED_CATEGORIES, type RestrictedCategory } from "./bundle.js";
import type { Gate } from "./policy.js";
import type { PendingEscalation } from "./state.js";

/**
 * The learned intent gates: the bundle's classifier (src/learn, gates/model.json) read once per
 * message, in-process and deterministic. The policy lists run before it and always win
 * (explicit overrides); the classifier adds recall. A class acts alone only when its probability
 * reaches its calibrated threshold; below it the reading is "unsure" and the triage model role
 * decides knowledge against the rest (offline: its rules; Gemini: one small call).
 */

export type { GateClass };

export interface GateReading {
  /** The most probable class. */
  label: GateClass;
  probability: number;
  /** True when the label's probability reaches its threshold: the classifier may act alone. */
  confident: boolean;
  /** Every class's probability. */
  scores: Readonly<Record<GateClass, number>>;
}

export interface Gates {
  read(text: string): GateReading;
}

export function createGates(classifier: Classifier): Gates {
  return {
    read(text) {
      const c = classifier.classify(text);
      const decision = classifier.decide(c);
      return { label: c.label as GateClass, probability: c.probability, confident: decision.kind === "confident", scores: c.scores as Record<GateClass, number> };
    },
  };
}

/** What a gate class means for the turn: the escalation reason or the intent it routes to. */
export type GateRoute =
  | { kind: "escalate"; reason: "user_requested" | "account_specific" | "frustration" }
  | { kind: "restricted"; category: RestrictedCategory }
  | { kind: "intent"; intent: Extract<Intent, "chitchat" | "out_of_scope" | "knowledge"> };

export function routeOf(label: GateClass): GateRoute {
  switch (label) {
    case "handoff_request":
      return { kind: "escalate", reason: "user_requested" };
    case "account":
      return { kind: "escalate", reason: "account_specific" };
    case "frustration":
      return { kind: "escalate", reason: "frustration" };
    case "chitchat":
    case "out_of_scope":
    case "knowledge":
      return { kind: "intent", intent: label };
    case "restricted:claim_dispute":
    case "restricted:complaint":
    case "restricted:cancellation":
    case "restricted:payout":
    case "restricted:legal": {
      const category = label.slice("restricted:".length) as RestrictedCategory;
      if (!RESTRICTED_CATEGORIES.includes(category)) throw new Error(`gate class ${label} names no restricted category`);
      return { kind: "restricted", category };
    }
    default: {
      const unreachable: never = label;
      throw new Error(`unknown gate class ${String(unreachable)}`);
    }
  }
}

/** "restricted:payout p=0.97": how a gate's decision reads in node summaries and handoff details. */
export function describeReading(reading: Pick<GateReading, "label" | "probability">): string {
  return `${reading.label} p=${reading.probability.toFixed(2)}`;
}

/**
 * The handoff for a question the documents could not answer (`why`) when it is about a
 * restricted topic (policy.json restrictedTopics: "how long does a complaint take?"): the
 * colleague who handles that topic, as restricted_intent, instead of a generic "insufficient
 * retrieval". Only for turns the classifier sent to retrieval; null keeps the caller's reason.
 */
export function topicHandoff(gate: Gate | null, topic: { category: RestrictedCategory; phrase: string } | null, why: string): PendingEscalation | null {
  if (gate === null || (gate.kind !== "classifier" && gate.kind !== "clarify_reply") || topic === null) return null;
  return { reason: "restricted_intent", detail: `a question about ${topic.category.replace("_", " ")} ("${topic.phrase}") that ${why}` };
}

/**
 * An unsure classifier that leaned towards a handoff (a person, the account, frustration) whose
 * message the documents then could not answer: that lean names the colleague better than a
 * generic "insufficient retrieval" ("what exactly is MY deductible?"). Only a lean at least this
 * sure; a turn the documents answer is answered whatever the lean.
 */
export const LEAN_HANDOFF = 0.4;

export function leanHandoff(gate: Gate | null, why: string): PendingEscalation | null {
  if (gate === null || gate.kind !== "classifier" || gate.by !== "model" || gate.lean === undefined) return null;
  const { label, probability } = gate.lean;
  const route = routeOf(label);
  if (route.kind !== "escalate" || probability < LEAN_HANDOFF) return null;
  return { reason: route.reason, detail: `the classifier leaned to ${describeReading(gate.lean)} and ${why}` };
}
