import { describe, expect, it } from "vitest";
import { routeAfterClarify, routeAfterContextualize, routeAfterGenerate, routeAfterGrade, routeAfterRetrieve, routeAfterTriage, routeAfterVerify } from "../../src/agent/graph.js";
import type { TurnOutcome } from "../../src/domain/turn.js";
import { type AgentState, turnDefaults, type AgentStateValue } from "../../src/agent/state.js";

// Routes read only the state: no database, no model, no retriever.
const state = (patch: Partial<AgentStateValue>): AgentStateValue =>
  ({
    threadStatus: "active",
    handoff: null,
    history: [],
    summary: "",
    turnCount: 0,
    clarifyStreak: 0,
    pendingClarify: null,
    replay: [],
    profile: {},
    ...turnDefaults(),
    ...patch,
  }) satisfies typeof AgentState.State;

const escalation = { reason: "frustration", detail: "x" } as const;
const grade = (verdict: "sufficient" | "ambiguous" | "insufficient") => ({ verdict, relevantChunkIds: [], method: "scores" as const, options: [] });

describe("routing", () => {
  it("after triage: escalation, no-RAG reply, or the knowledge path", () => {
    expect(routeAfterTriage(state({ escalation, intent: "knowledge" }))).toBe("escalate");
    expect(routeAfterTriage(state({ intent: "chitchat" }))).toBe("generate");
    expect(routeAfterTriage(state({ intent: "out_of_scope" }))).toBe("generate");
    expect(routeAfterTriage(state({ intent: "knowledge" }))).toBe("contextualize");
    expect(() => routeAfterTriage(state({ intent: "account" }))).toThrow(/without an escalation/u);
  });

  it("after contextualize and retrieve: on, unless escalating", () => {
    expect(routeAfterContextualize(state({}))).toBe("retrieve");
    expect(routeAfterContextualize(state({ escalation }))).toBe("escalate");
    expect(routeAfterRetrieve(state({}))).toBe("grade");
    expect(routeAfterRetrieve(state({ escalation }))).toBe("escalate");
  });

  it("after grade: by verdict; an escalation (spent budget) wins", () => {
    expect(routeAfterGrade(state({ grading: grade("sufficient") }))).toBe("generate");
    expect(routeAfterGrade(state({ grading: grade("ambiguous") }))).toBe("clarify");
    expect(routeAfterGrade(state({ grading: grade("insufficient") }))).toBe("retrieve");
    expect(routeAfterGrade(state({ grading: grade("insufficient"), escalation }))).toBe("escalate");
    expect(() => routeAfterGrade(state({}))).toThrow(/no verdict/u);
  });

  it("after clarify: the turn ends", () => {
    expect(routeAfterClarify(state({}))).toBe("record_turn");
    expect(routeAfterClarify(state({ escalation }))).toBe("escalate");
  });

  it("after generate: a no-RAG reply is final, a draft is verified", () => {
    const reply: TurnOutcome = { kind: "answer", answerKind: "chitchat", text: "hi", claims: [], citations: [], confidence: 0 };
    expect(routeAfterGenerate(state({ outcome: reply }))).toBe("record_turn");
    expect(routeAfterGenerate(state({ draft: { claims: [], answered: true, confidence: 1 } }))).toBe("verify");
    expect(routeAfterGenerate(state({ escalation }))).toBe("escalate");
  });

  it("after verify: grounded to memory, ungrounded back to generate unless escalating", () => {
    expect(routeAfterVerify(state({ verification: { grounded: true, failures: [], method: "deterministic" } }))).toBe("write_memory");
    expect(routeAfterVerify(state({ verification: { grounded: false, failures: [], method: "model" } }))).toBe("generate");
    expect(routeAfterVerify(state({ verification: { grounded: false, failures: [], method: "model" }, escalation }))).toBe("escalate");
  });
});
