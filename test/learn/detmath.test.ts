import { describe, expect, it } from "vitest";
import { createRandom, exp, ln, roundSignificant, softmaxInto } from "../../src/learn/detmath.js";

/** Distance in units of the last place, for doubles of the same sign. */
function ulps(a: number, b: number): number {
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  return Number(view.getBigInt64(0) - view.getBigInt64(8));
}

// Evenly spread inputs, not random ones: a failure must reproduce.
const inputs = (from: number, to: number, n: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

describe("exp", () => {
  it("is within 1 ulp of Math.exp from -700 to 700", () => {
    const worst = Math.max(...inputs(-700, 700, 20_001).map((x) => Math.abs(ulps(exp(x), Math.exp(x)))));
    expect(worst).toBeLessThanOrEqual(1);
  });
  it("handles the edges: 0, overflow, underflow to subnormals and 0, NaN", () => {
    expect(exp(0)).toBe(1);
    expect(exp(710)).toBe(Number.POSITIVE_INFINITY);
    expect(exp(-740)).toBe(Math.exp(-740));
    expect(exp(-746)).toBe(0);
    expect(exp(Number.NaN)).toBeNaN();
  });
  it("gives the pinned bits on every engine (the artefact's reproducibility rests on it)", () => {
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: the pinned bits of exp(1), one ulp above Math.E.
    expect(exp(1)).toBe(2.7182818284590455);
    expect(exp(-0.5)).toBe(0.6065306597126334);
    expect(exp(-3.25)).toBe(0.03877420783172201);
  });
});

describe("ln", () => {
  it("is within 2 ulps of Math.log from 1e-300 to 1e300", () => {
    const worst = Math.max(
      ...inputs(-690, 690, 20_001)
        .map((e) => Math.exp(e))
        .map((x) => Math.abs(ulps(ln(x), Math.log(x)))),
    );
    expect(worst).toBeLessThanOrEqual(2);
  });
  it("handles the edges", () => {
    expect(ln(1)).toBe(0);
    expect(ln(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(ln(-1)).toBeNaN();
    expect(ln(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(ln(5e-324)).toBe(Math.log(5e-324));
    expect(ln(2)).toBe(Math.LN2);
  });
});

describe("softmaxInto", () => {
  it("sums to 1, survives huge logits and returns the first best on ties", () => {
    const out = new Float64Array(3);
    expect(softmaxInto([1000, 1000, -1000], out)).toBe(0);
    expect(Array.from(out)).toEqual([0.5, 0.5, 0]);
    expect(softmaxInto([0, Math.LN2, 0], out)).toBe(1);
    expect(out[1]).toBeCloseTo(0.5, 12);
  });
});

describe("roundSignificant", () => {
  it("keeps the given significant digits and never returns -0", () => {
    expect(roundSignificant(0.000123456, 3)).toBe(0.000123);
    expect(roundSignificant(-98765.4, 2)).toBe(-99000);
    expect(Object.is(roundSignificant(-1e-30, 4), -0)).toBe(false);
    expect(roundSignificant(0, 4)).toBe(0);
  });
});

describe("createRandom", () => {
  it("gives the same sequence for the same seed and stays in range", () => {
    const a = createRandom(1);
    const b = createRandom(1);
    const seq = Array.from({ length: 8 }, () => a(1000));
    expect(Array.from({ length: 8 }, () => b(1000))).toEqual(seq);
    expect(seq).toEqual([627, 2, 527, 981, 968, 281, 612, 720]);
    const c = createRandom(2);
    expect(Array.from({ length: 8 }, () => c(1000))).not.toEqual(seq);
  });
});
