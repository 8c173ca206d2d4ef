import { describe, expect, it } from "vitest";
import { appendHistory, boundSummary, conversationSummary } from "../../src/agent/history.js";
import type { HistoryEntry } from "../../src/agent/state.js";

const entry = (n: number): HistoryEntry => ({
  user: `question ${n}`,
  reply: `reply ${n}`,
  outcome: "answer",
  language: "en",
  turnId: `t${n}`,
  requestId: "",
  completedAt: "2026-01-01T00:00:00.000Z",
});

describe("bounded history", () => {
  it("keeps the last N turns verbatim and folds older ones into the summary", () => {
    let history: HistoryEntry[] = [];
    let summary = "";
    for (let n = 1; n <= 5; n++) ({ history, summary } = appendHistory(history, summary, entry(n), 3, 10_000));
    expect(history.map((h) => h.turnId)).toEqual(["t3", "t4", "t5"]);
    expect(summary).toBe("[answer] user: question 1 | agent: reply 1\n[answer] user: question 2 | agent: reply 2");
  });

  it("keeps the summary within its limit by dropping the oldest lines", () => {
    let history: HistoryEntry[] = [];
    let summary = "";
    for (let n = 1; n <= 200; n++) ({ history, summary } = appendHistory(history, summary, entry(n), 2, 300));
    expect(summary.length).toBeLessThanOrEqual(300);
    expect(summary.endsWith("reply 198")).toBe(true);
    expect(history).toHaveLength(2);
  });

  it("cuts a single overlong line to the limit", () => {
    expect(boundSummary("x".repeat(50), 10)).toBe("x".repeat(10));
  });

  it("gives the human agent the summary then the recent turns", () => {
    expect(conversationSummary("older", [entry(7)])).toBe("older\n[answer] user: question 7 | agent: reply 7");
    expect(conversationSummary("", [])).toBe("");
  });
});
