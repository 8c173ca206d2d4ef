import { describe, expect, it } from "vitest";
import { filterSensitive, forgetFacts, forgetRequest, isSensitive, mergeProfile } from "../../src/agent/memory-filter.js";
import { arabicIndic, fa, VALUES } from "../support/pii.js";

describe("memory filter", () => {
  it.each([
    "national id 0012345678",
    "card 6037 9911 2233 4455",
    "IBAN IR820540102680020817909002",
    "شماره کارت ۶۰۳۷۹۹۱۱۲۲۳۳۴۴۵۵",
    "me@example.com",
    "I have diabetes",
    "بیماری قلبی دارم",
  ])("treats %s as sensitive", (value) => {
    expect(isSensitive(value)).toBe(true);
  });

  it("drops every kind the redaction detector finds, in any digit system and spelling", () => {
    const values = [
      `wife's national code ${fa("085-123456-9")}`,
      "mobile +98 935 111 2233",
      `کارت ${arabicIndic(VALUES.card2)}`,
      `Sheba ${VALUES.iban.toLowerCase()}`,
      `email ${VALUES.email}`,
    ];
    for (const value of values) expect(isSensitive(value), value).toBe(true);
    expect(filterSensitive({ family: values[0]!, vehicle: "Pride", productsHeld: values.slice(1) })).toEqual({ vehicle: "Pride" });
  });

  it.each(["2019 Peugeot 206", "married, two children", "apartment in Tehran", "پژو ۲۰۶ مدل ۱۳۹۸"])("keeps %s", (value) => {
    expect(isSensitive(value)).toBe(false);
  });

  it("drops sensitive values field by field", () => {
    expect(filterSensitive({ vehicle: "Pride, plate 12345678", family: "married", productsHeld: ["travel", "card 6037991122334455"], preferredLanguage: "fa" })).toEqual({
      family: "married",
      productsHeld: ["travel"],
      preferredLanguage: "fa",
    });
  });

  it("merges new facts over the profile and accumulates products", () => {
    expect(mergeProfile({ vehicle: "Pride", productsHeld: ["travel"] }, { vehicle: "Samand", productsHeld: ["motor-body", "travel"] })).toEqual({
      vehicle: "Samand",
      productsHeld: ["travel", "motor-body"],
    });
  });

  it.each([
    ["Please forget that I drive a Peugeot 206", ["vehicle"]],
    ["Don't remember anything about my wife and kids", ["family"]],
    ["Forget what I told you", "all"],
    ["forget everything", "all"],
    ["فراموش کن که ماشینم پژو است", ["vehicle"]],
    ["اطلاعات خانواده‌ام را پاک کن", ["family"]],
    ["لطفا همه چیز را فراموش کن", "all"],
  ] as const)("reads %s as a request to forget %j", (text, keys) => {
    expect(forgetRequest(text)).toEqual(keys);
  });

  it.each(["What is the deductible for my car?", "I forgot my policy number", "Can you remember my renewal date next time?", "ماشینم تصادف کرده"])(
    "does not read %s as a forget request",
    (text) => {
      expect(forgetRequest(text)).toBeNull();
    },
  );

  it("forgets the named facts, or all of them", () => {
    const profile = { vehicle: "Pride", family: "married", preferredLanguage: "fa" as const };
    expect(forgetFacts(profile, ["vehicle"])).toEqual({ family: "married", preferredLanguage: "fa" });
    expect(forgetFacts(profile, "all")).toEqual({});
  });
});
