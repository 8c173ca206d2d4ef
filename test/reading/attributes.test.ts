import { describe, expect, it } from "vitest";
import { formFits, formSpeaksOf, speaksOf, statedWith } from "../../src/reading/attributes.js";
import { analyze } from "../../src/text/analysis/index.js";
import { analyzeQuestion } from "../../src/reading/question.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseConceptLexicon } from "../../src/text/concepts.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const terms = (text: string) => new Set(analyze(text));

describe("the words that name an attribute", () => {
  it("read a benefit schedule («جدول تعهدات») as stating limits, as «سقف» does", () => {
    expect(speaksOf(terms("بیمه مسافرتی – جدول تعهدات"), "limit")).toBe(true);
    expect(speaksOf(terms("سقف پوشش"), "limit")).toBe(true);
    expect(speaksOf(terms("بیمه مسافرتی – قیمت‌ها"), "limit")).toBe(false);
  });

  it("hear 'how much does <the product> pay' as asking its limit, 'how much do I pay' as asking a price", () => {
    expect(analyzeQuestion("how much does Nest standard pay towards a hotel?", "en").asked).toContain("limit");
    expect(analyzeQuestion("how much do I pay for Nest?", "en").asked).not.toContain("limit");
    expect(analyzeQuestion("how much does my wife pay?", "en").asked).not.toContain("limit");
  });

  it("read a comparative of age ('no older than 24 months', 'younger than 18') as speaking of an age, and as the lexicon's age", () => {
    expect(speaksOf(terms("A laptop can be insured only if the laptop is no older than 24 months."), "age")).toBe(true);
    expect(speaksOf(terms("Children younger than 18 travel free."), "age")).toBe(true);
    expect(speaksOf(terms("A laptop can be insured for 24 months."), "age")).toBe(false);
    const lexicon = parseConceptLexicon(readFileSync(path.join(PACKAGE_ROOT, "data/lexicon/insurance-concepts.tsv"), "utf8"));
    expect(lexicon.conceptsOf("no older than 24 months")).toContain("age");
    expect(lexicon.conceptsOf("how old can it be")).toContain("age");
    // "how long until you answer?" is asked of a passage saying when the insurer decides.
    expect(lexicon.conceptsOf("چقدر طول میکشه تا جواب بدید")).toContain("claim_decision");
    expect(lexicon.conceptsOf("ظرف ۳۰ روز تصمیم می‌گیریم")).toContain("claim_decision");
  });

  it("hear 'how many claims', «چند بار» as asking a limit (a count), 'how many days' as asking a length", () => {
    expect(analyzeQuestion("How many claims can I make per year on device insurance?", "en").asked[0]).toBe("limit");
    expect(analyzeQuestion("how many physio sessions are covered?", "en").asked).toContain("limit");
    expect(analyzeQuestion("چند بار در سال می‌توانم خسارت بگیرم؟", "fa").asked).toContain("limit");
    expect(analyzeQuestion("How many days can I travel?", "en").asked).toEqual(["duration"]);
  });

  it("hear «چقدر می‌پردازد» (how much does it pay) as asking a limit, «چقدر باید بپردازم» (how much do I pay) as a price", () => {
    expect(analyzeQuestion("اگر چمدانم در سفر گم شود بیمه مسافرتی چقدر می‌پردازد؟", "fa").asked[0]).toBe("limit");
    expect(analyzeQuestion("بیمه بدنه چقدر میپردازد؟", "fa").asked[0]).toBe("limit");
    expect(analyzeQuestion("چقدر باید بپردازم؟", "fa").asked).toEqual(["price"]);
  });

  it("read a payout stated as a multiple of another sum as a limit's form", () => {
    expect(formSpeaksOf("غرامت مضاعف می‌پردازند، یعنی ۲ برابر سرمایه فوت.", "limit")).toBe(true);
    expect(formSpeaksOf("Accidental death pays twice the death benefit.", "limit")).toBe(true);
    expect(formSpeaksOf("It pays 2 times the sum insured.", "limit")).toBe(true);
    expect(formSpeaksOf("A device policy allows 2 claims per policy year.", "limit")).toBe(false);
  });

  it("read a share taken off a price ('costs 4% less', '10% off') as a discount's form, and 'cheaper' as asking one", () => {
    expect(formSpeaksOf("Paying once a year costs 4% less than twelve monthly payments.", "discount")).toBe(true);
    expect(formSpeaksOf("Members get 10% off the second policy.", "discount")).toBe(true);
    expect(formSpeaksOf("پرداخت سالانه ۴ درصد کمتر است.", "discount")).toBe(true);
    expect(formSpeaksOf("The premium is $40.50 per month.", "discount")).toBe(false);
    expect(speaksOf(terms("is it cheaper if I pay once a year?"), "discount")).toBe(true);
    expect(statedWith(["discount"], "en")).toBe("discount less");
  });

  it("hear a bare 'how much?' asked of what is covered as asking what it pays, not what it costs", () => {
    expect(analyzeQuestion("Does the visitor insurance cover an emergency toothache for my mom? how much?", "en").asked[0]).toBe("limit");
    expect(analyzeQuestion("بیمه مسافرتی دندان رو پوشش میده؟ چقدر؟", "fa").asked[0]).toBe("limit");
    expect(analyzeQuestion("Does travel insurance cover dental, and how much does it cost?", "en").asked[0]).toBe("price");
  });

  it("read a passage saying what is excluded as speaking of what is covered", () => {
    expect(speaksOf(terms("Premiums exclude the 8% sales tax."), "covered")).toBe(true);
    expect(speaksOf(terms("Exclusions: flood damage."), "covered")).toBe(true);
    expect(speaksOf(terms("The plan pays for flood damage."), "covered")).toBe(true);
    expect(speaksOf(terms("Premiums are due monthly."), "covered")).toBe(false);
  });

  it("give a widened search the words documents state the asked attribute with, in the reply language", () => {
    expect(statedWith(["deadline"], "en")).toBe("deadline within");
    expect(statedWith(["deadline"], "fa")).toBe("مهلت ظرف");
    // An attribute documents state in no words of their own (whether something is covered) adds none.
    expect(statedWith(["covered"], "en")).toBe("");
    expect(statedWith([], "en")).toBe("");
  });

  it("do not read a figure that changes an amount, or an age, as stating a price or an excess, unless the question asks for one", () => {
    const surcharge = "A driver under 25 years old adds 10 percentage points to the deductible.";
    const persian = "اگر راننده کمتر از ۲۵ سال سن داشته باشد، ۱۰ واحد درصد به فرانشیز اضافه می‌شود.";
    expect(formFits(surcharge, ["deductible"], { change: false, asked: ["deductible"] })).toBe(false);
    expect(formFits(persian, ["deductible"], { change: false, asked: ["deductible"] })).toBe(false);
    // "How much extra…?" is answered by it; so is a question that asks an age or a length too.
    expect(formFits(surcharge, ["deductible"], { change: true, asked: ["deductible"] })).toBe(true);
    expect(formFits(surcharge, ["deductible"], { change: false, asked: ["deductible", "age"] })).toBe(true);
    // A stated excess is an excess, whatever else the passage says.
    expect(formFits("The deductible is 10% of the assessed damage for drivers over 25 years.", ["deductible"], { change: false, asked: ["deductible"] })).toBe(true);
    expect(formFits("Premium: AED 95 for 8–15 days", ["price"], { change: false, asked: ["price"] })).toBe(true);
  });

  it('read a range of hours of the day as opening hours, and "which days" as asking them', () => {
    expect(formFits("سه‌شنبه تا شنبه ١٠ تا ١٧", ["hours"])).toBe(true);
    expect(formFits("Mon–Fri 9 to 17", ["hours"])).toBe(true);
    expect(formFits("9:30–17:00", ["hours"])).toBe(true);
    // Days, ages and counts are no hours.
    expect(formFits("within 7 to 10 days", ["hours"])).toBe(false);
    expect(formFits("ages 18 to 24 years", ["hours"])).toBe(false);
    expect(analyzeQuestion("شعبه ریچموند هیل چه روزهایی بازه؟").asked).toContain("hours");
    expect(analyzeQuestion("which days is the branch open?").asked[0]).toBe("hours");
  });

  it("hear «فرانشیزش», 'its deductible' in speech, as asking the deductible", () => {
    expect(analyzeQuestion("اگه با آهو تصادف کنم، فرانشیزش چقدره؟").asked[0]).toBe("deductible");
    expect(analyzeQuestion("فرانشیزشون چنده؟").asked[0]).toBe("deductible");
  });

  it("do not read the customer's own address or number as asking the insurer's contact details", () => {
    for (const q of [
      "How do I change my address?",
      "how do i update my phone number?",
      "can I change my email address online?",
      "چطوری آدرس من رو عوض کنم؟",
      "شماره تلفن من عوض شده",
    ]) {
      expect(analyzeQuestion(q).asked, q).not.toContain("contact");
    }
    for (const q of ["what's your address?", "what is the phone number for claims?", "my address is wrong, what's your whatsapp number?", "آدرس شعبه مرکزی کجاست؟"]) {
      expect(analyzeQuestion(q).asked, q).toContain("contact");
    }
  });

  it("tell a question about a change from one about the amount, and a grace period from a price", () => {
    expect(analyzeQuestion("Do smokers pay more?").change).toBe(true);
    expect(analyzeQuestion("راننده زیر ۲۵ سال چقدر بیشتر فرانشیز میده؟").change).toBe(true);
    expect(analyzeQuestion("How much is the excess on motor body insurance?").change).toBe(false);
    expect(analyzeQuestion("What is the grace period for a late premium payment?").asked).toContain("duration");
  });
});

describe("a deadline or a length of time", () => {
  it("is stated by a length of time or a day, not by any figure", () => {
    for (const text of [
      "Report within 7 days.",
      "ظرف ۴۸ ساعت گزارش دهید",
      "Claims are decided within 5 working days.",
      "Pay by the 5th of each month.",
      "before 31 March",
      "no later than 10:00",
      "۱۰ روز کاری",
    ]) {
      expect(formFits(text, ["deadline"]), text).toBe(true);
    }
    for (const text of ["Other accidental damage: 15% of the repair cost, with a minimum of 2,000,000 rials.", "Theft: 25% of the replacement value.", "Call 021-8000 for help."]) {
      expect(formFits(text, ["deadline"]), text).toBe(false);
      expect(formFits(text, ["duration"]), text).toBe(false);
    }
  });
});
