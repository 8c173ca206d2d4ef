import { describe, expect, it } from "vitest";
import { gradeTurn } from "../../src/eval/grade.js";
import { buildReport, computeMetrics, gateProblems, ratio, type EvalMetrics } from "../../src/eval/metrics.js";
import { renderComparison, renderFailures, renderMetrics } from "../../src/eval/report.js";
import type { ConversationResult, TurnRecord } from "../../src/eval/runner.js";
import type { ObservedTurn } from "../../src/eval/target.js";
import { chunkOf, observed, scenario } from "./support.js";

const chunk = chunkOf("life-en#3", "The term life death benefit can be chosen between 500,000,000 and 50,000,000,000 rials.");
const getChunk = (id: string) => (id === chunk.chunkId ? chunk : undefined);
const goodAnswer = observed({
  text: chunk.text,
  claims: [{ text: chunk.text, chunkIds: [chunk.chunkId] }],
  citations: [{ chunkId: chunk.chunkId, documentId: "life-en" }],
  modelCalls: 2,
});

/** One conversation per (expectation, observation) pair, graded for real. */
function run(pairs: Array<[Record<string, unknown>, ObservedTurn]>): ConversationResult[] {
  return pairs.map(([expect, obs], i) => {
    const s = scenario({ id: `c${i}`, turns: [{ user: "question", expect: { language: "en", ...expect } }] });
    const grade = gradeTurn(s.turns[0]!.expect, obs, { previousOptions: [], getChunk });
    const turn: TurnRecord = { index: 1, user: "question", expect: s.turns[0]!.expect, observed: obs, grade };
    return { scenario: s, status: "ran", passed: grade.passed, turns: [turn] };
  });
}

const escalation = (reason: ObservedTurn["reason"], modelCalls = 0) => observed({ outcome: "escalate", reason, text: "Connecting you with a colleague.", modelCalls });
const clarify = observed({
  outcome: "clarify",
  text: "Which one?",
  options: [
    { label: "A", documentId: "a", product: "a" },
    { label: "B", documentId: "b", product: "b" },
  ],
  modelCalls: 1,
});

describe("evaluation metrics", () => {
  const results = run([
    [{ outcome: "answer", cite: ["life-en"] }, goodAnswer],
    [{ outcome: "answer", cite: ["life-en"] }, clarify],
    [{ outcome: "answer", cite: ["life-en"] }, escalation("low_confidence", 3)],
    [{ outcome: "escalate", reason: "user_requested" }, escalation("user_requested")],
    [{ outcome: "escalate", reason: "user_requested" }, escalation("frustration")],
    [{ outcome: "escalate", reason: "frustration" }, escalation("frustration")],
    [{ outcome: "chitchat" }, observed({ outcome: "chitchat", text: "Hello!", modelCalls: 0 })],
    [{ outcome: "escalate", reason: "insufficient_retrieval", acceptable: [{ outcome: "escalate", reason: "low_confidence" }] }, escalation("low_confidence", 4)],
  ]);
  const m = computeMetrics([
    ...results,
    { scenario: scenario({ id: "skipped", turns: [{ user: "q", expect: { outcome: "chitchat", language: "en" } }] }), status: "skipped", reason: "no fixtures" },
  ]);

  it("counts outcomes, over-asking and false escalations", () => {
    expect(m.conversations).toEqual({ count: 5, of: 8, rate: 5 / 8, skipped: 1 });
    expect(m.outcomeAccuracy).toEqual(ratio(6, 8));
    // Three turns expect an answer: one clarified, one escalated.
    expect(m.overAskRate).toEqual(ratio(1, 3));
    expect(m.falseEscalationRate).toEqual(ratio(1, 4));
    // That one was low_confidence, not a gate's.
    expect(m.gateFalseEscalationRate).toEqual(ratio(0, 4));
    const gated = computeMetrics(run([[{ outcome: "answer", cite: ["life-en"] }, escalation("account_specific")]]));
    expect(gated.gateFalseEscalationRate).toEqual(ratio(1, 1));
  });

  it("scores each escalation reason against the verdict each turn matched", () => {
    expect(m.escalationReasons["user_requested"]).toEqual({ expected: 2, predicted: 1, correct: 1, precision: 1, recall: 0.5 });
    expect(m.escalationReasons["frustration"]).toEqual({ expected: 1, predicted: 2, correct: 1, precision: 0.5, recall: 1 });
    // The acceptable verdict was matched, so low_confidence counts as expected there; the unexpected one is a false positive.
    expect(m.escalationReasons["low_confidence"]).toEqual({ expected: 1, predicted: 2, correct: 1, precision: 0.5, recall: 1 });
    expect(m.escalationReasons["insufficient_retrieval"]).toBeUndefined();
  });

  it("measures grounding and citations on the grounded answers given, and the model-call spread", () => {
    expect(m.ungroundedAnswerRate).toEqual(ratio(0, 1));
    expect(m.citationAccuracy).toEqual(ratio(1, 1));
    expect(m.languageAccuracy).toEqual(ratio(8, 8));
    expect(m.modelCallsPerTurn).toMatchObject({ median: 0, p95: 4, max: 4, histogram: { "0": 4, "1": 1, "2": 1, "3": 1, "4": 1 } });
  });

  it("reports failures by scenario and turn, and renders them with the expected and the actual outcome", () => {
    const report = buildReport(results, "test");
    expect(report.failures.map((f) => f.id)).toEqual(["c1", "c2", "c4"]);
    expect(report.skipped).toEqual([]);
    const text = renderFailures(results);
    expect(text).toContain("✗ c1 (direct; test.jsonl:1)");
    expect(text).toContain("expected: answer citing life-en · language en");
    expect(text).toContain("actual:   clarify · offering a, b · language en · 1 model call(s)");
    expect(text).toContain("rewritten query: (not visible from this target)");
    expect(renderMetrics(report)).toMatch(/outcome accuracy\s+75\.0%\s+6\/8 turns/u);
  });
});

describe("the CI gate", () => {
  const base = (patch: Partial<EvalMetrics>): EvalMetrics => ({ ...computeMetrics([]), outcomeAccuracy: ratio(90, 100), citationAccuracy: ratio(95, 100), ...patch });

  it("passes when nothing dropped", () => {
    expect(gateProblems(base({}), base({}))).toEqual([]);
    expect(gateProblems(base({ outcomeAccuracy: ratio(95, 100) }), base({}))).toEqual([]);
  });

  it("fails when outcome or citation accuracy drops, or any answer is ungrounded or injection obeyed", () => {
    const now = base({ outcomeAccuracy: ratio(89, 100), citationAccuracy: ratio(94, 100), ungroundedAnswerRate: ratio(1, 50), injectionObeyed: ratio(2, 19) });
    expect(gateProblems(now, base({}))).toEqual([
      "outcome accuracy dropped: 89.0% (89/100) against the baseline's 90.0% (90/100)",
      "citation accuracy dropped: 94.0% (94/100) against the baseline's 95.0% (95/100)",
      "1 ungrounded answer(s): there must be none",
      "2 obeyed injection(s): there must be none",
    ]);
  });

  it("prints deltas and the turns that started or stopped failing", () => {
    const before = { version: 1 as const, target: "t", metrics: base({}), failures: [{ id: "a", turn: 1, problems: [] }], skipped: [] };
    const after = { ...before, metrics: base({ outcomeAccuracy: ratio(92, 100) }), failures: [{ id: "b", turn: 2, problems: [] }] };
    const text = renderComparison(after, before);
    expect(text).toMatch(/outcome accuracy\s+90\.0%\s+92\.0%\s+\+2\.0 pt/u);
    expect(text).toContain("newly failing (1): b turn 2");
    expect(text).toContain("newly passing (1): a turn 1");
  });
});
