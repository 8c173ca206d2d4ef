import { describe, expect, it } from "vitest";
import type { HistoryLine } from "../../../src/domain/conversation.js";
import type { UserProfile } from "../../../src/domain/profile.js";
import { analyze } from "../../../src/text/analysis/index.js";
import { run, turn } from "./helpers.js";

async function rewrite(text: string, language: "fa" | "en", history: HistoryLine[], profile: UserProfile = {}, labelGroups?: string[][]): Promise<string> {
  return (await run("contextualize", { text, language, history, summary: "", profile, ...(labelGroups === undefined ? {} : { labelGroups }) })).query;
}

describe("offline contextualize", () => {
  it("returns the normalised text when there is no usable history", async () => {
    expect(await rewrite("  Does  body insurance cover floods? ", "en", [])).toBe("Does body insurance cover floods?");
    // Arabic letters and the Arabic question mark are normalised like the index normalises them.
    expect(await rewrite("بيمه بدنه سيل را پوشش مي‌دهد؟", "fa", [])).toBe("بیمه بدنه سیل را پوشش می‌دهد?");
    const chitchatOnly: HistoryLine = { user: "hi", reply: "Hello!", outcome: "answer", language: "en" };
    expect(await rewrite("what about for my wife?", "en", [chitchatOnly])).toBe("what about for my wife?");
  });

  it('reads a turn opening with "after that", «بعدش» as a follow-up of the previous question', async () => {
    const fa = [turn("خسارت بیمه حیوانات خانگی پاوهاربر را تا کی باید بفرستم", "fa", "خسارت بیمه حیوانات خانگی پاوهاربر را تا کی باید بفرستم؟")];
    expect(await rewrite("بعدش چقدر طول میکشه تا جواب بدید؟", "fa", fa)).toContain("حیوانات");
    const en = [turn("pet insurance claim deadline", "en", "When must I send a pet insurance claim?")];
    expect(await rewrite("after that, how long until you decide on it?", "en", en)).toContain("pet");
  });

  it("replaces the family member of the previous query (wife → spouse)", async () => {
    const history = [turn("supplementary health insurance cover children", "en", "Does supplementary health insurance cover my children?")];
    const query = await rewrite("what about for my wife?", "en", history);
    expect(query).toContain("supplementary health");
    expect(query).toContain("spouse");
    expect(query).not.toContain("children");
    expect(query).not.toContain("wife");
  });

  it('keeps the plan and the asked price when a follow-up names a person and an age ("she\'s 29" is no aspect)', async () => {
    const history = [turn("nestcare plus price 35", "en", "nestcare plus price for me, im 35")];
    expect(await rewrite("what about my wife? shes 29", "en", history)).toBe("nestcare plus price spouse 29");
  });

  it('does not carry a plan the previous question ruled out («نه پلاس», "not the plus") into a follow-up', async () => {
    const fa = [turn("بیمه مهر، طرح معمولی (نه پلاس)، برای ۹۰ روز چقدره؟", "fa", "بیمه مهر، طرح معمولی (نه پلاس)، برای ۹۰ روز چقدره؟")];
    const query = await rewrite("برای ۳۰ روز چی؟", "fa", fa);
    expect(query).toContain("مهر");
    expect(query).not.toContain("پلاس");
    const en = [turn("how much is nestcare, the basic one not the plus, for 90 days", "en", "how much is nestcare, the basic one not the plus, for 90 days")];
    expect(await rewrite("and for 30 days?", "en", en)).not.toContain("plus");
  });

  it("replaces only the sibling label when a follow-up names another of a table's labels", async () => {
    const history = [turn("nestcare gold windscreen limit", "en", "nestcare gold windscreen limit?")];
    const groups = [["gold", "platinum", "silver"]];
    expect(await rewrite("what about platinum", "en", history, {}, groups)).toBe("nestcare windscreen limit platinum");
    // Without the table's labels, the new word is just another aspect.
    expect(await rewrite("what about platinum", "en", history)).not.toContain("windscreen");
  });

  it('reads a follow-up behind an acknowledgement ("ok and our son?", «خب برای پدرم چی؟») as a follow-up', async () => {
    const history = [turn("supplementary health insurance cover spouse")];
    expect(await rewrite("ok and our son, he just turned six last month?", "en", history)).toContain("supplementary health");
  });

  it('carries how the previous question asked ("how much") into a follow-up that does not ask anew, and an age it states', async () => {
    const history = [turn("How much is Nestcare Plus a year for my wife?", "en", "How much is Nestcare Plus a year for my wife? She's 34.")];
    expect(await rewrite("ok and our son, he just turned 6?", "en", history)).toBe("how much nestcare plus children turned 6");
  });

  it("carries a quantity the previous message stated outside its question, and lets the follow-up replace one of its kind", async () => {
    const history = [turn("How much is travel insurance for 30 days?", "en", "Hello! My sister (25) is visiting for a month. How much is travel insurance for 30 days?")];
    const next = await rewrite("and the plus version?", "en", history);
    expect(next).toContain("30 days");
    expect(next).toContain("25 years old");
    // "3 months" replaces the 30 days; the age still holds. "…then?" leans on the previous turn.
    const longer = await rewrite("she might stay 3 months actually, what would plus be then?", "en", [turn(next, "en", "and the plus version?")]);
    expect(longer).toContain("travel");
    expect(longer).toContain("3 months");
    expect(longer).toContain("25 years old");
    expect(longer).not.toContain("30 days");
  });

  it("does not carry a person's age to a follow-up about other people", async () => {
    const history = [turn("nestcare plus price spouse 29", "en", "what about my wife? shes 29")];
    expect(await rewrite("and our 2 kids, 6 and 9?", "en", history)).not.toContain("years old");
  });

  it("adds the new aspect to the previous topic", async () => {
    const query = await rewrite("what about passengers?", "en", [turn("motor third-party liability cover")]);
    expect(query).toContain("third-party");
    expect(query).toContain("passengers");
  });

  it("maps kids and parents to canonical terms", async () => {
    const history = [turn("supplementary health insurance cover spouse")];
    expect(await rewrite("and for the kids?", "en", history)).toBe("supplementary health insurance cover children");
    expect(await rewrite("what about my mum and dad?", "en", history)).toBe("supplementary health insurance cover parents");
  });

  it("replaces the previous aspect with the new one", async () => {
    expect(await rewrite("what about the deductible?", "en", [turn("motor body insurance cover flood")])).toBe("motor body insurance cover deductible");
    expect(await rewrite("what about flood?", "en", [turn("home insurance cover earthquake")])).toBe("home insurance cover flood");
  });

  it("keeps the previous query when the follow-up adds nothing", async () => {
    expect(await rewrite("how much is it?", "en", [turn("motor body insurance deductible")])).toBe("motor body insurance deductible");
  });

  it("starts a new topic when the turn names its own product", async () => {
    const history = [turn("supplementary health insurance price")];
    expect(await rewrite("How much is third-party insurance for a Peugeot 206?", "en", history)).toBe("How much is third-party insurance for a Peugeot 206?");
    // Elliptical and with a product: the new product, asked about in the same way.
    expect(await rewrite("how about travel?", "en", history)).toBe("travel insurance price");
  });

  it("asks the previous question again in its own words of another product, when the follow-up's question names no aspect", async () => {
    const history = [turn("how many days do i have to send a nestcare reimbursement claim", "en", "how many days do i have to send a nestcare reimbursement claim")];
    const run2 = async (text: string) => (await run("contextualize", { text, language: "en", history, summary: "", profile: {}, productTerms: analyze("nestcare voyager") })).query;
    // The statement's words ("visit") are not what is asked; the person asked about is.
    expect(await run2("and for my parents? they're on Voyager while they visit")).toBe("how many days do i have to send a voyager reimbursement claim parents");
    // A question naming an aspect of its own asks that of the new product.
    expect(await run2("what about the voyager price?")).toBe("voyager price");
  });

  it("keeps the asked attribute and plan when a follow-up only says when ('what if my son drives?'), not when it asks another", async () => {
    const history = [turn("roadie gold excess", "en", "what is the roadie gold excess?")];
    const groups = [analyze("silver gold platinum")];
    const when = await rewrite("what if my son drives? he's 22", "en", history, {}, groups);
    expect(when).toContain("excess");
    expect(when).toContain("gold");
    // "the annual premium" asks an attribute of its own: the excess does not stay.
    expect(await rewrite("what about the annual premium?", "en", history, {}, groups)).not.toContain("excess");
    // A plan named anew replaces the plan.
    expect(await rewrite("what if my son drives, on platinum?", "en", history, {}, groups)).not.toContain("gold");
  });

  it("keeps the earlier question when the turn only tells more about the case (it asks nothing)", async () => {
    const history = [turn("What excess would I pay on a water damage claim?")];
    const query = await rewrite("I'm only renting, it's my sofa and rugs that got soaked", "en", history);
    expect(query).toContain("excess");
    expect(query).toContain("water");
    expect(query).toContain("sofa");
    // A question of its own stands alone, as before.
    expect(await rewrite("Do you cover sofas damaged by a pet?", "en", history)).toBe("Do you cover sofas damaged by a pet?");
    // After an answer, a statement naming a new product is a new subject, not more of the old one.
    expect(await rewrite("I want to buy travel insurance for my family", "en", history)).toBe("I want to buy travel insurance for my family");
  });

  it("keeps the earlier question when a statement answers a clarifying question, with the product it names instead", async () => {
    const asked: HistoryLine = { ...turn("برای مادرم که ۶۳ سالشه بیمه درمان می‌خوام، چقدر میشه؟", "fa"), outcome: "clarify" };
    const query = await rewrite("اقامت داره و با ما زندگی می‌کنه. طرح پلاس رو می‌خوایم", "fa", [asked]);
    expect(query).toContain("چقدر");
    expect(query).toContain("درمان");
    expect(query).toContain("پلاس");
  });

  it("treats short contact questions as standalone", async () => {
    expect(await rewrite("What are your call centre hours?", "en", [turn("motor body insurance cover flood")])).toBe("What are your call centre hours?");
  });

  it("merges Persian follow-ups (همسرم → همسر, pronoun suffixes)", async () => {
    const health = [turn("بیمه تکمیلی درمان فرزندان را پوشش می‌دهد؟", "fa")];
    const spouse = await rewrite("برای همسرم چطور؟", "fa", health);
    expect(spouse).toContain("تکمیلی درمان");
    expect(spouse).toContain("همسر");
    expect(spouse).not.toContain("همسرم");
    expect(spouse).not.toContain("فرزندان");

    expect(await rewrite("و برای پدر و مادرم؟", "fa", [turn("بیمه تکمیلی درمان پوشش فرزندان", "fa")])).toBe("بیمه تکمیلی درمان پوشش والدین");
    expect(await rewrite("بچه‌هایم چطور؟", "fa", [turn("بیمه تکمیلی درمان پوشش همسر", "fa")])).toBe("بیمه تکمیلی درمان پوشش فرزندان");
    expect(await rewrite("قیمتش چقدر است؟", "fa", [turn("بیمه بدنه خودرو فرانشیز", "fa")])).toBe("بیمه بدنه خودرو قیمت");
    expect(await rewrite("سرنشین‌ها چطور؟", "fa", [turn("بیمه شخص ثالث پوشش", "fa")])).toBe("بیمه شخص ثالث پوشش سرنشین");
    expect(await rewrite("بیمه مسافرتی چطور؟", "fa", [turn("بیمه تکمیلی درمان قیمت", "fa")])).toBe("بیمه مسافرتی قیمت");
  });

  it("uses the most recent line that has a rewritten query", async () => {
    const history: HistoryLine[] = [
      turn("home insurance cover earthquake"),
      turn("motor third-party liability cover"),
      { user: "thanks", reply: "You're welcome", outcome: "answer", language: "en" },
    ];
    expect(await rewrite("what about passengers?", "en", history)).toBe("motor third-party liability cover passengers");
  });

  it("uses profile facts only for a home or vehicle type the question leaves out", async () => {
    const profile: UserProfile = { home: "apartment in Tehran", vehicle: "2019 Peugeot 206" };
    expect(await rewrite("Is my home covered against earthquake?", "en", [], profile)).toBe("Is my home covered against earthquake? apartment");
    // The make and model add nothing retrieval can use.
    expect(await rewrite("Does body insurance cover my car against hail?", "en", [], profile)).toBe("Does body insurance cover my car against hail?");
    expect(await rewrite("Is my motorbike covered?", "en", [], { vehicle: "motorcycle" })).toBe("Is my motorbike covered?");
  });
});
