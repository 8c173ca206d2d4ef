import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../src/reading/question.js";
import { addsToQuestion, focusTerms, offeredKinds, ownedFocus, questionTerms, tenantForm } from "../../src/reading/evidence-terms.js";
import { read } from "../../src/reading/read.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { analyze } from "../../src/text/analysis/index.js";

describe("a question's content terms", () => {
  it("hears whether a kind of insurance is offered with a few words between its name and the verb («بیمه تحصیلی برای آینده فرزندان دارد؟»)", () => {
    expect(offeredKinds("آیا بیمه صدف طرح پس‌انداز یا بیمه تحصیلی برای آینده فرزندان دارد؟")).toEqual([analyze("تحصیلی")]);
    expect(offeredKinds("بیمه عمر هم ارائه می‌دهید؟")).toEqual([analyze("عمر")]);
    expect(offeredKinds("بیمه بدنه برای ماشینم دارید؟")).toEqual([analyze("بدنه")]);
    // Too far apart to be one request: the words between say more than what it is for.
    expect(offeredKinds("بیمه بدنه را که سال پیش برای ماشین قبلی خریدم هنوز دارید؟")).toEqual([]);
  });

  it("takes what 'it' is from the thing the message says the customer has, when the question asks to insure it", () => {
    expect(ownedFocus("hi, I keep a 24ft speedboat at Dubai Marina. can you insure it against theft?")).toEqual(analyze("speedboat"));
    expect(ownedFocus("I have a villa in Al Barsha, can you insure it?")).toEqual(analyze("villa"));
    expect(ownedFocus("یه قایق تندرو دارم، بیمه‌اش می‌کنید؟")).toEqual(analyze("قایق تندرو"));
    // No pronoun asked to be insured, no antecedent: "a question" is not a thing to insure.
    expect(ownedFocus("I have a question about my policy, is theft covered?")).toEqual([]);
    const taxonomy = buildTaxonomy([
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: "Nest covers your villa or apartment against fire and theft." },
      { id: "road", title: "Road Car Cover", product: "road", domain: "cars", lang: "en", text: "Road covers your car against damage and theft." },
    ]);
    const unit = {
      chunkId: "nest#1",
      documentId: "nest",
      title: "Nest Home Cover",
      product: "nest",
      domain: "homes",
      lang: "en" as const,
      score: 0.8,
      sectionPath: ["Cover"],
      text: "Nest covers your villa or apartment against fire and theft.",
      shape: { kind: "paragraph" as const },
    };
    const asked = "can you insure it against damage and theft?";
    const verdict = read({ query: asked, language: "en", units: [unit], taxonomy, context: `I keep a speedboat at the marina. ${asked}` });
    expect(verdict).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("speedboat") });
  });

  it("drops the qualifiers of a device model's name ('iPhone 15 Pro Max'), not an amount's ('AED 500 max')", () => {
    expect(questionTerms("is my iPhone 15 Pro Max covered if I drop it?")).toEqual(analyze("iPhone covered drop"));
    expect(questionTerms("galaxy s24 ultra screen repair")).not.toContain(analyze("ultra")[0]);
    expect(questionTerms("is it covered up to 500 max?")).toContain(analyze("max")[0]);
    expect(questionTerms("under 500 max?")).toContain(analyze("max")[0]);
  });

  it('keep the period a price is asked for ("per year", «در سال») when a stated quantity drops the words that frame it', () => {
    const year = analyze("year")[0]!;
    expect(questionTerms("My building is 30 years old. How much would Keel Complete cost per year?", true)).toContain(year);
    expect(questionTerms("I'm 30 years old, how much is it?", true)).not.toContain(year);
    expect(questionTerms("برای ساختمان ۳۰ ساله در سال چقدر میشه؟", true)).toContain(analyze("سال")[0]!);
  });

  it('leave out how a duration is asked ("how long does it take"), not the word take when it is content', () => {
    expect(questionTerms("how long does it take to get a final answer to a complaint?")).toEqual(analyze("final answer complaint"));
    expect(questionTerms("can I take my car to Oman?")).toEqual(analyze("take car oman"));
    expect(questionTerms("صورتحساب را تا چند وقت بعد از درمان بفرستم؟")).not.toContain(analyze("وقت")[0]);
    expect(questionTerms("بررسی خسارت چقدر طول میکشه؟")).toEqual(analyze("بررسی خسارت"));
    // "which days" asks opening hours; a passage answers it with weekdays, not the word "days".
    expect(questionTerms("which days is the Deira branch open?")).toEqual(analyze("deira branch open"));
    expect(questionTerms("شعبه چه روزهایی بازه؟")).not.toContain(analyze("روز")[0]);
    // "can I", "after" and "before" in spoken Persian are how the question is put, not what it is about.
    expect(questionTerms("صورتحساب دامپزشکی تا چند وقت بعد از درمان میتونم بفرستم؟")).toEqual(analyze("صورتحساب دامپزشکی درمان بفرستم"));
    expect(questionTerms("قبلش باید چیکار کنم؟")).toEqual(analyze("چیکار"));
  });
});

describe("the tenant's form of a colloquial Persian word", () => {
  const taxonomy = buildTaxonomy([{ id: "b", title: "بیمه ساختمان", product: "b", domain: "b", lang: "fa", text: "ساختمان شما ساخت خوبی دارد. چمدان" }]);
  it("is the whole word spelt formally before a stem with an ending stripped («ساختمون» is «ساختمان», not «ساخت»)", () => {
    expect(tenantForm(taxonomy, analyze("ساختمون")[0]!)).toBe(analyze("ساختمان")[0]);
    expect(tenantForm(taxonomy, analyze("چمدونم")[0]!)).toBe(analyze("چمدان")[0]);
  });

  it("is the documents' analysed word when the stem left by a stripped ending is analysed again («بازسازیش» is «بازسازی»)", () => {
    const rebuild = buildTaxonomy([{ id: "r", title: "بیمه ساختمان", product: "r", domain: "r", lang: "fa", text: "ارزش بازسازی ساختمان" }]);
    expect(analyze("بازسازیش")[0]).not.toBe(analyze("بازسازی")[0]);
    expect(tenantForm(rebuild, analyze("بازسازیش")[0]!)).toBe(analyze("بازسازی")[0]);
  });

  it("restores the final «ه» speech drops before an ending («گربمو» is «گربه»)", () => {
    const pets = buildTaxonomy([{ id: "p", title: "بیمه حیوانات", product: "p", domain: "p", lang: "fa", text: "گربه و سگ شما" }]);
    expect(tenantForm(pets, analyze("گربمو")[0]!)).toBe(analyze("گربه")[0]);
  });

  it("reads the having-suffix written without ZWNJ as the thing had («استخردار» is «استخر»), only when the documents use that word", () => {
    const villas = buildTaxonomy([{ id: "v", title: "بیمه ساختمان", product: "v", domain: "v", lang: "fa", text: "ویلا با استخر اختصاصی" }]);
    expect(tenantForm(villas, analyze("استخردار")[0]!)).toBe(analyze("استخر")[0]);
    expect(tenantForm(taxonomy, analyze("استخردار")[0]!)).toBe(analyze("استخردار")[0]);
  });
});

describe("what a question is about", () => {
  it("includes a capitalised owner of the thing asked about, but not a word capitalised by its place in the sentence", () => {
    expect(focusTerms("Is Desjardins' roadside assistance any good?")).toContain("desjardin");
    expect(focusTerms("is it better than Aviva's cover")).toContain("aviva");
    expect(focusTerms("What's the price? There's a fee, right?")).toEqual([]);
    expect(focusTerms("what about my wife's car")).toEqual([]);
    // What a Persian question wants insured, as "insurance for my shop" says it.
    expect(focusTerms("برای مغازه‌ام تو دیره بیمه آتش‌سوزی و سرقت دارید؟")).toContain("مغازه");
    expect(focusTerms("بیمه آتش‌سوزی برای قایقم دارید؟")).toContain("قایقم");
    expect(focusTerms("برای ۱۰ روز سفر قیمت چقدر است؟")).toEqual([]);
    // The kind of number asked for: documents that never name a fax cannot give its number.
    expect(focusTerms("شماره فکس دفتر مرکزی رو دارین؟")).toContain("فکس");
    expect(focusTerms("what's your fax number?")).toContain("fax");
    expect(focusTerms("what's the number?")).toEqual([]);
  });
});

describe("a reply to a clarifying question", () => {
  const doc = (id: string, title: string, text: string) => ({ id, title, product: id, domain: id, lang: "en" as const, text });
  const taxonomy = buildTaxonomy([
    doc("trip", "Trip Insurance", "Trip insurance covers a trip abroad."),
    doc("home", "Home Insurance", "Home insurance covers your house and contents."),
    doc("pet", "Pet Insurance", "Pet insurance pays vet bills for a dog or cat, whatever the cause."),
    doc("contact", "Contact Us", "Call customer care or email us, as usual: we answer as always («همیشگی»)."),
  ]);
  it("adds something when it says a figure or a word few of the documents use, nothing with words every page says or none does", () => {
    expect(addsToQuestion("the insurance", "How much does it cost?", taxonomy)).toBe(false);
    // "whatever" is how a reply is put, though a page says "whatever the cause".
    expect(addsToQuestion("whatever, idk", "How much does it cost?", taxonomy)).toBe(false);
    expect(addsToQuestion("هرچی", "حق بیمه چقدره؟", taxonomy)).toBe(false);
    expect(addsToQuestion("for my dog", "How much does it cost?", taxonomy)).toBe(true);
    expect(addsToQuestion("she's 34", "How much does it cost?", taxonomy)).toBe(true);
    // A word the question already had adds nothing.
    expect(addsToQuestion("the dog one", "How much is dog insurance?", taxonomy)).toBe(false);
    // Indifference is no word to find, though a page says "customer care"; "care" asked about still is one.
    for (const reply of ["any, i don’t care", "it doesn't matter", "فرقی نمیکنه", "برام مهم نیست", "the usual one", "همون همیشگی"]) {
      expect(addsToQuestion(reply, "How much does it cost?", taxonomy), reply).toBe(false);
    }
    expect(addsToQuestion("the customer care one", "How much does it cost?", taxonomy)).toBe(true);
    expect(questionTerms("i don't care about the price, does it cover theft?")).not.toContain("care");
    // "offer" is how the question asks whether a kind is sold, not a word a page must say.
    expect(questionTerms("do you offer renters insurance?")).toEqual(questionTerms("do you have renters insurance?"));
    // «منظور از …» asks what something means, as "what does … mean" does ("mean" is asking too).
    expect(questionTerms("منظور از مهلت ارفاقی چیست؟")).toEqual(questionTerms("مهلت ارفاقی چیست؟"));
  });

  it('drops the hedge of a supposed event («اگه یه وقت», "if I ever"), keeping time asked of as a word', () => {
    expect(questionTerms("اگه یه وقت با آهو تصادف کنم، فرانشیزش چقدره؟")).not.toContain("وقت");
    expect(questionTerms("اگه یه وقت با آهو تصادف کنم، فرانشیزش چقدره؟")).toContain("آهو");
    expect(questionTerms("if I ever hit a deer, what's the deductible?")).toEqual(questionTerms("if I hit a deer, what's the deductible?"));
    expect(questionTerms("if my phone happens to be stolen by any chance, am I covered?")).toEqual(questionTerms("if my phone is stolen, am I covered?"));
    expect(questionTerms("احیانا اگه گوشیم دزدیده بشه پوشش داره؟")).toEqual(questionTerms("اگه گوشیم دزدیده بشه پوشش داره؟"));
    // Not a hedge: a time of day or a booked time is what is asked about.
    expect(questionTerms("وقت ملاقات کارشناس کی است؟")).toContain("وقت");
    expect(questionTerms("what time does the office open, ever on sundays?")).toContain("time");
  });

  it("reads 'the whole amount', 'in full', «کل مبلغ» as asking a limit, not as words a passage must say", () => {
    expect(questionTerms("does the Plus plan cover the whole amount?")).toEqual(questionTerms("does the Plus plan cover it?"));
    expect(questionTerms("is my bike paid in full?")).toEqual(questionTerms("is my bike paid?"));
    expect(questionTerms("کل مبلغ دوچرخه رو میده؟")).toEqual(questionTerms("دوچرخه رو میده؟"));
    expect(analyzeQuestion("does the Plus plan cover the whole amount?").asked).toContain("limit");
    expect(analyzeQuestion("کل مبلغ دوچرخه رو میده؟").asked).toContain("limit");
    // "amount" of anything else is still a word: "the amount of the excess".
    expect(questionTerms("what is the amount of the excess?")).toContain("amount");
  });
});
