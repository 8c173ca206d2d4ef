import { describe, expect, it } from "vitest";
import { analyze, analyzeWord, EN_STOPWORDS, FA_STOPWORDS, words } from "../../src/text/analysis/index.js";

describe("analyze: English contractions", () => {
  it("reads a contraction as its word: a pronoun's is a stopword, a noun's keeps the noun", () => {
    expect(analyze("they're we're she's I'd")).toEqual([]);
    expect(analyze("the car's windscreen")).toEqual(analyze("car windscreen"));
  });
});

describe("analyze: Persian", () => {
  it("maps Arabic yeh and kaf to their Persian forms", () => {
    // "بيمه" with Arabic yeh U+064A, "كارت" with Arabic kaf U+0643.
    expect(analyze("\u0628\u064A\u0645\u0647 \u0643\u0627\u0631\u062A")).toEqual(["\u0628\u06CC\u0645\u0647", "\u06A9\u0627\u0631\u062A"]);
    expect(analyze("بيمه")).toEqual(analyze("بیمه"));
  });

  it("strips diacritics, kashida and the written ezafe", () => {
    expect(analyze("بِیمَه")).toEqual(["بیمه"]);
    expect(analyze("بیـــمه")).toEqual(["بیمه"]);
    expect(analyze("خانهٔ")).toEqual(["خانه"]);
  });

  it("splits at ZWNJ so plural and verb affixes drop, and matches the ZWNJ-less spelling", () => {
    expect(words("بیمه‌نامه‌ها")).toEqual(["بیمه", "نامه", "ها"]);
    expect(analyze("خسارت‌ها")).toEqual(["خسارت"]);
    expect(analyze("خسارتها")).toEqual(["خسارت"]);
    expect(analyze("می‌پردازد")).toEqual(["پردازد"]);
    expect(analyze("میپردازد")).toEqual(["پردازد"]);
  });

  it("adds the joined term of a ZWNJ compound, so the ZWNJ-less spelling and stopword parts still match", () => {
    expect(analyze("بیمه‌نامه‌ها")).toEqual(["بیمه", "نامه", "بیمهنامه"]);
    expect(analyze("بیمهنامه")).toEqual(["بیمهنامه"]);
    // "پس" (after) is a stopword, but پس‌لرزه (aftershock) is not "لرزه" (tremor).
    expect(analyze("پس‌لرزه‌ها")).toEqual(["لرزه", "پسلرزه"]);
    expect(analyze("پسلرزه")).toEqual(["پسلرزه"]);
  });

  it("drops an auxiliary written with its continuous prefix and no ZWNJ (میتوان, نمیشود), whatever its ending", () => {
    expect(analyze("آیا میتوان قسطی پرداخت کرد")).toEqual(analyze("قسطی پرداخت"));
    expect(analyze("نمیشود")).toEqual([]);
    // A colloquial possessive after a ZWNJ (اثاثیه‌مون, our furniture) is a clitic, like مان.
    expect(analyze("اثاثیه‌مون")).toContain("اثاثیه");
    expect(analyze("اثاثیه‌مون")).not.toContain("مون");
    // A noun that merely starts with می keeps its form.
    expect(analyze("میزان")).toEqual(["میزان"]);
  });

  it("strips the adjectival ی from longer words only, and drops modal verbs", () => {
    expect(analyze("اقساطی درمانی")).toEqual(["اقساط", "درمان"]);
    expect(analyze("قسطی کشتی مالی")).toEqual(["قسطی", "کشتی", "مالی"]);
    expect(analyze("می‌توانم میتوانم خواهد")).toEqual([]);
  });

  it("keeps nouns that merely start with می", () => {
    expect(analyze("میزان میلیون")).toEqual(["میزان", "میلیون"]);
  });

  it("unifies Persian and Arabic-Indic digits and drops thousands separators", () => {
    expect(analyze("۲٬۰۰۰٬۰۰۰ ریال")).toEqual(["2000000", "ریال"]);
    expect(analyze("\u0661\u0665 روز")).toEqual(["15", "روز"]);
    expect(analyze("2,000,000")).toEqual(["2000000"]);
  });

  it("drops Persian stopwords", () => {
    expect(FA_STOPWORDS.has("از")).toBe(true);
    expect(analyze("هزینه این بیمه برای من چقدر است؟")).toEqual(["هزینه", "بیمه"]);
    // Colloquial function words and light-verb forms carry nothing a document could match.
    expect(analyze("بابت خسارت آتش‌سوزی اگه بیمه بگیرم، دیگه نه؟")).toEqual(analyze("خسارت آتش‌سوزی بیمه"));
  });
});

describe("analyze: English", () => {
  it("stems and drops stopwords", () => {
    expect(EN_STOPWORDS.has("the")).toBe(true);
    expect(analyze("What are the deductibles for claims?")).toEqual(["deduct", "claim"]);
    expect(analyze("covered covers")).toEqual(["cover", "cover"]);
  });

  it("reads a hyphenated compound as its parts, and joined when a part is no word of its own", () => {
    // "up" is a stopword and "e" too short: the joined term is what matches "pickup", "email".
    expect(analyze("Pick-up / light van")).toEqual(["pick", "pickup", "light", "van"]);
    expect(analyze("pickup")).toEqual(["pickup"]);
    expect(analyze("e‑mail")).toEqual(["mail", "email"]);
    // Both parts are words: they carry it, and a joined term would weigh it twice against "third party".
    expect(analyze("third-party cover")).toEqual(analyze("third party cover"));
    // A hyphen before a number or between spaces joins nothing.
    expect(analyze("COVID-19")).toEqual(["covid", "19"]);
    expect(words("well - then")).toEqual(["well", "then"]);
    expect(words("Pick-up")).toEqual(["pick", "up"]);
  });

  it("keeps contractions whole whatever the apostrophe", () => {
    expect(words("Don’t")).toEqual(["don't"]);
    expect(analyze("Don’t claim")).toEqual(["claim"]);
  });
});

describe("analyze: mixed script", () => {
  it("analyses each word by its own script", () => {
    expect(analyze("بیمه‌های iPhone claims ۱۰٪")).toEqual(["بیمه", "iphon", "claim", "10"]);
  });

  it("analyzeWord agrees with analyze", () => {
    expect(analyzeWord("claims")).toBe("claim");
    expect(analyzeWord("the")).toBeNull();
    expect(analyzeWord("خسارتها")).toBe("خسارت");
  });
});
