import { describe, expect, it } from "vitest";
import { deniedTerms, labelDenial } from "../../src/reading/negation.js";
import { analyze } from "../../src/text/analysis/index.js";

const terms = (text: string) => new Set(analyze(text));

describe("what a customer says is not so", () => {
  it("takes the words after an English negation, within its clause", () => {
    expect(deniedTerms("I'm 32 and I don't smoke. How much is it?")).toEqual(terms("smoke"));
    // Three words reach: "in five" are denied too, the years are not.
    expect(deniedTerms("no claims in five years")).toEqual(terms("claims in five"));
    expect(deniedTerms("How much is a non-smoker rate?")).toEqual(terms("smoker rate"));
    expect(deniedTerms("How much is the smoker rate?").size).toBe(0);
  });

  it("takes the words before a Persian negated verb, after «بدون»/«هیچ», and the rest of a word «غیر» is written into", () => {
    expect(deniedTerms("من ۳۲ سالمه و سیگار نمی‌کشم. حق بیمه چنده؟")).toEqual(terms("سیگار"));
    expect(deniedTerms("سیگاری نیستم")).toEqual(terms("سیگاری"));
    expect(deniedTerms("بدون سابقه تصادف")).toEqual(terms("سابقه تصادف"));
    expect(deniedTerms("نرخ غیرسیگاری")).toEqual(terms("سیگاری"));
    // Numbers are quantities, not what is denied.
    expect(deniedTerms("هیچ ۲ خسارتی").has("2")).toBe(false);
  });
});

describe("a label that denies something", () => {
  it("knows its cue, as a word or written into another", () => {
    expect(labelDenial("Term 10 non-smoker")?.cues).toEqual(new Set(["non"]));
    expect(labelDenial("بدون خسارت")?.cues.size).toBe(1);
    expect([...(labelDenial("غیرسیگاری")?.prefixed.values() ?? [])]).toEqual(analyze("سیگاری"));
    expect(labelDenial("Term 10 smoker")).toBeNull();
    expect(labelDenial("1 claim")).toBeNull();
  });
});
