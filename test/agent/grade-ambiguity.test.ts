import { describe, expect, it } from "vitest";
import type { TurnAttempt } from "../../src/service/types.js";
import { chunk, fakeRetriever, harness, scriptedModels, turn } from "./support.js";

/**
 * A clarifying question is grounded only when its options fit the question: the reader offers
 * products whose passages answer it. Results spread over several products that do not
 * ("How much is boat insurance?" over travel and device prices) are never offered as options:
 * the documents never mention boats, and the turn hands off.
 */
const travelPrice = chunk("travel-en#4", "A 7-day trip costs 4,500,000 rials.", { title: "Travel Insurance", product: "travel", domain: "travel" });
const devicePrice = chunk("device-en#3", "A phone worth up to 100,000,000 rials costs 4,500,000 rials a year.", {
  title: "Device Insurance",
  product: "device",
  domain: "device",
});

async function pathOf(score: number, question = "How much does it cost?"): Promise<{ path: string[]; attempt: TurnAttempt; calls: string[] }> {
  const models = scriptedModels({
    triage: () => ({ intent: "knowledge", confidence: 0.8 }),
    grade: () => ({ verdict: "insufficient", relevantChunkIds: [] }),
  });
  const h = harness({
    models,
    retriever: fakeRetriever(() => [
      { chunk: travelPrice, score },
      { chunk: devicePrice, score },
    ]),
  });
  const path: string[] = [];
  const attempt = await h.service.runTurn(turn(question), { onProgress: (e) => e.phase === "completed" && path.push(e.node) });
  return { path, attempt, calls: models.calls };
}

describe("ambiguity is judged on passages that answer the question", () => {
  it("asks which product when two products answer equally well", async () => {
    const { path, attempt, calls } = await pathOf(0.9);
    expect(path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "clarify", "record_turn"]);
    expect(attempt.kind === "completed" && attempt.result.outcome.kind).toBe("clarify");
    expect(calls).toEqual(["triage"]);
  });

  it("does not offer other products as options for one the documents never mention: the model grades, and the turn hands off after the retry", async () => {
    const { path, attempt, calls } = await pathOf(0.9, "How much is boat insurance?");
    expect(path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "retrieve", "grade", "escalate", "record_turn"]);
    expect(attempt.kind === "completed" && attempt.result.outcome).toMatchObject({ kind: "escalate", reason: "insufficient_retrieval" });
    expect(calls).toEqual(["triage", "grade", "grade"]);
  });
});
