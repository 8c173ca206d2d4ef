import { describe, expect, it } from "vitest";
import { rrf } from "../../../src/retrieval/hybrid/fusion.js";

describe("rrf", () => {
  it("fuses by Σ 1/(k + rank) in an exact order", () => {
    const fused = rrf(
      [
        ["a", "b", "c", "d"],
        ["c", "a", "e"],
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(["a", "c", "b", "e", "d"]);
    expect(fused[0]).toEqual({ id: "a", score: 1 / 61 + 1 / 62, ranks: [1, 2] });
    expect(fused[1]).toEqual({ id: "c", score: 1 / 63 + 1 / 61, ranks: [3, 1] });
    expect(fused[4]).toEqual({ id: "d", score: 1 / 64, ranks: [4, undefined] });
  });

  it("breaks ties by best rank, then by first appearance", () => {
    // x: ranks 1 and 3; y: 3 and 1 -> equal scores and best ranks; x is seen first.
    expect(
      rrf([
        ["x", "q", "y"],
        ["y", "q", "x"],
      ]).map((f) => f.id),
    ).toEqual(["x", "y", "q"]);
    // p: one list at rank 2; r: one list at rank 2 too, in the later list.
    expect(
      rrf([
        ["z", "p"],
        ["z", "r"],
      ]).map((f) => f.id),
    ).toEqual(["z", "p", "r"]);
  });

  it("depends on k: a small k rewards the top ranks", () => {
    const lists = [["a", "b", "c"], ["c", "b", "a"], ["b"]];
    expect(rrf(lists, 0).map((f) => f.id)).toEqual(["b", "a", "c"]);
    expect(rrf(lists, 0)[0]?.score).toBeCloseTo(1 / 2 + 1 / 2 + 1, 12);
  });

  it("counts a repeated id once per list and handles empty input", () => {
    expect(rrf([["a", "a", "b"]])).toEqual([
      { id: "a", score: 1 / 61, ranks: [1] },
      { id: "b", score: 1 / 63, ranks: [3] },
    ]);
    expect(rrf([])).toEqual([]);
    expect(rrf([[], []])).toEqual([]);
  });
});
