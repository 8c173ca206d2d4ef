import { describe, expect, it } from "vitest";
import { speaksOf, statedWith } from "../../src/reading/attributes.js";
import { analyze } from "../../src/text/analysis/index.js";

const terms = (text: string) => new Set(analyze(text));

describe("the words that name an attribute", () => {
  it("read a benefit schedule («جدول تعهدات») as stating limits, as «سقف» does", () => {
    expect(speaksOf(terms("بیمه مسافرتی – جدول تعهدات"), "limit")).toBe(true);
    expect(speaksOf(terms("سقف پوشش"), "limit")).toBe(true);
    expect(speaksOf(terms("بیمه مسافرتی – قیمت‌ها"), "limit")).toBe(false);
  });

  it("give a widened search the words documents state the asked attribute with, in the reply language", () => {
    expect(statedWith(["deadline"], "en")).toBe("deadline within");
    expect(statedWith(["deadline"], "fa")).toBe("مهلت ظرف");
    // An attribute documents state in no words of their own (whether something is covered) adds none.
    expect(statedWith(["covered"], "en")).toBe("");
    expect(statedWith([], "en")).toBe("");
  });
});
