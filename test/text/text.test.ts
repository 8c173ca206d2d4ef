import { describe, expect, it } from "vitest";
import { asksSomething, detectLanguage, extractNumbers, foldForMatch, normalizeText, questionOf, splitSentences, toAsciiDigits } from "../../src/text/index.js";
import { periodDays } from "../../src/text/numbers.js";

describe("normalizeText", () => {
  it("maps Arabic yeh and kaf to their Persian forms", () => {
    expect(normalizeText("بيمه تكميلي")).toBe("بیمه تکمیلی");
  });
  it("strips diacritics and kashida", () => {
    expect(normalizeText("بـیـمـه‌نامهٔ")).toBe("بیمه‌نامه");
    expect(normalizeText("مُدیریَت")).toBe("مدیریت");
  });
  it("collapses repeated ZWNJ and drops ZWNJ at word edges", () => {
    expect(normalizeText("می\u200C\u200Cشود \u200Cها")).toBe("می\u200Cشود ها");
  });
  it("unifies Persian and Arabic-Indic digits and separators", () => {
    expect(toAsciiDigits("۱۲۳ ٤٥٦")).toBe("123 456");
    expect(normalizeText("۲٬۰۰۰٬۰۰۰ ریال ٪۱۰")).toBe("2,000,000 ریال %10");
  });
  it("folds case and ZWNJ for matching", () => {
    expect(foldForMatch("Hello  بیمه‌نامه")).toBe("hello بیمه نامه");
  });
});

describe("detectLanguage", () => {
  it("detects Persian and English by script", () => {
    expect(detectLanguage("بیمه بدنه چقدر است؟").language).toBe("fa");
    expect(detectLanguage("How much is body insurance?").language).toBe("en");
  });
  it("picks the majority script in mixed text", () => {
    expect(detectLanguage("قیمت بیمه iPhone چقدر است").language).toBe("fa");
    expect(detectLanguage("Is بیمه the word for insurance in Persian?").language).toBe("en");
  });
  it("falls back to the hint, then the fallback, without letters", () => {
    expect(detectLanguage("2", "fa-IR")).toEqual({ language: "fa", confidence: 0 });
    expect(detectLanguage("?", undefined, "en")).toEqual({ language: "en", confidence: 0 });
    expect(detectLanguage("42", "de", "fa").language).toBe("fa");
  });
});

describe("extractNumbers", () => {
  it("gives the same canonical form in every script and separator style", () => {
    expect(extractNumbers("2,000,000 rials")).toEqual(["2000000"]);
    expect(extractNumbers("۲٬۰۰۰٬۰۰۰ ریال")).toEqual(["2000000"]);
    expect(extractNumbers("2000000")).toEqual(["2000000"]);
  });
  it("keeps decimals, percentages and dates", () => {
    expect(extractNumbers("1.5% of 10 and 1403/05/01")).toEqual(["1.5", "10", "1403/5/1"]);
  });
  it("finds nothing in text without digits", () => {
    expect(extractNumbers("ten percent")).toEqual([]);
  });
});

describe("splitSentences", () => {
  it("splits on Latin and Persian punctuation but not inside decimals", () => {
    expect(splitSentences("The rate is 1.5 percent. It applies yearly! Is it? Yes")).toEqual(["The rate is 1.5 percent.", "It applies yearly!", "Is it?", "Yes"]);
    expect(splitSentences("فرانشیز ۱۰ درصد است. پوشش کامل است؟ بله")).toEqual(["فرانشیز ۱۰ درصد است.", "پوشش کامل است؟", "بله"]);
  });
  it("treats list items and lines as sentences and drops markers", () => {
    expect(splitSentences("## Price\n- First item\n2. Second item")).toEqual(["Price", "First item", "Second item"]);
  });
});

describe("questionOf", () => {
  it("keeps the question sentences of a message that mixes statements and questions", () => {
    expect(questionOf("I drive a Peugeot 206. What is the deductible?")).toBe("What is the deductible?");
    expect(questionOf("ماشینم پژو ۲۰۶ است. فرانشیز چقدر است؟")).toBe("فرانشیز چقدر است؟");
  });
  it("leaves a message that is all question, or has no question, as it is", () => {
    expect(questionOf("What is the deductible? And the premium?")).toBe("What is the deductible? And the premium?");
    expect(questionOf("Tell me about travel insurance.")).toBe("Tell me about travel insurance.");
  });
  it('leaves out a greeting and an opening such as "quick one -", never the whole message', () => {
    expect(questionOf("good morning! quick one - whats the roadside assistance number")).toBe("whats the roadside assistance number");
    expect(questionOf("سلام. وقت بخیر. فرانشیز بدنه چقدره؟")).toBe("فرانشیز بدنه چقدره؟");
    expect(questionOf("Hello there!")).toBe("Hello there!");
  });
});

describe("periodDays", () => {
  it("states weeks and months as days, in both languages and digit systems; days alone are not a period", () => {
    expect(periodDays("how much for 3 weeks?")).toEqual([21]);
    expect(periodDays("سفر ۲ ماهه، ۱ هفته هم شاید")).toEqual([60, 7]);
    expect(periodDays("a 10-day trip")).toEqual([]);
  });
});

describe("asksSomething", () => {
  it("reads questions and requests in either language as asking", () => {
    for (const text of [
      "Is dental covered",
      "how much for 10 days",
      "Tell me the excess on Gold",
      "I'm wondering whether floods are covered",
      "قیمتش چنده",
      "لطفا فرانشیز رو بگید",
      "بیمه بدنه سیل را پوشش می‌دهد؟",
    ]) {
      expect(asksSomething(text), text).toBe(true);
    }
  });

  it("reads a message that only states its case as asking nothing", () => {
    for (const text of [
      "I'm only renting, it's my sofa and rugs that got soaked",
      "it's for my aunt who's visiting, we'd buy it after she lands",
      "اقامت داره و با ما زندگی می‌کنه. طرح پلاس رو می‌خوایم",
    ]) {
      expect(asksSomething(text), text).toBe(false);
    }
  });
});
