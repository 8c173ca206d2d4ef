import { describe, expect, it } from "vitest";
import { createSparseIndex } from "../../../src/retrieval/embedded/sparse-index.js";
import { fnv1a32 } from "../../../src/retrieval/embedding/hash.js";
import { bm25Idf, bm25TermWeights, documentSparseVector, querySparseVector } from "../../../src/retrieval/hybrid/bm25.js";
import { chunk } from "../helpers.js";

// Index only the chunk text so the scores can be computed by hand.
const textOnly = { text: (c: { text: string }) => c.text };

describe("BM25 sparse index", () => {
  // Analyzer terms: d1 [appl, banana, appl] (3), d2 [banana, cherri] (2), d3 [cherri, date, elderberri, fig] (4).
  const index = createSparseIndex(textOnly);
  index.add([chunk("d1", "apple banana apple"), chunk("d2", "banana cherry"), chunk("d3", "cherry date elderberry fig")]);

  it("scores a 3-document toy index exactly as computed by hand (k1 1.2, b 0.75, avgdl 3)", () => {
    const idfApple = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5)); // ln(8/3)
    const idfCherry = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // ln(1.6)
    const d1 = idfApple * ((2 * 2.2) / (2 + 1.2 * (0.25 + 0.75 * (3 / 3)))); // tf 2, dl 3
    const d2 = idfCherry * (2.2 / (1 + 1.2 * (0.25 + 0.75 * (2 / 3)))); // tf 1, dl 2
    const d3 = idfCherry * (2.2 / (1 + 1.2 * (0.25 + 0.75 * (4 / 3)))); // tf 1, dl 4
    const hits = index.search("apples and cherries", { filter: { tenantId: "acme" }, limit: 10 });
    expect(hits.map((h) => h.chunkId)).toEqual(["d1#0", "d2#0", "d3#0"]);
    expect(hits[0]?.score).toBeCloseTo(d1, 12);
    expect(hits[1]?.score).toBeCloseTo(d2, 12);
    expect(hits[2]?.score).toBeCloseTo(d3, 12);
    expect(d1).toBeCloseTo(1.348642, 5);
  });

  it("honours limit, returns nothing for unknown terms, and exposes term statistics", () => {
    expect(index.search("cherry", { filter: { tenantId: "acme" }, limit: 1 }).map((h) => h.chunkId)).toEqual(["d2#0"]);
    expect(index.search("zucchini", { filter: { tenantId: "acme" }, limit: 5 })).toEqual([]);
    const stats = index.termStats("acme");
    expect([stats.documentCount, stats.averageLength, stats.documentFrequency("cherri")]).toEqual([3, 3, 2]);
    expect(stats.idf("cherri")).toBeCloseTo(Math.log(1.6), 12);
    expect(index.termStats("nobody").documentCount).toBe(0);
    expect(() => index.search("cherry", { filter: { tenantId: "acme" }, limit: 0 })).toThrow(RangeError);
  });

  it("applies tenant, domain and document filters inside the scan, with per-tenant statistics", () => {
    const multi = createSparseIndex(textOnly);
    multi.add([
      chunk("a", "windshield glass", { tenantId: "t1", domain: "motor" }),
      chunk("b", "windshield windshield glass", { tenantId: "t2", domain: "motor" }),
      chunk("c", "windshield", { tenantId: "t1", domain: "home" }),
    ]);
    expect(multi.search("windshield", { filter: { tenantId: "t1" }, limit: 10 }).map((h) => h.chunkId)).toEqual(["c#0", "a#0"]);
    expect(multi.search("windshield", { filter: { tenantId: "t1", domain: "motor" }, limit: 10 }).map((h) => h.chunkId)).toEqual(["a#0"]);
    expect(multi.search("windshield", { filter: { tenantId: "t1", documentIds: ["a"] }, limit: 10 }).map((h) => h.chunkId)).toEqual(["a#0"]);
    expect(multi.search("windshield", { filter: { tenantId: "t1", documentIds: [] }, limit: 10 })).toEqual([]);
    expect(multi.search("windshield", { filter: { tenantId: "t3" }, limit: 10 })).toEqual([]);
    // t2's chunk does not count in t1's document frequency.
    expect(multi.termStats("t1").documentFrequency("windshield")).toBe(2);
    expect(multi.termStats("t2").documentCount).toBe(1);
  });

  it("removes a document's postings and replaces a re-added chunk id", () => {
    const local = createSparseIndex(textOnly);
    local.add([chunk("x", "flood damage"), chunk("x", "flood", { chunkIndex: 1 }), chunk("y", "fire damage")]);
    expect(local.size).toBe(3);
    expect(local.remove("acme", "x")).toBe(2);
    expect(local.remove("acme", "x")).toBe(0);
    expect(local.size).toBe(1);
    expect(local.search("flood", { filter: { tenantId: "acme" }, limit: 5 })).toEqual([]);
    expect(local.termStats("acme").documentFrequency("damag")).toBe(1);
    local.add([chunk("y", "theft")]);
    expect(local.size).toBe(1);
    expect(local.search("fire", { filter: { tenantId: "acme" }, limit: 5 })).toEqual([]);
    expect(local.search("theft", { filter: { tenantId: "acme" }, limit: 5 }).map((h) => h.chunkId)).toEqual(["y#0"]);
  });
});

describe("BM25 term weights for Qdrant", () => {
  it("gives the tf part of the index's score, so Qdrant's idf modifier reproduces it", () => {
    const weights = bm25TermWeights(["appl", "banana", "appl"], 3);
    expect(weights.get("appl")).toBeCloseTo(4.4 / 3.2, 12);
    expect(weights.get("banana")).toBeCloseTo(2.2 / 2.2, 12);
    expect(bm25Idf(3, 1) * (weights.get("appl") ?? 0)).toBeCloseTo(1.348642, 5);
  });

  it("hashes terms to FNV-1a indices, sorted, with query terms weighing 1", () => {
    const vector = documentSparseVector("apple banana apple", 3);
    const expected = [
      [fnv1a32("appl"), 4.4 / 3.2],
      [fnv1a32("banana"), 1],
    ].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
    expect(vector.indices).toEqual(expected.map((e) => e[0]));
    vector.values.forEach((value, i) => {
      expect(value).toBeCloseTo(expected[i]?.[1] ?? NaN, 12);
    });
    expect(querySparseVector("apples apple cherry")).toEqual({
      indices: [fnv1a32("appl"), fnv1a32("cherri")].sort((a, b) => a - b),
      values: [1, 1],
    });
  });
});
