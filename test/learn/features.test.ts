import { describe, expect, it } from "vitest";
import { createFeaturizer, DEFAULT_FEATURES, featureFingerprint, fnv1a32, type FeatureConfig, type SparseVector } from "../../src/learn/features.js";

/** FNV-1a 32-bit written out over bytes, independently of the implementation under test. */
function referenceFnv(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Number((BigInt(h ^ b) * 0x01000193n) & 0xffffffffn);
  return h >>> 0;
}

const dot = (a: SparseVector, b: SparseVector) => {
  let sum = 0;
  for (let i = 0, j = 0; i < a.indices.length && j < b.indices.length; ) {
    if (a.indices[i] === b.indices[j]) sum += a.values[i++]! * b.values[j++]!;
    else if (a.indices[i]! < b.indices[j]!) i++;
    else j++;
  }
  return sum;
};
const norm = (v: SparseVector) => Math.sqrt(dot(v, v));
const NO_LANG: FeatureConfig = { ...DEFAULT_FEATURES, languageFeature: false };

describe("fnv1a32", () => {
  it("is FNV-1a 32-bit over the UTF-16LE bytes", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    for (const text of ["a", "foobar", "بیمه‌نامه", "۱۲۳", "😀"]) expect(fnv1a32(text)).toBe(referenceFnv(Buffer.from(text, "utf16le")));
  });
});

describe("createFeaturizer", () => {
  const f = createFeaturizer(NO_LANG);

  it("gives strictly increasing buckets inside the hash space and a unit vector", () => {
    const v = f.featurize("I want to cancel my policy, please!");
    expect(v.indices.length).toBeGreaterThan(40);
    for (let i = 1; i < v.indices.length; i++) expect(v.indices[i]!).toBeGreaterThan(v.indices[i - 1]!);
    expect(v.indices.every((b) => b >= 0 && b < 2 ** DEFAULT_FEATURES.hashBits)).toBe(true);
    expect(norm(v)).toBeCloseTo(1, 12);
  });

  it("folds letter forms, digits, diacritics, case and ZWNJ to the same features", () => {
    const same = (a: string, b: string) => expect(f.featurize(a)).toEqual(f.featurize(b));
    same("بيمه تكميلي", "بیمه تکمیلی");
    same("مُدیریَت بـیـمـه", "مدیریت بیمه");
    same("بیمه‌نامه", "بیمه نامه");
    same("CANCEL My Policy", "cancel my policy");
    same("ﺑﯿﻤﻪ", "بیمه");
  });

  it("hashes digits by shape, in every script", () => {
    expect(f.featurize("policy 12345678")).toEqual(f.featurize("policy 87654321"));
    expect(f.featurize("بیمه‌نامه ۱۲۳۴")).toEqual(f.featurize("بیمه‌نامه 9876"));
    expect(f.featurize("policy 12345678")).not.toEqual(f.featurize("policy 123"));
  });

  it("joins adjacent words, so a ZWNJ variant written as one word shares a word feature", () => {
    const wordsOnly = createFeaturizer({ ...NO_LANG, char: null });
    const noJoin = createFeaturizer({ ...NO_LANG, char: null, word: { maxN: 2, joinPairs: false } });
    expect(dot(wordsOnly.featurize("می‌خواهم"), wordsOnly.featurize("میخواهم"))).toBeGreaterThan(0.3);
    expect(dot(noJoin.featurize("می‌خواهم"), noJoin.featurize("میخواهم"))).toBe(0);
  });

  it("shares character n-grams between a word and its typo or inflection", () => {
    const charsOnly = createFeaturizer({ ...NO_LANG, word: null });
    expect(dot(charsOnly.featurize("cancel"), charsOnly.featurize("cancell"))).toBeGreaterThan(0.6);
    expect(dot(charsOnly.featurize("شکایت"), charsOnly.featurize("شکایتم"))).toBeGreaterThan(0.5);
    expect(dot(charsOnly.featurize("refund"), charsOnly.featurize("human"))).toBe(0);
  });

  it("uses sublinear tf: a repeated word weighs less than its count", () => {
    const wordsOnly = createFeaturizer({ ...NO_LANG, char: null, word: { maxN: 1, joinPairs: false } });
    const v = wordsOnly.featurize("no no no no yes");
    const values = Array.from(v.values).sort((a, b) => a - b);
    expect(values[1]! / values[0]!).toBeCloseTo(1 + Math.log(4), 12);
  });

  it("adds the detected language as one feature of value 1", () => {
    const withLang = createFeaturizer(DEFAULT_FEATURES);
    const fa = withLang.featurize("سلام");
    const without = f.featurize("سلام");
    expect(fa.indices.length).toBe(without.indices.length + 1);
    expect(norm(fa)).toBeCloseTo(Math.SQRT2, 12);
    expect(Array.from(fa.values)).toContain(1);
  });

  it("gives an empty vector for text without words, and ? and ! as word tokens only", () => {
    expect(createFeaturizer(DEFAULT_FEATURES).featurize("")).toEqual({ indices: new Int32Array(0), values: new Float64Array(0) });
    expect(f.featurize("  ... ,, ").indices.length).toBe(0);
    expect(f.featurize("?!").indices.length).toBe(2);
  });

  it("returns owned copies from featurize and the same features from featurizeShared", () => {
    const a = f.featurize("first text");
    const copy = { indices: a.indices.slice(), values: a.values.slice() };
    const shared = f.featurizeShared("a much longer second text that reuses the buffers");
    expect(a).toEqual(copy);
    expect({ indices: shared.indices.slice(0, shared.length), values: shared.values.slice(0, shared.length) }).toEqual(
      f.featurize("a much longer second text that reuses the buffers"),
    );
  });

  it("grows its buffers for long documents and stays correct", () => {
    // Distinct letter-only words (digits would all hash alike): aaa, aab, …
    const word = (i: number) => [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor(i / d) % 26))).join("");
    const long = Array.from({ length: 3000 }, (_, i) => word(i)).join(" ");
    const v = f.featurize(long);
    expect(v.indices.length).toBeGreaterThan(5000);
    // Not exactly 1: a word and a char n-gram that hash to one bucket add up (rare, harmless).
    expect(Math.abs(norm(v) - 1)).toBeLessThan(0.01);
    expect(f.featurize("short")).toEqual(createFeaturizer(NO_LANG).featurize("short"));
  });

  it("with symbols on, adds one token per emoji, one per run of ?/!, and one for shouting; without, none of them", () => {
    const on = createFeaturizer({ ...DEFAULT_FEATURES, symbols: true });
    const off = createFeaturizer(DEFAULT_FEATURES);
    expect(off.featurize("😡").indices.length).toBe(0);
    expect(on.featurize("😡").indices.length).toBe(1);
    expect(on.featurize("😡😡😡")).toEqual(on.featurize("😡😡😡"));
    expect(on.featurize("😡").indices).not.toEqual(on.featurize("👍").indices);
    // A skin tone modifier is not a token of its own.
    expect(on.featurize("👍🏽").indices).toEqual(on.featurize("👍").indices);
    // "hello??": the word, its n-grams, two "?" tokens and one run token; "hello?" lacks the run.
    expect(on.featurize("hello??").indices.length).toBe(on.featurize("hello?").indices.length + 1);
    expect(off.featurize("hello??").indices).toEqual(off.featurize("hello?").indices);
    expect(on.featurize("WHY WONT YOU ANSWER").indices.length).toBe(on.featurize("why wont you answer").indices.length + 1);
    expect(off.featurize("WHY WONT YOU ANSWER")).toEqual(off.featurize("why wont you answer"));
  });

  it("with terms on, adds the analysed terms as a third family: spelling variants share them, the vector keeps norm 1", () => {
    const on = createFeaturizer({ ...NO_LANG, terms: { maxN: 2 } });
    const unigrams = createFeaturizer({ ...NO_LANG, terms: { maxN: 1 } });
    const off = createFeaturizer(NO_LANG);
    const shared = (a: SparseVector, b: SparseVector) => a.indices.filter((x) => b.indices.includes(x)).length;
    // "cancel policy" stem to two terms and one bigram; unigrams alone add two.
    expect(on.featurize("cancelling policies").indices.length).toBe(off.featurize("cancelling policies").indices.length + 3);
    expect(unigrams.featurize("cancelling policies").indices.length).toBe(off.featurize("cancelling policies").indices.length + 2);
    // Stemming joins what the surface words keep apart.
    expect(shared(on.featurize("cancelling"), on.featurize("cancel"))).toBeGreaterThan(shared(off.featurize("cancelling"), off.featurize("cancel")));
    expect(Math.abs(norm(on.featurize("I want to cancel my policies now")) - 1)).toBeLessThan(1e-9);
    // Stopwords give no term: the family is empty and the others keep their share of the norm.
    expect(on.featurize("the")).toEqual(off.featurize("the"));
  });

  it("rejects configurations it cannot run, naming the field", () => {
    expect(() => createFeaturizer({ ...DEFAULT_FEATURES, hashBits: 30 })).toThrow("features.hashBits: must be an integer in [10, 22], got 30");
    expect(() => createFeaturizer({ ...DEFAULT_FEATURES, char: { minN: 4, maxN: 2 } })).toThrow("features.char: needs integers 1 ≤ minN ≤ maxN ≤ 8, got 4..2");
    expect(() => createFeaturizer({ ...DEFAULT_FEATURES, word: null, char: null })).toThrow("features: needs word or char features (both are null)");
  });
});

describe("featureFingerprint", () => {
  it("is pinned: a change here means src/text or features.ts changed what texts become, and models must be retrained", () => {
    expect(featureFingerprint(DEFAULT_FEATURES)).toBe("deaba7de4efbc782");
  });
  it("is unchanged by the symbols option left off, and differs with it on", () => {
    expect(featureFingerprint({ ...DEFAULT_FEATURES, symbols: false })).toBe("deaba7de4efbc782");
    expect(featureFingerprint({ ...DEFAULT_FEATURES, symbols: true })).not.toBe("deaba7de4efbc782");
  });
  it("differs with analysed terms on", () => {
    expect(featureFingerprint({ ...DEFAULT_FEATURES, terms: { maxN: 2 } })).not.toBe("deaba7de4efbc782");
    expect(featureFingerprint({ ...DEFAULT_FEATURES, terms: { maxN: 1 } })).not.toBe(featureFingerprint({ ...DEFAULT_FEATURES, terms: { maxN: 2 } }));
  });
  it("differs between feature configurations", () => {
    expect(featureFingerprint({ ...DEFAULT_FEATURES, char: { minN: 3, maxN: 5 } })).not.toBe(featureFingerprint(DEFAULT_FEATURES));
    expect(featureFingerprint({ ...DEFAULT_FEATURES, hashBits: 18 })).not.toBe(featureFingerprint(DEFAULT_FEATURES));
  });
});
