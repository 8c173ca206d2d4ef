import { describe, expect, it } from "vitest";
import { cut } from "../../../src/retrieval/hybrid/pipeline.js";

describe("cut: the kept hits after reranking", () => {
  const scores = [0.95, 0.94, 0.93, 0.9, 0.88, 0.5];
  const products = ["pet", "pet", "pet", "visitor", "auto", "home"];

  it("keeps the best topK at or above the minimum score, best first", () => {
    expect(cut(scores, 3, 0).map((k) => k.position)).toEqual([0, 1, 2]);
    expect(cut(scores, 10, 0.89).map((k) => k.position)).toEqual([0, 1, 2, 3]);
  });

  it("gives the last place to the best hit of a product the others missed, when it scores close to the best", () => {
    // "Is there a waiting period?": three pet passages, and the visitor one just below them.
    expect(cut(scores, 3, 0, products, { slots: 1, share: 0.9 }).map((k) => k.position)).toEqual([0, 1, 3]);
    // Two places: the auto hit (0.88 ≥ 0.855) too.
    expect(cut(scores, 3, 0, products, { slots: 2, share: 0.9 }).map((k) => k.position)).toEqual([0, 3, 4]);
    // Not when it is far below the best, nor without places to give.
    expect(cut(scores, 3, 0, products, { slots: 1, share: 0.99 }).map((k) => k.position)).toEqual([0, 1, 2]);
    expect(cut(scores, 3, 0, products, { slots: 0, share: 0.9 }).map((k) => k.position)).toEqual([0, 1, 2]);
  });

  it("gives no place to a product already kept, and never gives away the best", () => {
    // Pet and visitor are kept; of the rest, auto scores close enough and takes the last place.
    const mixed = ["pet", "visitor", "pet", "auto", "home", "home"];
    expect(cut(scores, 3, 0, mixed, { slots: 1, share: 0.9 }).map((k) => k.position)).toEqual([0, 1, 3]);
    // Every product near the best is kept already: nothing changes.
    const kept = ["pet", "visitor", "pet", "pet", "visitor", "home"];
    expect(cut(scores, 3, 0, kept, { slots: 2, share: 0.9 }).map((k) => k.position)).toEqual([0, 1, 2]);
    expect(cut(scores, 1, 0, products, { slots: 1, share: 0.9 }).map((k) => k.position)).toEqual([0]);
  });
});
