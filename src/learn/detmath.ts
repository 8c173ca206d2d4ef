/**
 * Deterministic arithmetic for training and inference. ECMAScript fixes + - * / and Math.sqrt to
 * IEEE 754 binary64 (correctly rounded, the same on every engine), but leaves Math.exp and
 * Math.log "implementation-approximated": V8 has changed them before, and a last-bit difference
 * in one exp early in training can move a weight across a rounding boundary in the artefact.
 * So exp and ln are computed here from basic operations only: the same inputs give the same
 * bits on Node 20, Node 24 and any platform, and `npm run train:gates` is byte-reproducible.
 * Accuracy is within a few ulps of Math.exp / Math.log (test/learn/detmath.test.ts).
 */

// Cody–Waite split of ln 2 (fdlibm's constants): k·LN2_HI is exact for |k| < 2^11.
// Written with fdlibm's digits, more than a double holds: each literal rounds to the intended double.
// biome-ignore lint/correctness/noPrecisionLoss: fdlibm's published constant, see above.
const LN2_HI = 6.9314718036912381649e-1;
// biome-ignore lint/correctness/noPrecisionLoss: fdlibm's published constant, see above.
const LN2_LO = 1.90821492927058770002e-10;
// biome-ignore lint/correctness/noPrecisionLoss: fdlibm's published constant, see above.
// biome-ignore lint/suspicious/noApproximativeNumericConstant: kept beside LN2_HI/LN2_LO as fdlibm writes it, not Math.LOG2E.
const INV_LN2 = 1.442695040888963387;

// 2^k for k in [-1022, 1023], built by exact doublings and halvings.
const POW2_BIAS = 1022;
const POW2 = new Float64Array(2046);
POW2[POW2_BIAS] = 1;
for (let k = 1; k <= 1023; k++) POW2[POW2_BIAS + k] = POW2[POW2_BIAS + k - 1]! * 2;
for (let k = -1; k >= -1022; k--) POW2[POW2_BIAS + k] = POW2[POW2_BIAS + k + 1]! / 2;

// Taylor coefficients 1/n!, n = 2..13: on |r| ≤ ln2/2 the remainder is below 2^-60.
const EXP_COEFFS: number[] = [];
for (let n = 2, f = 1; n <= 13; n++) {
  f *= n;
  EXP_COEFFS.push(1 / f);
}

/** e^x, deterministic. Underflows to 0 below -745, overflows to Infinity above 709.78. */
export function exp(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x > 709.78) return Number.POSITIVE_INFINITY;
  if (x < -745.2) return 0;
  const k = Math.round(x * INV_LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  let poly = EXP_COEFFS[EXP_COEFFS.length - 1]!;
  for (let i = EXP_COEFFS.length - 2; i >= 0; i--) poly = EXP_COEFFS[i]! + r * poly;
  const er = 1 + r * (1 + r * poly);
  if (k > 1023) return er * POW2[POW2_BIAS + 1023]! * 2;
  // Subnormal results: scale in two steps so that only the last multiplication rounds.
  if (k < -1022) return er * POW2[POW2_BIAS + k + 60]! * POW2[POW2_BIAS - 60]!;
  return er * POW2[POW2_BIAS + k]!;
}

const view = new DataView(new ArrayBuffer(8));
const SQRT_HALF = Math.SQRT1_2;

/** ln(x), deterministic: x = m·2^e with m in [√½, √2), ln m = 2·atanh((m−1)/(m+1)). */
export function ln(x: number): number {
  if (Number.isNaN(x) || x < 0) return Number.NaN;
  if (x === 0) return Number.NEGATIVE_INFINITY;
  if (x === Number.POSITIVE_INFINITY) return x;
  let scaled = x;
  let e = 0;
  if (scaled < POW2[0]!) {
    // Subnormal: make it normal first (exact).
    scaled *= POW2[POW2_BIAS + 60]!;
    e -= 60;
  }
  view.setFloat64(0, scaled);
  const hi = view.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1023;
  // Same sign and mantissa, exponent 0: m in [1, 2).
  view.setUint32(0, (hi & 0x800fffff) | 0x3ff00000);
  let m = view.getFloat64(0);
  if (m > 2 * SQRT_HALF) {
    m /= 2;
    e += 1;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  // |s| ≤ 0.1716: eleven odd terms reach below 2^-60.
  let series = 1 / 23;
  for (let n = 21; n >= 1; n -= 2) series = 1 / n + s2 * series;
  return e * LN2_HI + (e * LN2_LO + 2 * s * series);
}

/**
 * Softmax of `logits` into `out` (same length), with the max subtracted first so that no exp
 * overflows. Returns the index of the largest probability (the first on ties).
 */
export function softmaxInto(logits: ArrayLike<number>, out: Float64Array): number {
  const n = logits.length;
  let best = 0;
  for (let k = 1; k < n; k++) if (logits[k]! > logits[best]!) best = k;
  const max = logits[best]!;
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const e = exp(logits[k]! - max);
    out[k] = e;
    sum += e;
  }
  for (let k = 0; k < n; k++) out[k] = out[k]! / sum;
  return best;
}

/** x rounded to `digits` significant digits (toPrecision is exactly specified by ECMAScript). */
export function roundSignificant(x: number, digits: number): number {
  if (x === 0) return 0;
  const rounded = Number(x.toPrecision(digits));
  return rounded === 0 ? 0 : rounded;
}

/**
 * A seeded PRNG (mulberry32): 32-bit integer arithmetic only, so the same seed gives the same
 * sequence everywhere. Returns uniform integers in [0, bound).
 */
export function createRandom(seed: number): (bound: number) => number {
  let state = seed >>> 0;
  return (bound: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(u * bound);
  };
}
