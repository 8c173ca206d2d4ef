import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { evidenceFromHits, readingUnits } from "../../../src/agent/evidence.js";
import { PACKAGE_ROOT } from "../../../src/config/config.js";
import type { GenerateOutput } from "../../../src/models/roles.js";
import { read } from "../../../src/reading/index.js";
import { createEmbeddedRetriever, createLocalEmbedder, loadCorpusDir, type EmbeddedRetriever } from "../../../src/retrieval/index.js";
import { run, turn } from "./helpers.js";

/**
 * How the offline path reads real retrieved passages of the bundled corpus — the reader's verdict,
 * stated by the offline generate: a list item with the sentence introducing its list, an amount
 * as the answer to "limit", and "I mean" as filler.
 * Each case was a wrong answer or a needless handoff in the evaluation (docs/evaluation.md).
 */
let retriever: EmbeddedRetriever;

beforeAll(async () => {
  retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
  await retriever.add((await loadCorpusDir(path.join(PACKAGE_ROOT, "data/corpus"), { tenantId: "t" })).documents);
});

/** As the graph does it: the reader (grade) reads the retrieved units, generate states its reading. */
async function answer(question: string, language: "en" | "fa"): Promise<GenerateOutput> {
  const { hits } = await retriever.retrieve({ query: question, tenantId: "t", topK: 6, language });
  const agentHits = hits.map((h) => ({ chunk: h.chunk, score: h.score, neighbors: h.neighbors }));
  const chunks = evidenceFromHits(agentHits);
  const verdict = read({ query: question, language, units: readingUnits(agentHits), taxonomy: await retriever.taxonomy("t") });
  const reading = verdict.kind === "answer" ? { reading: { basis: verdict.basis, claims: verdict.claims, coverage: verdict.coverage } } : {};
  return run("generate", { query: question, userText: question, language, chunks, ...reading });
}

const text = (out: GenerateOutput) => out.claims.map((c) => c.text).join(" ");

describe("offline generate on retrieved corpus passages", () => {
  it("reads a list item with its introducing sentence (the device deductible list)", async () => {
    const out = await answer("What is the deductible for a cracked screen on device insurance?", "en");
    expect(out.answered).toBe(true);
    expect(text(out)).toContain("Screen breakage: 10% of the repair cost, with a minimum of 1,500,000 rials.");
    expect(out.claims.every((c) => c.chunkIds[0]!.startsWith("device-en#"))).toBe(true);
  });

  it("answers 'what is the limit' with the sentence stating the amount", async () => {
    expect(text(await answer("What is the dental limit in supplementary health insurance?", "en"))).toContain("150,000,000 rials");
    expect(text(await answer("What is the limit for glasses in supplementary health insurance?", "en"))).toContain("30,000,000 rials");
  });

  it("still answers 'the maximum' with the sentence that names it", async () => {
    expect(text(await answer("What is the maximum no-claims discount on third-party insurance?", "en"))).toContain("70% discount, which is the maximum");
  });
});

describe("offline contextualize", () => {
  it("treats 'I mean' and «منظورم» as filler in a follow-up", async () => {
    const en = await run("contextualize", { text: "the price, I mean", language: "en", history: [turn("How much does it cost?")], summary: "", profile: {} });
    expect(en.query).not.toMatch(/\bmean\b/u);
    expect(en.query).toContain("price");
    const fa = await run("contextualize", { text: "منظورم قیمت است", language: "fa", history: [turn("هزینه بیمه چقدر است؟", "fa")], summary: "", profile: {} });
    expect(fa.query).not.toContain("منظور");
    expect(fa.query).toContain("قیمت");
  });
});
