import { parseScenarios, type Expectation, type Scenario } from "../../src/eval/scenario.js";
import type { ObservedTurn } from "../../src/eval/target.js";
import type { Chunk } from "../../src/retrieval/index.js";

/** An observed turn with everything empty but what the test sets. */
export function observed(patch: Partial<ObservedTurn>): ObservedTurn {
  return {
    outcome: "answer",
    language: "en",
    text: "",
    citations: [],
    claims: [],
    options: [],
    reason: null,
    detail: "",
    rewrittenQuery: null,
    topChunks: [],
    nodes: [],
    modelCalls: 1,
    latencyMs: 10,
    ...patch,
  };
}

/** A one-conversation scenario parsed through the real schema (so defaults apply). */
export function scenario(raw: Record<string, unknown>): Scenario {
  const { scenarios, problems } = parseScenarios(JSON.stringify({ category: "direct", description: "test", ...raw }), "test.jsonl");
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return scenarios[0]!;
}

export function expectation(raw: Record<string, unknown>): Expectation {
  return scenario({ id: "x", turns: [{ user: "q", expect: raw }] }).turns[0]!.expect;
}

export function chunkOf(chunkId: string, text: string, title = "Doc"): Chunk {
  const [documentId, index] = chunkId.split("#");
  return {
    chunkId,
    documentId: documentId!,
    chunkIndex: Number(index),
    tenantId: "t",
    title,
    product: documentId!,
    domain: "general",
    lang: "en",
    section: "",
    sectionPath: [],
    text,
    unit: { kind: "paragraph" },
  };
}
