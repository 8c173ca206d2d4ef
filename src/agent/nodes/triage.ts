import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { conversationSignal } from "../conversation.js";
import { describeReading, routeOf, type GateClass, type GateReading, type Gates } from "../gates.js";
import { callModel } from "../model-call.js";
import type { Intent } from "../../models/roles.js";
import type { AgentDeps } from "../deps.js";
import { isShouting, type Gate, type Policy } from "../policy.js";
import type { AgentStateUpdate, AgentStateValue, HistoryEntry, PendingClarify } from "../state.js";
import { addsToQuestion } from "../../reading/index.js";
import { words } from "../../text/analysis/index.js";

/**
 * Classifies the turn, deterministically first (gateVerdict, no model call):
 *
 * 1. the policy lists (explicit overrides: a phrase the insurer lists always fires; a confident
 *    classifier may make the handoff more precise, never undo it) and a pick of the previous
 *    clarifying question's options;
 * 2. conversation-level frustration (the same question again, frustration again, rising anger),
 *    and shouting unless the classifier is sure the message is something else;
 * 3. the learned gate classifier, acting alone when its class reaches its calibrated threshold;
 * 4. otherwise the triage model role, asked only whether the message is a knowledge question:
 *    "not knowledge" keeps the classifier's class (the offline provider answers from its rules).
 *
 * A reply to a clarifying question that picks none of its options and is no confident question
 * of its own goes back to retrieval with the pending question (clarify_reply): it counts toward
 * the clarify budget there. A classifier "out of scope" is checked against retrieval first (see
 * grade): it is the reply only when nothing retrieved is good enough. Gate decisions are visible
 * in the node summary and the handoff's detail, never in what the customer is told.
 */

/** What the classifier leaned towards, in words, for the triage model when it was unsure. */
const CANDIDATES: Record<GateClass, string> = {
  handoff_request: "a request to talk to a person",
  "restricted:claim_dispute": "disputing a claim decision",
  "restricted:complaint": "making a complaint",
  "restricted:cancellation": "cancelling the user's own policy",
  "restricted:payout": "demanding a payout or refund",
  "restricted:legal": "threatening legal action",
  account: "a question about the user's own records",
  frustration: "frustration with the assistant",
  chitchat: "small talk",
  out_of_scope: "something unrelated to insurance",
  knowledge: "a question the documents can answer",
};

export type Decision = Pick<AgentStateUpdate, "gate" | "intent" | "escalation">;

function fromClass(label: GateClass, gate: Gate, why: string): Decision {
  const route = routeOf(label);
  switch (route.kind) {
    case "escalate":
      return {
        gate,
        intent: label === "handoff_request" ? "handoff_request" : label === "account" ? "account" : null,
        escalation: { reason: route.reason, detail: why },
      };
    case "restricted":
      return { gate, escalation: { reason: "restricted_intent", detail: `${route.category.replace("_", " ")} (${why}) is never automated` } };
    case "intent":
      return { gate, intent: route.intent };
  }
}

function fromListGate(gate: Gate): Decision {
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
    case "clarify_reply":
      return { gate, intent: "knowledge" };
    case "classifier":
      return fromClass(gate.label, gate, gateDetail(gate));
    default: {
      const unreachable: never = gate;
      throw new Error(`unknown gate ${JSON.stringify(unreachable)}`);
    }
  }
}

/** "classifier: restricted:payout p=0.97", or with the model: "classifier unsure (account p=0.61); triage model: account". */
export function gateDetail(gate: Extract<Gate, { kind: "classifier" }>): string {
  if (gate.by === "alone") return `classifier: ${describeReading(gate)}`;
  return `classifier unsure (${gate.lean !== undefined ? describeReading(gate.lean) : "?"}); triage model: ${gate.model ?? "?"}`;
}

/**
 * The brief's order of seriousness: a message that does two things is handed off for the more
 * serious one ("this is useless, get me a human" is a handoff request).
 */
const SERIOUSNESS: Partial<Record<GateClass, number>> = {
  "restricted:claim_dispute": 4,
  "restricted:complaint": 4,
  "restricted:cancellation": 4,
  "restricted:payout": 4,
  "restricted:legal": 4,
  handoff_request: 3,
  account: 2,
  frustration: 1,
};

function classOfListGate(gate: Gate): GateClass | null {
  switch (gate.kind) {
    case "handoff":
      return "handoff_request";
    case "restricted":
      return `restricted:${gate.category}`;
    case "account":
      return "account";
    case "frustration":
      return "frustration";
    default:
      return null;
  }
}

/**
 * A policy-list match always escalates; the classifier may only make the handoff more precise:
 * a confident reading of another restricted category replaces the list's category («اگه فسخ
 * کنید میرم دادگاه» lists as cancellation, reads as legal), and a confident reading of a more
 * serious class replaces a less serious one. It never turns a listed escalation into an answer.
 */
function refined(decision: Decision, listed: Gate, reading: GateReading): Decision {
  const listedClass = classOfListGate(listed);
  if (listedClass === null || !reading.confident || reading.label === listedClass) return decision;
  const rank = SERIOUSNESS[reading.label];
  const listedRank = SERIOUSNESS[listedClass]!;
  if (rank === undefined || rank < listedRank) return decision;
  const why = `classifier: ${describeReading(reading)}; the list matched ${"phrase" in listed ? `"${listed.phrase}"` : listed.kind}`;
  return fromClass(reading.label, { kind: "classifier", label: reading.label, probability: reading.probability, by: "alone" }, why);
}

/** The longest reply to a clarifying question read as a shrug rather than a vent. */
const SHRUG_WORDS = 2;

/** Chitchat and out-of-scope replies to a clarifying question answer none of its options: back to the pending question. */
function answersNothing(decision: Decision): boolean {
  return decision.escalation === undefined && (decision.intent === "chitchat" || decision.intent === "out_of_scope");
}

/** What the deterministic gates need: the policy lists, the classifier, and the thread. */
export interface GateInput {
  policy: Policy;
  gates: Gates;
  text: string;
  pendingClarify: PendingClarify | null;
  history: readonly HistoryEntry[];
  /** A reply to the pending clarifying question that gives retrieval nothing new ("the insurance"): never a question of its own. */
  addsNothing?: boolean;
}

/** The gates' verdict: a decision, or "unsure" with the reading the triage model is asked about. */
export type GateVerdict = { kind: "decided"; decision: Decision } | { kind: "unsure"; reading: GateReading; decide: (label: GateClass, model: Intent) => Decision };

/**
 * Steps 1–3 of triage, without any model call: deterministic and synchronous (its cost is
 * `npm run bench:gates`). "unsure" carries how to finish once the model has answered.
 */
export function gateVerdict({ policy, gates, text, pendingClarify: pending, history, addsNothing = false }: GateInput): GateVerdict {
  const decided = (decision: Decision): GateVerdict => ({ kind: "decided", decision });
  const clarifyReply = (reading: GateReading): Decision => ({
    gate: { kind: "clarify_reply", label: reading.label, probability: reading.probability },
    intent: "knowledge",
  });

  const reading = gates.read(text);
  const listed = policy.evaluate({ text, pendingOptions: pending?.options ?? null });
  if (listed !== null) {
    const decision = refined(fromListGate(listed), listed, reading);
    return decided(pending !== null && answersNothing(decision) ? clarifyReply(reading) : decision);
  }

  const shrugging = addsNothing && words(text).length <= SHRUG_WORDS;
  const signal = conversationSignal({ text, reading, history, gates, clarifying: pending !== null, shrug: shrugging });
  if (signal !== null) return decided(fromListGate({ kind: "frustration", signal: signal.signal, detail: signal.detail }));
  // Shouting is anger unless the classifier is sure the message is something else ("HOW MUCH IS TRAVEL COVER?").
  if (isShouting(text) && !(reading.confident && reading.label !== "frustration")) {
    return decided(fromListGate({ kind: "frustration", signal: "shouting", detail: `shouting (capitals or !!!; classifier: ${describeReading(reading)})` }));
  }

  const classified = (label: GateClass, by: "alone" | "model", model?: Intent): Decision => {
    const chitchat = label === "chitchat" ? policy.chitchatKind(text) : null;
    const gate: Gate = {
      kind: "classifier",
      label,
      probability: reading.scores[label],
      by,
      ...(by === "model" ? { lean: { label: reading.label, probability: reading.probability } } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(chitchat !== null ? { chitchat } : {}),
    };
    const decision = fromListGate(gate);
    // After a clarifying question, only a confident question of its own leaves the pending one.
    const ownQuestion = by === "alone" && label === "knowledge" && !addsNothing;
    // "whatever", «همون معمولیه دیگه», "come on, just answer" after a clarifying question: a reply
    // that picks nothing, impatient with the question, not a vent about the service; the clarify
    // budget hands off the second one (budget_exhausted: two questions failed to converge, ADR).
    // Shouting and the bundle's listed phrases were decided above, and still are frustration.
    const shrug = label === "frustration";
    if (pending !== null && !ownQuestion && (answersNothing(decision) || decision.intent === "knowledge" || shrug)) return clarifyReply(reading);
    // Out of scope is confirmed by retrieval (grade): an insurer's product names are words no
    // classifier has seen, so "hamsafar basic for 5 days how much" must not be refused unread.
    return decision.intent === "out_of_scope" ? { ...decision, intent: "knowledge" } : decision;
  };

  if (reading.confident) return decided(classified(reading.label, "alone"));
  // Unsure. After a clarifying question, anything but a possible escalation goes back to it.
  if (pending !== null && routeOf(reading.label).kind === "intent") return decided(clarifyReply(reading));
  return { kind: "unsure", reading, decide: (label, model) => classified(label, "model", model) };
}

export function triageNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    const pending = state.pendingClarify;
    const addsNothing = pending !== null && !addsToQuestion(turn.text, pending.query, await deps.retriever.taxonomy(turn.tenantId, config.signal));
    const verdict = gateVerdict({ policy: deps.policy, gates: deps.gates, text: turn.text, pendingClarify: pending, history: state.history, addsNothing });
    if (verdict.kind === "decided") return verdict.decision;
    const { reading } = verdict;
    const call = await callModel(deps, state, "triage", { text: turn.text, language: state.language, history: state.history, candidate: CANDIDATES[reading.label] }, config.signal);
    if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
    const { intent } = call.output;
    return { ...call.accounting, ...verdict.decide(settled(reading.label, intent), intent) };
  };
}

/**
 * Knowledge against the rest, once the triage model has answered an unsure classifier. A model
 * that names a handoff (a person, the account) keeps the classifier's more specific handoff class
 * when it leaned to one (the model's intents have no restricted or frustration). A model that
 * says chitchat or out of scope is believed over a weak lean to a person, the account or
 * frustration ("is that other company's roadside assistance any good?" is not anger), but not
 * over a lean to a restricted intent (a missed payout demand is the worst miss), and out of scope
 * not over a lean to a person.
 */
export function settled(lean: GateClass, intent: Intent): GateClass {
  if (intent === "knowledge") return "knowledge";
  const route = routeOf(lean);
  if (route.kind === "intent") return intent;
  if (intent === "handoff_request" || intent === "account" || lean.startsWith("restricted:")) return lean;
  // Out of scope is no answer to "is there anybody real there?": a lean to a person is kept, a
  // missed request for one being a policy breach (chitchat still wins: "hello? anyone there?").
  if (intent === "out_of_scope" && lean === "handoff_request") return lean;
  return intent;
}
