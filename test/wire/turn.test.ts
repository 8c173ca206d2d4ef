import { toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { ThreadSchema, ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import { EscalationReason, Phase, TurnResultSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { ESCALATION_REASONS, type ThreadView } from "../../src/domain/turn.js";
import { specEncodeGrpcMessage } from "../../src/server/grpc-message.js";
import { escalationReasonFromWire, escalationReasonToWire, progressToWire, threadToWire, turnResultToWire } from "../../src/wire/index.js";
import { createAsyncQueue } from "../../src/server/queue.js";
import { answerResult, clarifyResult, escalateResult, escalation } from "../server/helpers.js";

describe("mapping", () => {
  test("every escalation reason has its own wire value and maps back", () => {
    const wire = ESCALATION_REASONS.map(escalationReasonToWire);
    expect(new Set(wire).size).toBe(ESCALATION_REASONS.length);
    expect(wire).not.toContain(EscalationReason.UNSPECIFIED);
    expect(wire.map(escalationReasonFromWire)).toEqual([...ESCALATION_REASONS]);
    expect(escalationReasonFromWire(999 as EscalationReason)).toBe("unspecified");
  });

  test("clarify and escalate outcomes", () => {
    const clarify = turnResultToWire(clarifyResult).outcome;
    expect(clarify.case === "clarify" && clarify.value.options.map((o) => [o.label, o.product, o.domain])).toEqual([
      ["Motor body", "motor-body", "motor"],
      ["Travel", "travel", "travel"],
    ]);
    const escalate = turnResultToWire(escalateResult).outcome;
    expect(escalate.case).toBe("escalate");
    if (escalate.case !== "escalate") return;
    expect(escalate.value.reason).toBe(EscalationReason.RESTRICTED_INTENT);
    expect(escalate.value.detail).toBe("restricted: claim dispute");
    expect(escalate.value.handoffContext).toMatchObject({
      rewrittenQuery: "dispute claim payout",
      conversationSummary: "User disputes a payout.",
      lastUserMessage: "I dispute this payout",
      language: "en",
      userProfile: { vehicle: "2019 Peugeot 206", productsHeld: ["motor-body"] },
    });
  });

  test("numbers are made safe for uint32 and the result serialises", () => {
    const odd = { ...answerResult, stats: { ...answerResult.stats, durationMs: 12.7, modelCalls: -1 } };
    const wire = turnResultToWire(odd);
    expect(wire.stats?.durationMs).toBe(13);
    expect(wire.stats?.modelCalls).toBe(0);
    expect(() => toBinary(TurnResultSchema, wire)).not.toThrow();
    expect(progressToWire({ node: "x", phase: "started", seq: 1, elapsedMs: 0.4, durationMs: 0, summary: "" })).toMatchObject({
      phase: Phase.STARTED,
      elapsedMs: 0,
    });
  });

  test("a profile with undefined members becomes a valid Struct", () => {
    const withHoles = { ...escalation, handoff: { ...escalation.handoff, userProfile: { vehicle: undefined, home: "flat" } } };
    const wire = turnResultToWire({ ...answerResult, outcome: withHoles });
    expect(wire.outcome.case === "escalate" && wire.outcome.value.handoffContext?.userProfile).toEqual({ home: "flat" });
    expect(() => toBinary(TurnResultSchema, wire)).not.toThrow();
  });

  test("thread views, with and without timestamps", () => {
    const view: ThreadView = { threadId: "t-1", status: "active", handoff: null, recentTurns: [], summary: "s", turnCount: 0, updatedAt: null };
    const thread = threadToWire(view);
    expect(thread).toMatchObject({ threadId: "t-1", status: ThreadStatus.ACTIVE, summary: "s" });
    expect(thread.handoff).toBeUndefined();
    expect(thread.updatedAt).toBeUndefined();
    expect(() => toBinary(ThreadSchema, thread)).not.toThrow();
    const closed = threadToWire({ ...view, status: "escalated", handoff: escalation, updatedAt: "not a date" });
    expect(closed.status).toBe(ThreadStatus.ESCALATED);
    expect(closed.handoff?.reason).toBe(EscalationReason.RESTRICTED_INTENT);
    expect(closed.updatedAt).toBeUndefined();
  });
});

describe("async queue", () => {
  test("yields pushed items in order, waits for more, ends on close, drops late pushes", async () => {
    const q = createAsyncQueue<number>();
    const out: number[] = [];
    const draining = (async () => {
      for await (const n of q) out.push(n);
    })();
    q.push(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(out).toEqual([1]);
    q.push(2);
    q.push(3);
    q.close();
    q.push(4);
    await draining;
    expect(out).toEqual([1, 2, 3]);
  });

  test("fail() delivers the queued items, then the error", async () => {
    const q = createAsyncQueue<number>();
    q.push(1);
    q.fail(new Error("boom"));
    const out: number[] = [];
    await expect(
      (async () => {
        for await (const n of q) out.push(n);
      })(),
    ).rejects.toThrow("boom");
    expect(out).toEqual([1]);
  });
});

describe("grpc-message encoding", () => {
  test.each([
    [encodeURIComponent("thread_id: must be 1-128 characters of [A-Za-z0-9._:-]"), "thread_id: must be 1-128 characters of [A-Za-z0-9._:-]"],
    [encodeURIComponent("100% sure"), "100%25 sure"],
    [encodeURIComponent("متن: خالی"), "%D9%85%D8%AA%D9%86: %D8%AE%D8%A7%D9%84%DB%8C"],
    ["%E0%A4%A", "%E0%A4%A"],
  ])("%s", (input, expected) => {
    expect(specEncodeGrpcMessage(input)).toBe(expected);
  });
});
