import { describe, expect, it } from "vitest";
import type { EvidenceChunk, GenerateOutput } from "../../../src/models/roles.js";
import { chunk, FIXTURES as F } from "./fixtures.js";
import { run } from "./helpers.js";

const ALL: EvidenceChunk[] = Object.values(F).map((f) => chunk(f, 0.6));

async function answer(query: string, language: "fa" | "en", chunks: EvidenceChunk[] = ALL, userText = query, feedback?: string): Promise<GenerateOutput> {
  return run("generate", { query, userText, language, chunks, ...(feedback !== undefined ? { feedback } : {}) });
}

function texts(out: GenerateOutput): string[] {
  return out.claims.map((c) => c.text);
}

/** Every claim is a verbatim sentence of the chunk it cites. */
function expectVerbatim(out: GenerateOutput, chunks: EvidenceChunk[] = ALL): void {
  for (const claim of out.claims) {
    expect(claim.chunkIds).toHaveLength(1);
    const cited = chunks.find((c) => c.chunkId === claim.chunkIds[0]);
    expect(cited?.text).toContain(claim.text);
  }
}

describe("offline generate", () => {
  it("answers a spouse follow-up with the family sentences, verbatim and cited", async () => {
    const out = await answer("supplementary health insurance cover spouse", "en", ALL, "what about for my wife?");
    expect(out.answered).toBe(true);
    expect(texts(out)).toEqual([
      "The policyholder's spouse and children under 25 can be added to the same supplementary health policy.",
      "A spouse is covered from the first day of the policy, with no waiting period for hospitalisation.",
    ]);
    expect(out.claims.every((c) => c.chunkIds[0] === "health-supplementary-en#2")).toBe(true);
    expectVerbatim(out);
    expect(out.confidence).toBeGreaterThan(0.7);
  });

  it("answers an amount question with the sentence holding the numbers", async () => {
    const out = await answer("What is the minimum deductible for motor body insurance?", "en");
    expect(texts(out)[0]).toBe("For each claim, the deductible is 10% of the assessed loss, with a minimum of 5,000,000 rials.");
    expect(out.claims.every((c) => c.chunkIds[0] === "motor-body-en#3")).toBe(true);
    expectVerbatim(out);
  });

  it("answers the Schengen minimum", async () => {
    const out = await answer("How much travel insurance cover do I need for a Schengen visa?", "en");
    expect(texts(out)).toEqual(["For a Schengen visa, travel insurance must cover at least 30,000 euros of medical expenses and repatriation."]);
    expect(out.claims[0]?.chunkIds).toEqual(["travel-schengen-en#1"]);
  });

  it("answers with the third-party passengers sentence, not the body deductible", async () => {
    const out = await answer("motor third-party liability cover passengers", "en", ALL, "what about passengers?");
    expect(texts(out)[0]).toBe("Motor third-party liability insurance covers bodily injury to third parties, including passengers in the insured vehicle.");
  });

  it("answers in Persian from Persian chunks only", async () => {
    const spouse = await answer("بیمه تکمیلی درمان پوشش همسر", "fa", ALL, "برای همسرم چطور؟");
    expect(spouse.answered).toBe(true);
    expect(texts(spouse)).toContain("همسر از روز اول بیمه‌نامه تحت پوشش است و برای بستری دوره انتظار ندارد.");
    expect(spouse.claims.every((c) => c.chunkIds[0] === "health-supplementary-fa#2")).toBe(true);
    expectVerbatim(spouse);

    const deductible = await answer("فرانشیز بیمه بدنه چقدر است؟", "fa");
    expect(texts(deductible)[0]).toBe("فرانشیز هر خسارت ۱۰ درصد مبلغ خسارت ارزیابی‌شده و حداقل ۵٬۰۰۰٬۰۰۰ ریال است.");
    expectVerbatim(deductible);

    const schengen = await answer("بیمه مسافرتی برای ویزای شینگن چقدر پوشش لازم دارد؟", "fa");
    expect(texts(schengen)).toEqual(["برای ویزای شینگن، بیمه مسافرتی باید دست‌کم ۳۰٬۰۰۰ یورو هزینه‌های درمان و بازگرداندن را پوشش دهد."]);

    const passengers = await answer("بیمه شخص ثالث پوشش سرنشین", "fa", ALL, "سرنشین‌ها چطور؟");
    expect(texts(passengers)[0]).toBe("بیمه شخص ثالث خسارت‌های جانی وارد شده به اشخاص ثالث، از جمله سرنشینان خودروی بیمه‌شده، را جبران می‌کند.");
  });

  it("adds a second sentence only when it states more of what was asked", async () => {
    const parents = await answer("Can I add my parents to supplementary health insurance?", "en");
    expect(texts(parents)).toEqual(["Parents of the policyholder cannot be added to a family policy; they need a separate policy."]);
  });

  it("orders claims as they appear in the documents", async () => {
    const out = await answer("supplementary health insurance cover children", "en");
    const order = out.claims.map((c) => F.HEALTH_FAMILY_EN.text.indexOf(c.text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
  });

  it("does not answer from unrelated chunks", async () => {
    const out = await answer("Does life insurance pay out for suicide?", "en");
    expect(out).toEqual({ claims: [], answered: false, confidence: expect.any(Number) });
    expect(out.confidence).toBeLessThan(0.3);
    expect((await answer("آیا بیمه عمر بازخرید دارد؟", "fa")).answered).toBe(false);
  });

  it("does not answer when a specific question term is in no chunk", async () => {
    const out = await answer("Does travel insurance cover skiing?", "en", [chunk(F.TRAVEL_SCHENGEN_EN)]);
    expect(out.answered).toBe(false);
    expect(out.claims).toEqual([]);
  });

  it("does not answer from chunks in another language", async () => {
    const out = await answer("motor body deductible", "en", [chunk(F.MOTOR_BODY_DEDUCTIBLE_FA)]);
    expect(out).toEqual({ claims: [], answered: false, confidence: 0 });
  });

  it("skips sentences rejected in the feedback", async () => {
    const first = await answer("What is the minimum deductible for motor body insurance?", "en", [chunk(F.MOTOR_BODY_DEDUCTIBLE_EN)]);
    const rejected = first.claims[0]!.text;
    const again = await answer(
      "What is the minimum deductible for motor body insurance?",
      "en",
      [chunk(F.MOTOR_BODY_DEDUCTIBLE_EN)],
      undefined,
      `Rejected: "${rejected}" (number not in chunk)`,
    );
    expect(texts(again)).not.toContain(rejected);
  });

  it("never quotes headings, and quotes list items without their marker", async () => {
    const listed: EvidenceChunk = {
      ...chunk(F.HEALTH_DENTAL_EN),
      chunkId: "health-supplementary-en#4",
      text: "## Dental care limits\n\nDental limits of the supplementary health plan are:\n\n- Fillings and root canals: up to 20,000,000 rials per year.\n- Orthodontics: not covered.",
    };
    const out = await answer("What are the dental limits of supplementary health?", "en", [listed]);
    expect(texts(out)).toEqual(["Dental limits of the supplementary health plan are:", "Fillings and root canals: up to 20,000,000 rials per year.", "Orthodontics: not covered."]);
  });

  it("uses the chunk's section as the heading when the text has none", async () => {
    const waiting = {
      ...chunk(F.HEALTH_DENTAL_EN),
      chunkId: "health-supplementary-en#5",
      text: [
        "A waiting period is the time after joining during which the supplementary health plan does not yet pay for a type of care.",
        "",
        "- Dental care and glasses: 30 days.",
        "- Maternity: 9 months, so a pregnancy that started before joining is not covered.",
      ].join("\n"),
    };
    const question = "What is the waiting period for maternity in supplementary health insurance?";
    const maternity = "Maternity: 9 months, so a pregnancy that started before joining is not covered.";
    expect(texts(await answer(question, "en", [waiting]))).not.toContain(maternity);
    // Retrieval chunks carry their heading path as `section`; with it, the list item is about
    // waiting periods too, and answers.
    const sectioned: EvidenceChunk = { ...waiting, section: "Waiting periods" } as EvidenceChunk;
    expect(texts(await answer(question, "en", [sectioned]))).toContain(maternity);
  });

  it("skips FAQ questions and quotes their answers", async () => {
    const faq: EvidenceChunk = {
      ...chunk(F.HEALTH_FAMILY_EN),
      chunkId: "health-supplementary-en#9",
      text: "## Frequently asked questions\n\n- **Can I add my wife to my supplementary health plan?** Yes, the policyholder's spouse can be added at the premium of the spouse's age band.",
    };
    const out = await answer("Can I add my wife to my supplementary health plan?", "en", [faq]);
    expect(texts(out)).toEqual(["Yes, the policyholder's spouse can be added at the premium of the spouse's age band."]);
  });
});
