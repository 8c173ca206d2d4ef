import { describe, expect, it } from "vitest";
import { NODES } from "../../src/agent/nodes/names.js";
import { ThreadFields, TurnFields } from "../../src/agent/state.js";

/**
 * Node names and state field names are checkpoint data: a thread saved today must load in
 * tomorrow's release. If this test fails, you renamed one: write a migration, then update it.
 */
describe("checkpointed names", () => {
  it("pins the node names", () => {
    expect(Object.values(NODES).sort()).toEqual(
      ["clarify", "contextualize", "escalate", "generate", "grade", "load_memory", "record_turn", "retrieve", "triage", "verify", "write_memory"].sort(),
    );
  });

  it("pins the thread fields", () => {
    expect(Object.keys(ThreadFields).sort()).toEqual(["clarifyStreak", "handoff", "history", "pendingClarify", "profile", "replay", "summary", "threadStatus", "turnCount"].sort());
  });

  it("pins the turn fields", () => {
    expect(Object.keys(TurnFields).sort()).toEqual(
      [
        "draft",
        "escalation",
        "gate",
        "grading",
        "hits",
        "intent",
        "language",
        "memoryWritten",
        "modelCalls",
        "outcome",
        "regenerations",
        "result",
        "retrievalFilter",
        "retrievalRounds",
        "rewrittenQuery",
        "turn",
        "usage",
        "verification",
        // Added with the instruction detector (a new field with a default reads old checkpoints).
        "withheld",
      ].sort(),
    );
  });
});
