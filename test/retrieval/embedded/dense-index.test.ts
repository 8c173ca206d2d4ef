import { describe, expect, it } from "vitest";
import { createDenseIndex } from "../../../src/retrieval/embedded/dense-index.js";
import { chunk } from "../helpers.js";

const v = (...values: number[]): Float32Array => Float32Array.from(values);

describe("createDenseIndex", () => {
  it("ranks by exact cosine, normalising stored and query vectors", () => {
    const index = createDenseIndex({ dimension: 3 });
    index.add([
      { chunk: chunk("a", "a"), vector: v(1, 0, 0) },
      { chunk: chunk("b", "b"), vector: v(3, 4, 0) }, // cosine with (1,1,0): 7 / (5·√2)
      { chunk: chunk("c", "c"), vector: v(0, 10, 0) },
      { chunk: chunk("d", "d"), vector: v(-1, -1, 0) }, // opposite: left out
    ]);
    const hits = index.search(v(2, 2, 0), { filter: { tenantId: "acme" }, limit: 10 });
    expect(hits.map((h) => h.chunkId)).toEqual(["b#0", "a#0", "c#0"]);
    expect(hits[0]?.score).toBeCloseTo(7 / (5 * Math.SQRT2), 6);
    expect(hits[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(index.search(v(2, 2, 0), { filter: { tenantId: "acme" }, limit: 1 }).map((h) => h.chunkId)).toEqual(["b#0"]);
    expect(index.search(v(0, 0, 0), { filter: { tenantId: "acme" }, limit: 10 })).toEqual([]);
  });

  it("applies the same tenant, domain and documentIds filters as the sparse index", () => {
    const index = createDenseIndex({ dimension: 2 });
    index.add([
      { chunk: chunk("a", "a", { tenantId: "t1", domain: "motor" }), vector: v(1, 0) },
      { chunk: chunk("b", "b", { tenantId: "t2", domain: "motor" }), vector: v(1, 0) },
      { chunk: chunk("c", "c", { tenantId: "t1", domain: "home" }), vector: v(1, 0.1) },
    ]);
    const ids = (filter: Parameters<typeof index.search>[1]["filter"]) => index.search(v(1, 0), { filter, limit: 10 }).map((h) => h.chunkId);
    expect(ids({ tenantId: "t1" })).toEqual(["a#0", "c#0"]);
    expect(ids({ tenantId: "t2" })).toEqual(["b#0"]);
    expect(ids({ tenantId: "t1", domain: "home" })).toEqual(["c#0"]);
    expect(ids({ tenantId: "t1", documentIds: ["c", "b"] })).toEqual(["c#0"]);
    expect(ids({ tenantId: "t9" })).toEqual([]);
  });

  it("removes rows, keeps the matrix consistent and grows past its initial capacity", () => {
    const index = createDenseIndex({ dimension: 2 });
    const entries = Array.from({ length: 40 }, (_, i) => ({
      chunk: chunk(`doc${i % 4}`, `t${i}`, { chunkIndex: i }),
      vector: v(Math.cos(i / 10), Math.sin(i / 10)),
    }));
    index.add(entries);
    expect(index.size).toBe(40);
    expect(index.remove("acme", "doc0")).toBe(10);
    expect(index.size).toBe(30);
    // The best match for angle 0.5 is chunk 5 (doc1); its neighbours 4 (removed, doc0) and 6.
    const hits = index.search(v(Math.cos(0.5), Math.sin(0.5)), { filter: { tenantId: "acme" }, limit: 3 });
    expect(hits.map((h) => h.chunkId)).toEqual(["doc1#5", "doc2#6", "doc3#3"]);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    // Re-adding a chunk id replaces its row.
    index.add([{ chunk: chunk("doc1", "t5", { chunkIndex: 5 }), vector: v(-1, 0) }]);
    expect(index.size).toBe(30);
    expect(index.search(v(Math.cos(0.5), Math.sin(0.5)), { filter: { tenantId: "acme" }, limit: 1 }).map((h) => h.chunkId)).toEqual(["doc2#6"]);
  });

  it("rejects vectors of the wrong dimension", () => {
    const index = createDenseIndex({ dimension: 2 });
    expect(() => index.add([{ chunk: chunk("a", "a"), vector: v(1, 2, 3) }])).toThrow(RangeError);
    expect(() => index.search(v(1), { filter: { tenantId: "acme" }, limit: 1 })).toThrow(RangeError);
  });
});
