import { describe, expect, it } from "vitest";
import { createSparseIndex } from "../../../src/retrieval/embedded/sparse-index.js";
import type { TermStats } from "../../../src/retrieval/hybrid/bm25.js";
import { createLexicalReranker, scoreParts } from "../../../src/retrieval/rerank/lexical.js";
import { chunk } from "../helpers.js";

const idfTable: Record<string, number> = { windshield: 3, repair: 1 };
const stats: TermStats = { documentCount: 10, averageLength: 5, documentFrequency: () => 1, idf: (term) => idfTable[term] ?? 1 };
const reranker = createLexicalReranker({ termStats: () => stats });
const glass = (text: string, overrides = {}) => chunk("motor", text, { title: "Motor", section: "Glass", ...overrides });

describe("createLexicalReranker", () => {
  it("scores full, adjacent coverage with the language bonus as 0.75 + 0.1 + 0.05", async () => {
    const candidate = glass("Windshield repair is covered.");
    expect(await reranker.rerank("windshield repair", [candidate], { language: "en" })).toEqual([0.9]);
    expect(await reranker.rerank("windshield repair", [candidate], { language: "fa" })).toEqual([0.85]);
    expect(await reranker.rerank("windshield repair", [candidate])).toEqual([0.85]);
  });

  it("weights coverage by IDF: missing the rare term costs more than missing the common one", async () => {
    const [rareOnly, commonOnly] = await reranker.rerank("windshield repair", [glass("Windshield damage."), glass("Repair shops.")]);
    expect(rareOnly).toBeCloseTo(0.75 * (3 / 4), 12); // no proximity: only one of two terms matched
    expect(commonOnly).toBeCloseTo(0.75 * (1 / 4), 12);
  });

  it("adds proximity and title/section matches", async () => {
    const [spread, titled] = await reranker.rerank("windshield repair", [
      glass("Windshield alpha beta gamma repair."), // span 5 for 2 terms: proximity 0.4
      chunk("motor", "Repair costs.", { title: "Windshield", section: "" }), // field coverage 3/4
    ]);
    expect(spread).toBeCloseTo(0.75 + 0.1 * 0.4, 12);
    expect(titled).toBeCloseTo(0.75 + 0.1 + 0.1 * 0.75, 12);
  });

  it("gives near forms partial credit but numbers none", async () => {
    // Prefix rule: تعمیر (repair) in تعمیرگاه (repair shop), 5/8 of the longer word.
    expect(scoreParts(["تعمیر"], [1], chunk("fa", "تعمیرگاه مجاز", { lang: "fa" }))).toEqual({ coverage: 0.7, proximity: 1, field: 0 });
    // Trigram rule: a typo. "<windshild>" and "<windshield>" share 7 of their 9 and 10 trigrams.
    expect(scoreParts(["windshild"], [1], glass("Windshield")).coverage).toBeCloseTo(0.7 * (14 / 19), 12);
    expect(scoreParts(["car"], [1], glass("Card payments")).coverage).toBe(0);
    expect(await reranker.rerank("2000", [glass("Limit 20000 rials.")])).toEqual([0]);
    expect(await reranker.rerank("2000", [glass("Limit 2,000 rials.")])).toEqual([0.85]);
  });

  it("scores 0 for no match, whatever the language, and for a query of stopwords", async () => {
    expect(await reranker.rerank("flood", [glass("Windshield repair.")], { language: "en" })).toEqual([0]);
    expect(await reranker.rerank("what is the", [glass("Windshield repair.")])).toEqual([0]);
    expect(await reranker.rerank("flood", [])).toEqual([]);
  });

  it("keeps scores aligned with candidates and within 0..1", async () => {
    const candidates = [glass("Nothing relevant."), glass("Windshield repair."), glass("Windshield.")];
    const scores = await reranker.rerank("windshield repair", candidates, { language: "en" });
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeGreaterThan(scores[2] ?? 1);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
  });

  it("takes IDF from the index statistics of the chunk's tenant", async () => {
    const index = createSparseIndex();
    index.add([chunk("a", "flood cover"), chunk("b", "fire cover"), chunk("c", "theft cover"), chunk("x", "flood", { tenantId: "other" })]);
    const lexical = createLexicalReranker({ termStats: (tenantId) => index.termStats(tenantId) });
    const [floodOnly, coverOnly] = await lexical.rerank("flood cover", [chunk("q", "flood"), chunk("r", "cover")]);
    const idfFlood = Math.log(1 + 2.5 / 1.5);
    const idfCover = Math.log(1 + 0.5 / 3.5);
    expect(floodOnly).toBeCloseTo(0.75 * (idfFlood / (idfFlood + idfCover)), 12);
    expect(coverOnly).toBeCloseTo(0.75 * (idfCover / (idfFlood + idfCover)), 12);
  });

  it("rejects weights that do not sum to 1, and an aborted signal", async () => {
    expect(() => createLexicalReranker({ termStats: () => stats, weights: { coverage: 1, proximity: 0.1, field: 0, language: 0 } })).toThrow(RangeError);
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await expect(reranker.rerank("x", [glass("x")], {}, controller.signal)).rejects.toThrow("gone");
  });
});
