import { describe, expect, it } from "vitest";
import type { EvidenceChunk, VerifyOutput } from "../../../src/models/roles.js";
import { chunk, FIXTURES as F, sentencesOf } from "./fixtures.js";
import { run } from "./helpers.js";

async function check(language: "fa" | "en", ...claims: Array<[string, EvidenceChunk[]]>): Promise<VerifyOutput["claims"]> {
  return (await run("verify", { language, claims: claims.map(([text, chunks]) => ({ text, chunks })) })).claims;
}

const BODY_EN = chunk(F.MOTOR_BODY_DEDUCTIBLE_EN);
const FAMILY_EN = chunk(F.HEALTH_FAMILY_EN);
const BODY_FA = chunk(F.MOTOR_BODY_DEDUCTIBLE_FA);
const FAMILY_FA = chunk(F.HEALTH_FAMILY_FA);

describe("offline verify", () => {
  it("accepts every verbatim sentence of every fixture", async () => {
    for (const fixture of Object.values(F)) {
      const results = await check(fixture.lang, ...sentencesOf(fixture).map((s): [string, EvidenceChunk[]] => [s, [chunk(fixture)]]));
      expect(results.map((r) => [r.index, r.supported])).toEqual(results.map((_, i) => [i, true]));
    }
  });

  it("rejects a sentence whose number was changed, naming the number and chunk", async () => {
    const [claim] = await check("en", ["For each claim, the deductible is 10% of the assessed loss, with a minimum of 3,000,000 rials.", [BODY_EN]]);
    expect(claim).toEqual({ index: 0, supported: false, reason: "number 3,000,000 not in chunk motor-body-en#3" });
    const [fa] = await check("fa", ["فرانشیز هر خسارت ۲۰ درصد مبلغ خسارت ارزیابی‌شده و حداقل ۵٬۰۰۰٬۰۰۰ ریال است.", [BODY_FA]]);
    expect(fa).toEqual({ index: 0, supported: false, reason: "number 20 not in chunk motor-body-fa#3" });
  });

  it("rejects a changed number even when the number occurs elsewhere in the chunk", async () => {
    // 30 (the unlicensed-driver rate) is in the chunk, but not in the sentence about the first claim.
    const [claim] = await check("en", ["For each claim, the deductible is 30% of the assessed loss, with a minimum of 5,000,000 rials.", [BODY_EN]]);
    expect(claim?.supported).toBe(false);
    expect(claim?.reason).toBe("number 30 is not stated in the matching sentence of chunk motor-body-en#3");
  });

  it("rejects a sentence cited against another product's chunk", async () => {
    const results = await check(
      "en",
      ["For each claim, the deductible is 10% of the assessed loss, with a minimum of 5,000,000 rials.", [FAMILY_EN]],
      ["The driver at fault is not covered by third-party insurance; driver accident cover is an optional add-on.", [BODY_EN]],
    );
    expect(results.map((r) => r.supported)).toEqual([false, false]);
    expect(results[1]?.reason).toMatch(/^only \d+% of the claim's terms are in chunk motor-body-en#3 \(missing: /u);
    const [fa] = await check("fa", ["فرانشیز هر خسارت ۱۰ درصد مبلغ خسارت ارزیابی‌شده و حداقل ۵٬۰۰۰٬۰۰۰ ریال است.", [FAMILY_FA]]);
    expect(fa?.supported).toBe(false);
  });

  it("rejects an inserted or removed negation", async () => {
    const results = await check(
      "en",
      ["A spouse is not covered from the first day of the policy, with no waiting period for hospitalisation.", [FAMILY_EN]],
      ["The deductible applies to total theft of the vehicle.", [BODY_EN]],
      ["The driver at fault is covered by third-party insurance; driver accident cover is an optional add-on.", [chunk(F.MOTOR_TPL_PASSENGERS_EN)]],
    );
    expect(results).toEqual([
      { index: 0, supported: false, reason: "negation not in chunk health-supplementary-en#2: the claim negates what the source affirms" },
      { index: 1, supported: false, reason: "chunk motor-body-en#3 negates what the claim affirms" },
      { index: 2, supported: false, reason: "chunk motor-third-party-en#1 negates what the claim affirms" },
    ]);
    const fa = await check(
      "fa",
      ["همسر از روز اول بیمه‌نامه تحت پوشش نیست و برای بستری دوره انتظار ندارد.", [FAMILY_FA]],
      ["راننده مقصر تحت پوشش بیمه شخص ثالث است و پوشش حوادث راننده به صورت جداگانه ارائه می‌شود.", [chunk(F.MOTOR_TPL_PASSENGERS_FA)]],
      ["در سرقت کلی خودرو فرانشیز کسر می‌شود.", [BODY_FA]],
    );
    expect(fa.map((r) => r.supported)).toEqual([false, false, false]);
  });

  it("rejects an invented sentence", async () => {
    const results = await check(
      "en",
      ["Motor body insurance also covers damage caused by floods and hail at no extra cost.", [BODY_EN]],
      ["Travel insurance covers skiing accidents up to 50,000 euros.", [chunk(F.TRAVEL_SCHENGEN_EN)]],
    );
    expect(results.map((r) => r.supported)).toEqual([false, false]);
    const [fa] = await check("fa", ["بیمه بدنه خسارت ناشی از سیل و تگرگ را بدون هزینه اضافی پوشش می‌دهد.", [BODY_FA]]);
    expect(fa?.supported).toBe(false);
  });

  it("accepts a faithful claim whose numbers are written differently", async () => {
    const [claim] = await check("en", ["For each claim, the deductible is 10% of the assessed loss, with a minimum of 5000000 rials.", [BODY_EN]]);
    expect(claim?.supported).toBe(true);
    const [fa] = await check("fa", ["فرانشیز هر خسارت 10 درصد مبلغ خسارت ارزیابی‌شده و حداقل 5,000,000 ریال است.", [BODY_FA]]);
    expect(fa?.supported).toBe(true);
  });

  it("rejects a claim without cited chunks", async () => {
    expect(await check("en", ["A spouse is covered from the first day of the policy.", []])).toEqual([
      { index: 0, supported: false, reason: "the claim cites no retrieved chunk" },
    ]);
  });
});
