import { describe, expect, it } from "vitest";
import { fmix32, fnv1a32 } from "../../../src/retrieval/embedding/hash.js";
import { createLocalEmbedder, embedLocal } from "../../../src/retrieval/embedding/local.js";

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (a: Float32Array): number => Math.sqrt(dot(a, a));

describe("hashes", () => {
  it("are the standard FNV-1a 32-bit over UTF-8 and MurmurHash3 fmix32", () => {
    // Published FNV-1a test vectors.
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
    // Persian hashes over UTF-8 bytes: U+06CC "ی" is DB 8C.
    expect(fnv1a32("\u06CC")).toBe(Math.imul(Math.imul(0x811c9dc5 ^ 0xdb, 0x01000193) ^ 0x8c, 0x01000193) >>> 0);
    expect(fmix32(0)).toBe(0);
    expect(fmix32(1)).toBe(0x514e28b7);
  });
});

describe("createLocalEmbedder", () => {
  const embedder = createLocalEmbedder();

  it("has a dimension, a versioned id, and returns one unit vector per text", async () => {
    expect(embedder.dimension).toBe(384);
    expect(embedder.id).toBe("local-hash-v1:d384:g3-5:w0.5");
    const vectors = await embedder.embed(["motor deductible", "بیمه شخص ثالث"]);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(384);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(createLocalEmbedder({ dimension: 64 }).dimension).toBe(64);
    expect((await createLocalEmbedder({ dimension: 64 }).embed(["x y z"]))[0]?.length).toBe(64);
  });

  it("is a pure function of the text", async () => {
    const [a] = await embedder.embed(["Windshield repair is covered once a year."]);
    const [b] = await createLocalEmbedder().embed(["Windshield repair is covered once a year."]);
    expect(Array.from(b ?? [])).toEqual(Array.from(a ?? []));
    // Pinned: the term "deduct" alone goes to bucket fnv1a32("t:deduct") % 384; changing the
    // hash or the feature naming must be a deliberate, versioned change of `id`.
    const vector = embedLocal("deductible", { ngramWeight: 0 });
    const bucket = fnv1a32("t:deduct") % 384;
    expect(Math.abs(vector[bucket] ?? 0)).toBeCloseTo(1, 6);
    expect(vector[bucket]).toBe(fmix32(fnv1a32("t:deduct")) >>> 31 === 0 ? 1 : -1);
  });

  it("gives the zero vector for text without terms", () => {
    expect(norm(embedLocal("the and of ?"))).toBe(0);
  });

  it("rejects when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(embedder.embed(["x"], controller.signal)).rejects.toThrow("stop");
  });

  it("puts a Persian query written with Arabic letters and without ZWNJ closest to its chunk", () => {
    const chunks = {
      motor: "بیمه‌نامه شخص ثالث خودرو: خسارت بدنی تا سقف تعیین‌شده پرداخت می‌شود.",
      health: "بیمه تکمیلی درمان هزینه بستری و جراحی در بیمارستان را پرداخت می‌کند.",
      travel: "بیمه مسافرتی هزینه‌های درمان اضطراری در خارج از کشور را پوشش می‌دهد.",
    };
    // Arabic yeh (ي) and kaf (ك), no ZWNJ in بیمهنامه, diacritics.
    const query = "بيمهنامه شَخص ثالث خودرو";
    const q = embedLocal(query);
    const scores = Object.fromEntries(Object.entries(chunks).map(([name, text]) => [name, dot(q, embedLocal(text))]));
    expect(scores.motor).toBeGreaterThan(Math.max(scores.health ?? 1, scores.travel ?? 1));
    // The compound term matches the ZWNJ-less spelling; the character n-grams carry spelling
    // variants that share no term at all (خسارات, the Arabic plural of خسارت).
    const termsOnly = (text: string) => embedLocal(text, { ngramWeight: 0 });
    expect(dot(termsOnly("بیمهنامه"), termsOnly("بیمه‌نامه"))).toBeGreaterThan(0.5);
    expect(dot(termsOnly("خسارات"), termsOnly("خسارت"))).toBe(0);
    expect(dot(embedLocal("خسارات"), embedLocal("خسارت"))).toBeGreaterThan(0.05);
  });

  it("tolerates an English typo through character n-grams", () => {
    const q = embedLocal("windsheild");
    expect(dot(q, embedLocal("Windshield repair"))).toBeGreaterThan(0.05);
    expect(Math.abs(dot(q, embedLocal("Hospital stay")))).toBeLessThan(0.03);
  });
});
