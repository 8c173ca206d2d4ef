import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGeminiModelProvider } from "../../../src/models/gemini/index.js";
import type { Gates } from "../../../src/agent/gates.js";
import { bundle, runCompleted, bundleGates, chunk, fakeRetriever, harness } from "../../agent/support.js";
import { chunksInPrompt, startFakeGemini, type FakeGemini, type GenerateHandler } from "../../support/fake-gemini.js";

/**
 * Real turns through the graph with the Gemini provider against the fake API: the grounding
 * checks that run on the offline provider's answers run on Gemini's too.
 */

const deductible = chunk("motor-body-en#3", "The deductible is 10% of the assessed damage. The minimum deductible is 5,000,000 rials.", {
  title: "Motor Body Insurance",
  product: "motor-body",
});

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
});

/** Default gates: never sure (test/agent/support.ts), so every turn asks Gemini's triage role. */
function geminiHarness(handler: GenerateHandler, gates?: Gates) {
  fake.setGenerate(handler);
  const models = createGeminiModelProvider({ apiKey: "fake-key", baseUrl: fake.url, timeoutMs: 2_000, bundle });
  return harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), ...(gates ? { gates } : {}) });
}

const roles = () => fake.generateCalls().map((c) => c.role);

describe("turns through the Gemini provider (fake API)", () => {
  it("answers with a cited, verbatim claim: two model calls, tokens per role from the API's usage metadata", async () => {
    const h = geminiHarness((call) => {
      if (call.role === "triage") return { json: { intent: "knowledge", confidence: 0.95 }, usage: { promptTokenCount: 300, candidatesTokenCount: 12 } };
      const [first] = chunksInPrompt(call.user);
      return {
        json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: [first!.id] }], answered: true, confidence: 0.9 },
        usage: { promptTokenCount: 900, candidatesTokenCount: 40 },
      };
    });
    const { result, path } = await runCompleted(h, "What is the minimum deductible for body insurance?");
    expect(path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "generate", "verify", "write_memory", "record_turn"]);
    expect(result.outcome).toMatchObject({
      kind: "answer",
      answerKind: "grounded",
      text: "The minimum deductible is 5,000,000 rials.",
      citations: [{ chunkId: "motor-body-en#3", documentId: "motor-body-en", title: "Motor Body Insurance" }],
      confidence: 0.9,
    });
    expect(roles()).toEqual(["triage", "generate"]);
    expect(result.stats.roles).toEqual({
      triage: { calls: 1, inputTokens: 300, outputTokens: 12 },
      generate: { calls: 1, inputTokens: 900, outputTokens: 40 },
    });
  });

  it("rejects an answer whose number was changed, regenerates once with the reason, then hands off", async () => {
    const h = geminiHarness((call) =>
      call.role === "triage"
        ? { json: { intent: "knowledge", confidence: 0.95 } }
        : { json: { claims: [{ text: "The minimum deductible is 6,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 } },
    );
    const { result, path } = await runCompleted(h, "What is the minimum deductible?");
    expect(path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "generate", "verify", "generate", "verify", "escalate", "record_turn"]);
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "ungrounded" });
    if (result.outcome.kind !== "escalate") throw new Error();
    expect(result.outcome.detail).toContain("number 6000000 not in the cited chunk motor-body-en#3");
    // The deterministic check decided: no verify model call. The second draft was told why the first failed.
    expect(roles()).toEqual(["triage", "generate", "generate"]);
    const [first, second] = fake.generateCalls().filter((c) => c.role === "generate");
    expect(first!.user).not.toContain("previous draft was rejected");
    expect(second!.user).toContain("Your previous draft was rejected by the grounding check:");
    expect(second!.user).toContain("The minimum deductible is 6,000,000 rials.");
  });

  it("rejects an answer that cites a chunk that was not retrieved", async () => {
    const h = geminiHarness((call) =>
      call.role === "triage"
        ? { json: { intent: "knowledge", confidence: 0.95 } }
        : { json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#99"] }], answered: true, confidence: 0.9 } },
    );
    const { result } = await runCompleted(h, "What is the minimum deductible?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "ungrounded" });
    if (result.outcome.kind !== "escalate") throw new Error();
    expect(result.outcome.detail).toContain("cites chunks not retrieved this turn: motor-body-en#99");
    expect(roles()).toEqual(["triage", "generate", "generate"]);
  });

  it("asks the verify model about a paraphrase and answers when it is supported", async () => {
    const h = geminiHarness((call) => {
      if (call.role === "triage") return { json: { intent: "knowledge", confidence: 0.95 } };
      if (call.role === "verify") return { json: { claims: [{ index: 0, supported: true, reason: "the chunk states the minimum" }] } };
      // The offline reader's words do not reach "the least I pay", so the grade model is asked.
      if (call.role === "grade") return { json: { verdict: "sufficient", relevantChunkIds: ["motor-body-en#3"] } };
      return { json: { claims: [{ text: "You pay at least 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.8 } };
    });
    const { result } = await runCompleted(h, "What is the least I pay?");
    expect(result.outcome).toMatchObject({ kind: "answer", text: "You pay at least 5,000,000 rials." });
    expect(roles()).toEqual(["triage", "grade", "generate", "verify"]);
    const verify = fake.generateCalls().find((c) => c.role === "verify")!;
    expect(verify.user).toContain('<claim index="0">\n<statement>\nYou pay at least 5,000,000 rials.\n</statement>\n<chunk id="motor-body-en#3"');
  });

  it("escalates when Gemini says the chunks do not answer (answered: false)", async () => {
    const h = geminiHarness((call) => {
      if (call.role === "triage") return { json: { intent: "knowledge", confidence: 0.95 } };
      // The grade model finds the chunk relevant; the answer model finds no answer in it.
      if (call.role === "grade") return { json: { verdict: "sufficient", relevantChunkIds: ["motor-body-en#3"] } };
      return { json: { claims: [], answered: false, confidence: 0.2 } };
    });
    const { result } = await runCompleted(h, "Does it cover volcanic eruptions on Mars?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "low_confidence" });
  });

  it("retries a reply that fails its schema and uses the next one", async () => {
    let generateCalls = 0;
    const h = geminiHarness((call) => {
      if (call.role === "triage") return { json: { intent: "knowledge", confidence: 0.95 } };
      generateCalls++;
      return generateCalls === 1
        ? { text: "The minimum deductible is 5,000,000 rials." }
        : { json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 } };
    });
    const { result } = await runCompleted(h, "What is the minimum deductible?");
    expect(result.outcome.kind).toBe("answer");
    expect(result.stats.modelCalls).toBe(3);
    expect(result.stats.roles["generate"]?.calls).toBe(2);
  });

  it("hands off with dependency_failure when the API keeps failing: 500 on all three attempts", async () => {
    const h = geminiHarness(() => ({ status: 500, message: "backend error" }));
    const { result, path } = await runCompleted(h, "What is the minimum deductible?");
    expect(path).toEqual(["load_memory", "triage", "escalate", "record_turn"]);
    expect(result.outcome).toMatchObject({
      kind: "escalate",
      reason: "dependency_failure",
      detail: "triage model call failed (server) after 3 attempt(s)",
      message: "I'm having technical trouble right now, so I'm connecting you with a colleague.",
    });
    expect(roles()).toEqual(["triage", "triage", "triage"]);
    expect(result.stats.modelCalls).toBe(3);
  });

  it("recovers from a 429 on the next attempt", async () => {
    let triageCalls = 0;
    const h = geminiHarness((call) => {
      if (call.role === "triage") return ++triageCalls === 1 ? { status: 429, message: "quota" } : { json: { intent: "knowledge", confidence: 0.95 } };
      return { json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 } };
    });
    const { result } = await runCompleted(h, "What is the minimum deductible?");
    expect(result.outcome.kind).toBe("answer");
    expect(roles()).toEqual(["triage", "triage", "generate"]);
  });

  it("runs the same gates first: a message the classifier is sure of makes no triage call", async () => {
    const h = geminiHarness(
      () => ({ json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 } }),
      bundleGates,
    );
    const { result } = await runCompleted(h, "What is the minimum deductible for motor body insurance?");
    expect(result.outcome.kind).toBe("answer");
    expect(roles()).toEqual(["generate"]);
    fake.calls.length = 0;
    const escalated = await runCompleted(
      geminiHarness(() => ({ status: 500 }), bundleGates),
      "could you put a real human on the line",
    );
    expect(escalated.result.outcome).toMatchObject({ kind: "escalate", reason: "user_requested" });
    expect(roles()).toEqual([]);
  });

  it("asks Gemini only knowledge against the rest when the classifier is unsure, telling it what the classifier leaned to", async () => {
    const h = geminiHarness((call) =>
      call.role === "triage"
        ? { json: { intent: "account", confidence: 0.8 } }
        : { json: { claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 } },
    );
    const { result } = await runCompleted(h, "and mine?");
    const triage = fake.generateCalls().find((c) => c.role === "triage")!;
    expect(triage.system).toContain("Your one decision: is the message a knowledge question, or not?");
    expect(triage.user).toContain("The classifier leaned towards: a question the documents can answer");
    // "Not knowledge", and the classifier leaned to knowledge: the model's intent says which of the rest.
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "account_specific" });
  });
});
