import { describe, expect, it } from "vitest";
import { keyedWords, scriptKey } from "../../src/text/transliterate.js";

describe("the script-neutral key of a name", () => {
  it("gives a name and its transliteration one key", () => {
    const pairs: Array<[string, string]> = [
      ["GadgetGuard", "گجت‌گارد"],
      ["Platinum", "پلاتینیوم"],
      ["Comprehensive", "کامپرهنسیو"],
      ["Standard", "استاندارد"],
      ["Schengen", "شنگن"],
      ["Ashiyaneh", "آشیانه"],
      // A silent "gh" before t, and Persian «ته» for a Latin "th".
      ["Lighthouse", "لایت‌هاوس"],
      ["Nightingale", "نایتینگل"],
      // Elsewhere "gh" is Persian «ق» or «غ».
      ["Moghadam", "مقدم"],
      ["Baghdad", "بغداد"],
    ];
    for (const [latin, persian] of pairs) expect(scriptKey(latin), `${latin} / ${persian}`).toBe(scriptKey(persian));
  });

  it("keeps different names apart", () => {
    expect(scriptKey("gold")).not.toBe(scriptKey("silver"));
    expect(scriptKey("پلاتینیوم")).not.toBe(scriptKey("platinum plus"));
    expect(scriptKey("1234")).toBe("");
  });

  it("keys neighbouring words written together, so a name written in two words meets the one-word spelling", () => {
    const keys = keyedWords("قیمت گجت گارد").map((k) => k.key);
    expect(keys).toContain(scriptKey("gadgetguard"));
    // Short keys tie nothing together.
    expect(keyedWords("tv").length).toBe(0);
  });
});
