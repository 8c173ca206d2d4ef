import { Writable } from "node:stream";
import { Code, ConnectError } from "@connectrpc/connect";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { ThreadClosedSchema, ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import { AnswerKind, EscalationReason, Phase } from "../../gen/frontdesk/v1/turn_pb.js";
import { ACME_KEY, answerResult, escalation, type FakeTurnService, progress, sleep, startServer, untilAborted, waitFor, type Running } from "./helpers.js";

const turn = { threadId: "t-1", userId: "u-1", text: "Is third-party cover mandatory?", requestId: "r-1" };

async function collect(stream: AsyncIterable<StreamTurnResponse>): Promise<StreamTurnResponse[]> {
  const out: StreamTurnResponse[] = [];
  for await (const m of stream) out.push(m);
  return out;
}

function failure(p: Promise<unknown>): Promise<ConnectError> {
  return p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => ConnectError.from(e),
  );
}

let s: Running;
let fake: FakeTurnService;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());
beforeEach(() => {
  fake = s.fake;
  fake.calls.length = 0;
  fake.script = async () => ({ kind: "completed", result: answerResult });
});

describe("StreamTurn", () => {
  test("progress events arrive live and in order, then exactly one result, last", async () => {
    const log: string[] = [];
    let seen = 0;
    fake.script = async (_input, { onProgress }) => {
      const events = [progress(1, "triage", "started"), progress(2, "triage", "completed", "knowledge"), progress(3, "retrieve", "started")];
      for (const event of events) {
        log.push(`fake emits ${event.seq}`);
        onProgress?.(event);
        // Do not emit the next event until the client has received this one: only a live
        // stream can pass; a buffered one would wait here until the timeout.
        await waitFor(() => seen >= event.seq, 3_000);
      }
      log.push("fake returns");
      return { kind: "completed", result: answerResult };
    };
    const received: StreamTurnResponse[] = [];
    for await (const m of s.client().streamTurn({ turn })) {
      received.push(m);
      if (m.event.case === "progress") {
        log.push(`client got ${m.event.value.seq}`);
        seen = m.event.value.seq;
      } else log.push(`client got ${m.event.case}`);
    }
    expect(log).toEqual(["fake emits 1", "client got 1", "fake emits 2", "client got 2", "fake emits 3", "client got 3", "fake returns", "client got result"]);
    expect(received.filter((m) => m.event.case === "result")).toHaveLength(1);
    expect(received.at(-1)?.event.case).toBe("result");
    const second = received[1]?.event;
    expect(second?.case === "progress" && second.value).toMatchObject({
      node: "triage",
      phase: Phase.COMPLETED,
      summary: "knowledge",
      seq: 2,
      elapsedMs: 6,
      durationMs: 2,
    });
  });

  test("the turn input reaches the service unchanged, with the tenant from the key", async () => {
    await collect(s.client().streamTurn({ turn: { ...turn, locale: "en", domain: "motor" } }));
    expect(fake.calls[0]?.input).toEqual({ tenantId: "acme", ...turn, locale: "en", domain: "motor" });
  });

  test("a replayed attempt streams its stored result", async () => {
    fake.script = async () => ({ kind: "replayed", result: answerResult });
    const messages = await collect(s.client().streamTurn({ turn }));
    expect(messages.map((m) => m.event.case)).toEqual(["result"]);
  });

  test("progress emitted after the result is dropped, never sent after it", async () => {
    fake.script = async (_input, { onProgress }) => {
      setTimeout(() => onProgress?.(progress(9, "late", "started")), 0);
      return { kind: "completed", result: answerResult };
    };
    const messages = await collect(s.client().streamTurn({ turn }));
    expect(messages.map((m) => m.event.case)).toEqual(["result"]);
  });
});

describe("Turn (unary)", () => {
  test("returns the mapped result", async () => {
    const { result } = await s.client().turn(turn);
    expect(result?.threadId).toBe("t-1");
    expect(result?.turnId).toBe("turn-1");
    expect(result?.requestId).toBe("r-1");
    expect(result?.completedAt?.seconds).toBe(BigInt(Date.parse(answerResult.completedAt) / 1000));
    expect(result?.stats?.roles).toEqual([expect.objectContaining({ role: "triage", calls: 1, inputTokens: 10, outputTokens: 2 })]);
    const outcome = result?.outcome;
    expect(outcome?.case).toBe("answer");
    if (outcome?.case !== "answer") return;
    expect(outcome.value.kind).toBe(AnswerKind.GROUNDED);
    expect(outcome.value.citations.map((c) => c.chunkId)).toEqual(["motor-tp-en#0", "motor-body-en#2"]);
    expect(outcome.value.claims[1]?.chunkIds).toEqual(["motor-body-en#2"]);
  });
});

describe("GetThread", () => {
  test("returns the thread view, NOT_FOUND when there is none", async () => {
    fake.threads.set("acme/t-closed", {
      threadId: "t-closed",
      status: "escalated",
      handoff: escalation,
      recentTurns: [
        {
          turnId: "turn-1",
          requestId: "r-1",
          userText: "I dispute this payout",
          outcome: "escalate",
          reply: escalation.message,
          language: "en",
          completedAt: "2025-01-02T03:04:05.000Z",
        },
      ],
      summary: "",
      turnCount: 1,
      updatedAt: "2025-01-02T03:04:05.000Z",
    });
    const { thread } = await s.client().getThread({ threadId: "t-closed" });
    expect(thread?.status).toBe(ThreadStatus.ESCALATED);
    expect(thread?.handoff?.reason).toBe(EscalationReason.RESTRICTED_INTENT);
    expect(thread?.recentTurns.map((t) => t.outcome)).toEqual(["escalate"]);
    expect(thread?.turnCount).toBe(1);

    const err = await failure(s.client().getThread({ threadId: "t-unknown" }));
    expect(err.code).toBe(Code.NotFound);
  });
});

describe("refused attempts and failures map to one code each", () => {
  test("thread_closed → FAILED_PRECONDITION with the ThreadClosed detail", async () => {
    fake.script = async () => ({ kind: "thread_closed", handoff: escalation });
    for (const call of [() => s.client().turn(turn), () => collect(s.client().streamTurn({ turn }))]) {
      const err = await failure(call());
      expect(err.code).toBe(Code.FailedPrecondition);
      const [detail] = err.findDetails(ThreadClosedSchema);
      expect(detail?.threadId).toBe("t-1");
      expect(detail?.handoff?.reason).toBe(EscalationReason.RESTRICTED_INTENT);
      expect(detail?.handoff?.message).toBe(escalation.message);
      expect(detail?.handoff?.handoffContext?.userProfile).toEqual({ vehicle: "2019 Peugeot 206", productsHeld: ["motor-body"] });
      expect(detail?.handoff?.handoffContext?.topChunks[0]?.chunkId).toBe("claims-en#1");
    }
  });

  test("busy → ABORTED", async () => {
    fake.script = async () => ({ kind: "busy" });
    const err = await failure(s.client().turn(turn));
    expect([err.code, err.rawMessage]).toEqual([Code.Aborted, "turn in progress"]);
  });

  test("request_conflict → INVALID_ARGUMENT naming request_id", async () => {
    fake.script = async () => ({ kind: "request_conflict" });
    const err = await failure(s.client().turn(turn));
    expect([err.code, err.rawMessage]).toEqual([Code.InvalidArgument, "request_id: already used with a different text"]);
  });

  test("an unknown error → INTERNAL, with nothing of the original leaked", async () => {
    fake.script = async () => {
      throw new Error("pg: password authentication failed for user frontdesk_secret");
    };
    for (const call of [() => s.client().turn(turn), () => collect(s.client().streamTurn({ turn }))]) {
      const err = await failure(call());
      expect([err.code, err.rawMessage]).toEqual([Code.Internal, "internal error"]);
      expect(JSON.stringify(err.metadata)).not.toContain("secret");
    }
  });

  test("a StorageUnavailableError → UNAVAILABLE", async () => {
    class StorageUnavailableError extends Error {
      override readonly name = "StorageUnavailableError";
    }
    fake.script = async () => {
      throw new StorageUnavailableError("connection refused 10.0.0.5:5432");
    };
    const err = await failure(s.client().turn(turn));
    expect(err.code).toBe(Code.Unavailable);
    expect(err.rawMessage).not.toContain("10.0.0.5");
  });

  test("a failure after some progress ends the stream with the error", async () => {
    fake.script = async (_input, { onProgress }) => {
      onProgress?.(progress(1, "triage", "started"));
      await sleep(20);
      return { kind: "busy" };
    };
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const m of s.client().streamTurn({ turn })) seen.push(m.event.case ?? "");
      })(),
    );
    expect(seen).toEqual(["progress"]);
    expect(err.code).toBe(Code.Aborted);
  });
});

describe("the log", () => {
  test("keeps the original of an INTERNAL error, and never an API key", async () => {
    let lines = "";
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines += chunk.toString("utf8");
        done();
      },
    });
    const logged = await startServer({ logger: pino({ level: "debug" }, sink) });
    try {
      logged.fake.script = async () => {
        throw new Error("pg: relation checkpoints does not exist");
      };
      await failure(logged.client().turn(turn));
      await failure(logged.client("wrong-key-0123456789abcdef").turn(turn));
      const entry = lines
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as { level: number; msg: string; procedure?: string; err?: { message: string } })
        .find((e) => e.level === 50);
      expect(entry).toMatchObject({
        msg: "turn failed with an unexpected error",
        procedure: "frontdesk.v1.AgentService/Turn",
        err: { message: "pg: relation checkpoints does not exist" },
      });
      expect(lines).not.toContain(ACME_KEY);
      expect(lines).not.toContain("wrong-key-0123456789abcdef");
    } finally {
      await logged.close();
    }
  });
});

describe("cancellation and deadlines reach the run", () => {
  test("client cancel mid-stream aborts the service's signal", async () => {
    fake.script = async (_input, { onProgress, signal }) => {
      onProgress?.(progress(1, "retrieve", "started"));
      return untilAborted(signal);
    };
    const controller = new AbortController();
    const err = await failure(
      (async () => {
        for await (const m of s.client().streamTurn({ turn }, { signal: controller.signal })) {
          if (m.event.case === "progress") controller.abort();
        }
      })(),
    );
    expect(err.code).toBe(Code.Canceled);
    await waitFor(() => fake.calls[0]?.signal?.aborted === true);
  });

  test("a client deadline aborts the service's signal: DEADLINE_EXCEEDED", async () => {
    fake.script = async (_input, { signal }) => untilAborted(signal);
    const err = await failure(s.client().turn(turn, { timeoutMs: 200 }));
    expect(err.code).toBe(Code.DeadlineExceeded);
    await waitFor(() => fake.calls[0]?.signal?.aborted === true);
    // The reason depends on which comes first, the server's copy of the deadline or the client
    // resetting the stream; either way the run was stopped.
  });

  test("a client deadline mid-stream", async () => {
    fake.script = async (_input, { signal, onProgress }) => {
      onProgress?.(progress(1, "retrieve", "started"));
      return untilAborted(signal);
    };
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const m of s.client().streamTurn({ turn }, { timeoutMs: 300 })) seen.push(m.event.case ?? "");
      })(),
    );
    expect(seen).toEqual(["progress"]);
    expect(err.code).toBe(Code.DeadlineExceeded);
    await waitFor(() => fake.calls[0]?.signal?.aborted === true);
  });

  test("the server's turn timeout is DEADLINE_EXCEEDED, whatever the service throws", async () => {
    const short = await startServer({ env: { FRONTDESK_TURN_TIMEOUT_MS: "200" } });
    const fake = short.fake;
    fake.script = async (_input, { signal }) => {
      await untilAborted(signal).catch(() => undefined);
      // A service that wraps the abort in its own error must not turn it into INTERNAL.
      throw new Error("graph aborted");
    };
    try {
      const started = Date.now();
      const err = await failure(short.client().turn(turn));
      expect(err.code).toBe(Code.DeadlineExceeded);
      expect(err.rawMessage).toBe("turn exceeded the server's time limit (200 ms)");
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(fake.calls[0]?.signal?.aborted).toBe(true);
    } finally {
      await short.close();
    }
  });
});
