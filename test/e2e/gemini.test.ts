import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import { AnswerKind, EscalationReason, TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { chunksInPrompt, startFakeGemini, type FakeGemini } from "../support/fake-gemini.js";
import { quotingResponder } from "../support/gemini-responder.js";
import { startRealServer, type RealServer } from "./support.js";

/**
 * The whole service configured for Gemini (FRONTDESK_MODEL_PROVIDER=gemini, the base URL of a
 * fake API on 127.0.0.1), over a real socket: composition, the provider, the graph and the wire.
 */

const turn = (threadId: string, text: string) => create(TurnRequestSchema, { threadId, userId: "u-1", text });

function geminiEnv(fake: FakeGemini, extra: Record<string, string> = {}): Record<string, string> {
  return {
    FRONTDESK_MODEL_PROVIDER: "gemini",
    GOOGLE_API_KEY: "fake-key",
    FRONTDESK_GEMINI_BASE_URL: fake.url,
    FRONTDESK_MODEL_RETRY_INITIAL_MS: "5",
    FRONTDESK_MODEL_RETRY_MAX_MS: "10",
    ...extra,
  };
}

describe("the service on Gemini (fake API)", () => {
  let fake: FakeGemini;
  let server: RealServer;
  beforeAll(async () => {
    fake = await startFakeGemini({ apiKey: "fake-key" });
    server = await startRealServer(geminiEnv(fake));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("answers from the bundled corpus with a citation of a chunk Gemini was given", async () => {
    fake.setGenerate(quotingResponder());
    fake.calls.length = 0;
    const result = (await server.client.turn(turn("g-answer", "What is the minimum deductible for motor body insurance?"))).result!;
    expect(result.outcome.case).toBe("answer");
    if (result.outcome.case !== "answer") throw new Error();
    expect(result.outcome.value.kind).toBe(AnswerKind.GROUNDED);
    const generate = fake.generateCalls().find((c) => c.role === "generate")!;
    const given = chunksInPrompt(generate.user);
    const cited = result.outcome.value.citations.map((c) => c.chunkId);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(given.map((c) => c.id)).toContain(id);
    expect(given.find((c) => c.id === cited[0])!.text).toContain(result.outcome.value.text.replace(/\.$/u, ""));
    expect(generate.model).toBe("gemini-2.5-flash");
    expect(result.stats!.modelCalls).toBe(fake.generateCalls().length);
  });

  it("escalates with DEPENDENCY_FAILURE when Gemini answers 500 to every attempt, and closes the thread", async () => {
    fake.setGenerate(() => ({ status: 500, message: "internal" }));
    fake.calls.length = 0;
    const result = (await server.client.turn(turn("g-down", "What is the minimum deductible for motor body insurance?"))).result!;
    expect(result.outcome.case).toBe("escalate");
    if (result.outcome.case !== "escalate") throw new Error();
    expect(result.outcome.value.reason).toBe(EscalationReason.DEPENDENCY_FAILURE);
    expect(result.outcome.value.message).toBe("I'm having technical trouble right now, so I'm connecting you with a colleague.");
    // The gate classifier is sure this is a knowledge question: no triage call, so the failing calls are generate's.
    expect(fake.generateCalls().map((c) => c.role)).toEqual(["generate", "generate", "generate"]);
    const thread = (await server.client.getThread({ threadId: "g-down" })).thread!;
    expect(thread.status).toBe(ThreadStatus.ESCALATED);
  });

  it("decides rule-bound turns without calling Gemini", async () => {
    fake.setGenerate(() => ({ status: 500 }));
    fake.calls.length = 0;
    const hello = (await server.client.turn(turn("g-rules-1", "Hello!"))).result!;
    expect(hello.outcome.case).toBe("answer");
    const human = (await server.client.turn(turn("g-rules-2", "I want to talk to a human"))).result!;
    expect(human.outcome.case === "escalate" && human.outcome.value.reason).toBe(EscalationReason.USER_REQUESTED);
    expect(fake.generateCalls()).toHaveLength(0);
  });
});

describe("a hanging Gemini under the server's turn time limit", () => {
  it("hands off with DEPENDENCY_FAILURE before the deadline instead of failing with DEADLINE_EXCEEDED", async () => {
    const fake = await startFakeGemini({ generate: () => ({ hang: true }) });
    const server = await startRealServer(
      geminiEnv(fake, {
        FRONTDESK_TURN_TIMEOUT_MS: "1500",
        FRONTDESK_MODEL_TIMEOUT_MS: "1000",
        FRONTDESK_HANDOFF_RESERVE_MS: "300",
        FRONTDESK_MODEL_RETRY_INITIAL_MS: "500",
        FRONTDESK_MODEL_RETRY_MAX_MS: "500",
      }),
    );
    try {
      const result = (await server.client.turn(turn("g-hang", "What is the minimum deductible for motor body insurance?"))).result!;
      expect(result.outcome.case).toBe("escalate");
      if (result.outcome.case !== "escalate") throw new Error();
      expect(result.outcome.value.reason).toBe(EscalationReason.DEPENDENCY_FAILURE);
      // At most one attempt of 1000 ms; a retry after >= 375 ms of backoff would end past the 1200 ms
      // left for model calls. (On a loaded machine the turn can reach generate with too little of
      // its budget left for even one attempt: then none is made, which is the same rule.)
      expect(fake.generateCalls().length).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
      await fake.close();
    }
  });
});
