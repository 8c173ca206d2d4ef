import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { CONCEPT_TOKEN_PREFIX, EMPTY_LEXICON, LexiconError, parseConceptLexicon } from "../../src/text/concepts.js";

const tiny = [
  "# a comment",
  "theft\tstolen | steal | theft | thief\tسرقت | دزدی",
  "excess\texcess | deductible\tفرانشیز",
  "sum_insured\tsum insured | insured amount\tسرمایه بیمه",
  "exclusion\tnot covered | exclusion\tاستثنا",
  "coverage\tcover | covered\tپوشش",
  "screen\tscreen\tصفحه",
  "checkup\tscreening | checkup\tچکاپ",
].join("\n");

describe("parseConceptLexicon", () => {
  const lexicon = parseConceptLexicon(tiny, "tiny.tsv");

  it("finds a text's concepts through the analyzer, in both languages, each once in order", () => {
    expect(lexicon.conceptsOf("My phone was stolen; is theft covered?")).toEqual(["theft", "coverage"]);
    expect(lexicon.conceptsOf("گوشیم رو دزدیدن، سرقت پوشش داره؟")).toEqual(["theft", "coverage"]);
    expect(lexicon.conceptsOf("What deductible applies?")).toEqual(["excess"]);
    expect(lexicon.conceptsOf("فرانشیز چقدره")).toEqual(["excess"]);
    expect(lexicon.size).toBe(7);
  });

  it("matches phrases as whole sequences, the longest first", () => {
    expect(lexicon.conceptsOf("What is the sum insured?")).toEqual(["sum_insured"]);
    expect(lexicon.conceptsOf("a sum of money, insured later")).toEqual([]);
  });

  it("reads a Persian possessive ending off a phrase's last word, never off a word alone", () => {
    // «سرمایه بیمه‌ام», my sum insured; «سرمایه بیمه‌مون», ours.
    expect(lexicon.conceptsOf("سرمایه بیمه‌ام چقدره")).toEqual(["sum_insured"]);
    expect(lexicon.conceptsOf("سرمایه بیمه‌مون چقدره")).toEqual(["sum_insured"]);
    expect(lexicon.conceptsOf("سرمایه بیمهم")).toEqual(["sum_insured"]);
    // «فرانشیزم» alone is a word the lexicon does not list: no concept is guessed for it.
    expect(lexicon.conceptsOf("فرانشیزم")).toEqual([]);
  });

  it("never lets a phrase that lost a word to the analyzer claim the word left ('not covered' is not 'cover')", () => {
    expect(lexicon.conceptOfTerm("cover")).toBe("coverage");
    expect(lexicon.conceptsOf("Which items are not covered?")).toEqual(["coverage"]);
  });

  it("gives a stemmed term to the concept that has it as a word of its own ('screen' over 'screening')", () => {
    expect(lexicon.conceptsOf("a cracked screen")).toEqual(["screen"]);
    expect(lexicon.conceptOfTerm("screen")).toBe("screen");
  });

  it("drops a term two concepts claim equally: an ambiguous word joins no meaning", () => {
    const contested = parseConceptLexicon("a\tbank\tبانک\nb\tbank\tساحل");
    expect(contested.conceptsOf("bank transfer")).toEqual([]);
    expect(contested.conceptsOf("بانک")).toEqual(["a"]);
  });

  it("gives the sparse index terms then concept tokens, and nothing more without concepts", () => {
    expect(lexicon.indexTerms("stolen phone")).toEqual(["stolen", "phone", `${CONCEPT_TOKEN_PREFIX}theft`]);
    expect(EMPTY_LEXICON.indexTerms("stolen phone")).toEqual(["stolen", "phone"]);
  });

  it("refuses malformed lines, naming each one", () => {
    let error: unknown;
    try {
      parseConceptLexicon("ok\ta\tب\nBad Id\tx\tی\nnofields\ndup\ta\tب\ndup\tb\tپ", "x.tsv");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LexiconError);
    expect((error as LexiconError).problems).toEqual([
      'x.tsv:2: concept id "Bad Id" is not a lower-case slug',
      "x.tsv:3: expected 3 or 4 tab-separated fields (id, english, persian[, broader ids]), got 1",
      'x.tsv:5: concept "dup" is defined twice',
    ]);
  });

  it("fingerprints the content: the same lexicon the same print, an edit another", () => {
    expect(parseConceptLexicon(tiny).fingerprint).toBe(lexicon.fingerprint);
    expect(parseConceptLexicon(tiny.replace("thief", "robber")).fingerprint).not.toBe(lexicon.fingerprint);
    expect(parseConceptLexicon(`${tiny}\npet\tpet\tحیوان خانگی\ndog\tdog\tسگ`).fingerprint).not.toBe(
      parseConceptLexicon(`${tiny}\npet\tpet\tحیوان خانگی\ndog\tdog\tسگ\tpet`).fingerprint,
    );
  });

  it("knows what a concept is a kind of, one level, from the optional fourth field, and checks the names", () => {
    const pets = parseConceptLexicon("pet\tpet | pets\tحیوان خانگی\ndog\tdog | puppy\tسگ\tpet\nanimal\tanimal\tجانور");
    expect(pets.broaderOf("dog")).toEqual(["pet"]);
    expect(pets.broaderOf("pet")).toEqual([]);
    // The index sees only a text's own concepts.
    expect(pets.indexTerms("my puppy")).toEqual(["puppi", `${CONCEPT_TOKEN_PREFIX}dog`]);
    expect(() => parseConceptLexicon("dog\tdog\tسگ\tpet", "x.tsv")).toThrow('x.tsv:1: broader concept "pet" of "dog" is not another concept of the lexicon');
  });
});

describe("the bundled lexicon (data/lexicon)", () => {
  const lexicon = parseConceptLexicon(readFileSync(path.join(PACKAGE_ROOT, "data/lexicon/insurance-concepts.tsv"), "utf8"));

  it("loads, and bridges the two languages on ordinary insurance words", () => {
    expect(lexicon.size).toBeGreaterThan(300);
    const pairs: Array<[string, string]> = [
      ["stolen", "سرقت"],
      ["deductible", "فرانشیز"],
      ["windscreen", "شیشه جلو"],
      ["children", "فرزندان"],
      ["annual", "سالانه"],
    ];
    for (const [en, fa] of pairs) {
      const english = lexicon.conceptsOf(en);
      expect(english.length, en).toBeGreaterThan(0);
      expect(lexicon.conceptsOf(fa), fa).toEqual(expect.arrayContaining([english[0]]));
    }
  });

  it("keeps tier names apart: Basic, Standard and Essential are not one concept", () => {
    const tiers = ["basic", "standard", "essential"].map((t) => lexicon.conceptsOf(t)[0]);
    expect(new Set(tiers.filter((t) => t !== undefined)).size).toBe(tiers.filter((t) => t !== undefined).length);
  });
});
