import { describe, expect, it } from "vitest";
import { statedIntervals } from "../../src/reading/unit-terms.js";
import { parseInterval, parseQuantities, quantityFits } from "../../src/text/quantities.js";

describe("quantities in questions", () => {
  it.each([
    ["how much is it for a 10 day trip?", [{ kind: "days", value: 10 }]],
    ["my stuff is worth like 150000 dirhams", [{ kind: "money", value: 150_000 }]],
    ["car's worth about 95k", [{ kind: "money", value: 95_000 }]],
    ["a phone I paid AED 4,299 for", [{ kind: "money", value: 4_299 }]],
    ["ارزش بازسازی ۱.۲ میلیون درهمه", [{ kind: "money", value: 1_200_000 }]],
    ["٥٥ سالمه", [{ kind: "age", value: 55 }]],
    ["I am 47 years old", [{ kind: "age", value: 47 }]],
    ["she wants to stay 6 months", [{ kind: "days", value: 180 }]],
    ["for a month", [{ kind: "days", value: 30 }]],
    ["۶ ماه بیاد دبی", [{ kind: "days", value: 180 }]],
    ["what about my wife? shes 29", [{ kind: "age", value: 29 }]],
    // An age in brackets after its person; a number in brackets after anything else is a count.
    [
      "My sister (25) is coming for a month",
      [
        { kind: "age", value: 25 },
        { kind: "days", value: 30 },
      ],
    ],
    ["خواهرم (۲۵) می‌آید", [{ kind: "age", value: 25 }]],
    ["is plan (2) cheaper", [{ kind: "count", value: 2 }]],
    // "a month" after a price is a rate, not a length of time; after "within" it is one.
    ["how much a month for my bunny? she’s 6", [{ kind: "age", value: 6 }]],
    ["within a month of the loss", [{ kind: "days", value: 30 }]],
    // Any insurer's currency is money, by code, word or symbol; a weight in pounds is not.
    ["the bike was 2,000 CAD", [{ kind: "money", value: 2_000 }]],
    ["a ring of ₹45,000", [{ kind: "money", value: 45_000 }]],
    ["دوچرخه‌ام ۱۲۰۰ یورو است", [{ kind: "money", value: 1_200 }]],
    ["my dog weighs 30 pounds", [{ kind: "count", value: 30 }]],
    // People's ages said with "are" when nothing follows the number; a head count is a count.
    ["can my parents get super visa insurance if they are 72?", [{ kind: "age", value: 72 }]],
    ["my parents are 70, can they apply?", [{ kind: "age", value: 70 }]],
    ["we are 4 people travelling", [{ kind: "count", value: 4 }]],
    // A bare number listed right after an age, ending the list, is the next person's age.
    [
      "dad is 63, mum 58.",
      [
        { kind: "age", value: 63 },
        { kind: "age", value: 58 },
      ],
    ],
    [
      "پدرم ۶۳ سالشه و مادرم ۵۸",
      [
        { kind: "age", value: 63 },
        { kind: "age", value: 58 },
      ],
    ],
    [
      "I'm 35 and have 2 kids",
      [
        { kind: "age", value: 35 },
        { kind: "count", value: 2 },
      ],
    ],
    [
      "I'm 22 and 3 claims so far",
      [
        { kind: "age", value: 22 },
        { kind: "count", value: 3 },
      ],
    ],
  ])("%s", (text, expected) => {
    expect(parseQuantities(text)).toEqual(expected);
  });
});

describe("intervals in labels", () => {
  it.each([
    ["8–15 days", { lo: 8, hi: 15, unit: "days" }],
    ["Up to 7 days", { lo: 0, hi: 7, unit: "days" }],
    ["۶۶ تا ۷۵ سال", { lo: 66, hi: 75, unit: "age" }],
    ["AED 1,001–2,000", { lo: 1_001, hi: 2_000, unit: "money" }],
    ["85+", { lo: 85, hi: Infinity, unit: null }],
    ["31–60 روز", { lo: 31, hi: 60, unit: "days" }],
    // The open end after the unit.
    ["60 years and over", { lo: 60, hi: Infinity, unit: "age" }],
    ["۶۰ سال به بالا", { lo: 60, hi: Infinity, unit: "age" }],
    ["60 سال و بالاتر", { lo: 60, hi: Infinity, unit: "age" }],
    // A currency between the bound and the figure; a rate's period is no length of time or age.
    ["more than $2,000", { lo: 2_000, hi: Infinity, unit: "money" }],
    ["up to AED 20,000 a year", { lo: 0, hi: 20_000, unit: "money" }],
    ["11,200,000 rials per month", { lo: 11_200_000, hi: 11_200_000, unit: "money" }],
    ["Up to 3 months", { lo: 0, hi: 90, unit: "days" }],
  ])("%s", (label, expected) => {
    expect(parseInterval(label)).toEqual(expected);
  });

  it("uses the header's unit for a bare range, and a quantity fits only an interval of its kind", () => {
    const band = parseInterval("80,001–150,000", "money")!;
    expect(quantityFits({ kind: "money", value: 95_000 }, band)).toBe(true);
    expect(quantityFits({ kind: "days", value: 95_000 }, band)).toBe(false);
    expect(quantityFits({ kind: "days", value: 10 }, parseInterval("8–15 days")!)).toBe(true);
    expect(quantityFits({ kind: "days", value: 16 }, parseInterval("8–15 days")!)).toBe(false);
  });
});

describe("intervals a passage states", () => {
  it("reads each sentence on its own, never a step's number or a count of hours as the amount the text's currency names", () => {
    const step = "5. Report to a Collision Reporting Centre. If no one is injured but the total damage appears to be more than $2,000, report it within 24 hours.";
    expect(statedIntervals(step)).toEqual([{ lo: 2_000, hi: Infinity, unit: "money" }]);
    expect(statedIntervals("Trips of 8–15 days. Price: AED 95.")).toEqual([
      { lo: 8, hi: 15, unit: "days" },
      { lo: 95, hi: 95, unit: "money" },
    ]);
  });

  it("reads an age or a length beside a percentage by its own words, the percentage being the value", () => {
    expect(statedIntervals("The premium costs 1.2% of the car's value for cars up to 5 years old, 1.5% for cars 6 to 10 years old.")).toEqual([
      { lo: 0, hi: 5, unit: "age" },
      { lo: 6, hi: 10, unit: "age" },
    ]);
    expect(statedIntervals("5% extra for trips up to 10 days")).toEqual([{ lo: 0, hi: 10, unit: "days" }]);
    // No other measure: the percentage's own interval stays.
    expect(statedIntervals("Discounts up to 20%")).toEqual([{ lo: 0, hi: 20, unit: "percent" }]);
  });
});
