import { describe, expect, it } from "vitest";
import { crossScriptAliases } from "../../src/domain/taxonomy.js";
import { glossesOf } from "../../src/retrieval/glosses.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { analyze } from "../../src/text/analysis/index.js";

const t = (word: string) => analyze(word)[0]!;

describe("names a document glosses in the other script", () => {
  it("pairs the words of a gloss by sound, and the one left on each side", () => {
    const glosses = glossesOf(["دو طرح در دسترس است: کیل کامل (Keel Complete) – سقف‌های بالاتر."]);
    expect(glosses.get(t("keel"))).toEqual([t("کیل")]);
    expect(glosses.get(t("complete"))).toEqual([t("کامل")]);
    expect(glosses.get(t("کامل"))).toEqual([t("complete")]);
  });

  it("ties one name written as two words in the other script", () => {
    const glosses = glossesOf(["بیمه مسافران ولکام هاربر (WelcomeHarbour) برای والدین."]);
    expect(glosses.get(t("welcomeharbour"))).toEqual([t("هاربر"), t("ولکام")].sort());
  });

  it("does not tie an acronym, a common word, or a gloss of the same script", () => {
    const pages = [
      "فرم حوادث (OCF-1) را ظرف ۳۰ روز بفرستید. حق بیمه (premium) ماهانه است.",
      "بیمه خودرو. حق بیمه سالانه.",
      "بیمه خانه و حق بیمه.",
      "Send the claim form (proof of loss) within 90 days.",
    ];
    const glosses = glossesOf(pages);
    expect(glosses.has(t("ocf"))).toBe(false);
    expect(glosses.has(t("premium"))).toBe(false);
    expect(glosses.has(t("proof"))).toBe(false);
  });

  it("lets a question in one script find the other's spelling", () => {
    const taxonomy = buildTaxonomy([
      { id: "keel-fa", title: "بیمه کاندو کیل", product: "keel", domain: "home", lang: "fa", text: "طرح کیل کامل (Keel Complete) سقف بالاتری دارد." },
      { id: "road-en", title: "Road Auto", product: "road", domain: "auto", lang: "en", text: "Road covers your car." },
    ]);
    expect(crossScriptAliases(taxonomy, "How much is Keel Complete?").get(t("complete"))).toContain(t("کامل"));
  });
});
