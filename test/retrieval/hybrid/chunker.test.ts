import { describe, expect, it } from "vitest";
import { createChunker, searchableText } from "../../../src/retrieval/hybrid/chunker.js";
import type { SourceDocument } from "../../../src/retrieval/index.js";

const doc = (body: string, overrides: Partial<SourceDocument> = {}): SourceDocument => ({
  id: "motor-en",
  title: "Motor Insurance",
  product: "motor-tp",
  domain: "motor",
  lang: "en",
  tenantId: "acme",
  body,
  ...overrides,
});

const body = [
  "# Motor Insurance",
  "",
  "Intro line one.",
  "",
  "## Coverage",
  "",
  "Covers other people.",
  "",
  "### Glass",
  "",
  "Windshields are covered once a year.",
  "",
  "## Empty",
  "",
  "## Claims",
  "",
  "```",
  "## not a heading",
  "```",
  "#### Small heading stays text",
].join("\n");

describe("createChunker", () => {
  it("splits at headings, carries heading paths, puts the title and intro in chunk 0, drops empty sections", () => {
    const chunks = createChunker().chunk(doc(body));
    expect(chunks.map((c) => [c.chunkId, c.chunkIndex, c.section, c.text])).toEqual([
      ["motor-en#0", 0, "", "Motor Insurance\n\nIntro line one."],
      ["motor-en#1", 1, "Coverage", "Covers other people."],
      ["motor-en#2", 2, "Coverage > Glass", "Windshields are covered once a year."],
      ["motor-en#3", 3, "Claims", "```\n## not a heading\n```\n#### Small heading stays text"],
    ]);
    expect(chunks.every((c) => c.documentId === "motor-en" && c.tenantId === "acme" && c.domain === "motor" && c.lang === "en")).toBe(true);
  });

  it("without an intro, the title opens the first section's chunk", () => {
    const chunks = createChunker().chunk(doc("## Deductible\n\nFive percent."));
    expect(chunks.map((c) => [c.section, c.text])).toEqual([["Deductible", "Motor Insurance\n\nFive percent."]]);
  });

  it("packs paragraphs, then sentences, within maxChars, with last-sentence overlap inside a section", () => {
    const s = (n: number): string => `Sentence number ${n} is here.`; // 26 characters
    const paragraphs = [`${s(1)} ${s(2)}`, `${s(3)} ${s(4)} ${s(5)} ${s(6)}`, s(7)];
    const chunks = createChunker({ maxChars: 80, overlapChars: 40 }).chunk(doc(`## Long\n\n${paragraphs.join("\n\n")}`, { title: "T" }));
    expect(chunks.map((c) => c.text)).toEqual([
      `T\n\n${s(1)} ${s(2)}`,
      // Paragraph 2 (107 chars) is too long: it is split into sentences, packed greedily; each
      // new piece starts with the previous piece's last sentence.
      `${s(2)}\n\n${s(3)}`,
      `${s(3)} ${s(4)} ${s(5)}`, // exactly 80
      `${s(5)} ${s(6)}`,
      `${s(6)}\n\n${s(7)}`,
    ]);
    expect(chunks.every((c) => c.section === "Long" && c.text.length <= 80)).toBe(true);
  });

  it("skips the overlap when it is longer than overlapChars, and never overlaps across sections", () => {
    const long = "This sentence is deliberately longer than the allowed overlap."; // 62 characters
    const chunks = createChunker({ maxChars: 80, overlapChars: 40 }).chunk(doc(`## A\n\n${long}\n\n${long}\n\n## B\n\nShort.`, { title: "T" }));
    expect(chunks.map((c) => c.text)).toEqual([`T\n\n${long}`, long, "Short."]);
  });

  it("hard-splits a single overlong sentence at word boundaries", () => {
    const sentence = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" "); // 199 characters, no full stop
    const chunks = createChunker({ maxChars: 60, overlapChars: 0 }).chunk(doc(`## S\n\n${sentence}`, { title: "T" }));
    expect(chunks.map((c) => c.text)).toEqual([
      "T\n\nword0 word1 word2 word3 word4 word5 word6 word7 word8",
      "word9 word10 word11 word12 word13 word14 word15 word16",
      "word17 word18 word19 word20 word21 word22 word23 word24",
      "word25 word26 word27 word28 word29",
    ]);
    // A word longer than maxChars is cut, not kept whole. The first section's pieces leave
    // room for the "T\n\n" prefix (40 - 3 = 37).
    const giant = createChunker({ maxChars: 40, overlapChars: 0 }).chunk(doc(`## S\n\n${"x".repeat(100)}`, { title: "T" }));
    expect(giant.map((c) => c.text)).toEqual([`T\n\n${"x".repeat(37)}`, "x".repeat(37), "x".repeat(26)]);
  });

  it("never exceeds maxChars on Persian text and gives the same ids on every run", () => {
    const sentence = "خسارت بدنی تا سقف تعیین‌شده در بیمه‌نامه پرداخت می‌شود.";
    const section = Array.from({ length: 30 }, () => sentence).join(" ");
    const document = doc(`مقدمه.\n\n## پوشش\n\n${section}\n\n## فرانشیز\n\nندارد.`, { lang: "fa", title: "بیمه شخص ثالث" });
    const chunker = createChunker();
    const first = chunker.chunk(document);
    expect(first.length).toBeGreaterThan(3);
    expect(Math.max(...first.map((c) => c.text.length))).toBeLessThanOrEqual(700);
    expect(first.map((c) => c.chunkId)).toEqual(first.map((_, i) => `motor-en#${i}`));
    expect(first.at(-1)?.section).toBe("فرانشیز");
    expect(chunker.chunk(document)).toEqual(first);
  });

  it("rejects options that cannot work", () => {
    expect(() => createChunker({ maxChars: 10 })).toThrow(RangeError);
    expect(() => createChunker({ maxChars: 100, overlapChars: 60 })).toThrow(RangeError);
  });
});

describe("searchableText", () => {
  it("prefixes title and section, without repeating the title of chunk 0", () => {
    const [intro, section] = createChunker().chunk(doc("Intro.\n\n## Deductible\n\nFive percent."));
    expect(intro && searchableText(intro)).toBe("Motor Insurance\n\nIntro.");
    expect(section && searchableText(section)).toBe("Motor Insurance\nDeductible\nFive percent.");
  });
});
