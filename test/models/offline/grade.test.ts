import { describe, expect, it } from "vitest";
import { chunk, FIXTURES as F } from "./fixtures.js";
import { run } from "./helpers.js";

describe("offline grade", () => {
  it("is sufficient when the best chunk covers the query, and lists it first", async () => {
    const out = await run("grade", {
      query: "motor third-party liability cover passengers",
      language: "en",
      chunks: [chunk(F.MOTOR_BODY_DEDUCTIBLE_EN, 0.6), chunk(F.MOTOR_TPL_PASSENGERS_EN, 0.5), chunk(F.TRAVEL_SCHENGEN_EN, 0.3)],
    });
    expect(out.verdict).toBe("sufficient");
    expect(out.relevantChunkIds[0]).toBe("motor-third-party-en#1");
    expect(out.relevantChunkIds).not.toContain("travel-schengen-en#1");
  });

  it("is sufficient in Persian", async () => {
    const out = await run("grade", {
      query: "فرانشیز بیمه بدنه چقدر است؟",
      language: "fa",
      chunks: [chunk(F.HEALTH_FAMILY_FA, 0.5), chunk(F.MOTOR_BODY_DEDUCTIBLE_FA, 0.5)],
    });
    expect(out).toEqual({ verdict: "sufficient", relevantChunkIds: ["motor-body-fa#3"] });
  });

  it("is insufficient when no chunk covers the key terms", async () => {
    const out = await run("grade", {
      query: "Does life insurance pay out for suicide?",
      language: "en",
      chunks: [chunk(F.MOTOR_BODY_DEDUCTIBLE_EN), chunk(F.TRAVEL_SCHENGEN_EN)],
    });
    expect(out).toEqual({ verdict: "insufficient", relevantChunkIds: [] });
    const fa = await run("grade", { query: "آیا بیمه عمر بازخرید دارد؟", language: "fa", chunks: [chunk(F.MOTOR_BODY_DEDUCTIBLE_FA)] });
    expect(fa.verdict).toBe("insufficient");
  });

  it("is insufficient when a specific term is missing from all chunks, even if the topic matches", async () => {
    const out = await run("grade", { query: "Does travel insurance cover skiing?", language: "en", chunks: [chunk(F.TRAVEL_SCHENGEN_EN, 0.5)] });
    expect(out.verdict).toBe("insufficient");
  });

  it("is insufficient when the retrieval score is below the floor", async () => {
    const out = await run("grade", {
      query: "motor third-party liability cover passengers",
      language: "en",
      chunks: [chunk(F.MOTOR_TPL_PASSENGERS_EN, 0.05)],
    });
    expect(out.verdict).toBe("insufficient");
    expect(out.relevantChunkIds).toEqual(["motor-third-party-en#1"]);
  });

  it("is ambiguous when equally good chunks of several products match a query naming none", async () => {
    const chunks = [chunk(F.MOTOR_BODY_PRICE_EN, 0.5), chunk(F.MOTOR_TPL_PRICE_EN, 0.48)];
    const out = await run("grade", { query: "how much is the premium?", language: "en", chunks });
    expect(out.verdict).toBe("ambiguous");
    expect(out.relevantChunkIds).toEqual(["motor-body-en#1", "motor-third-party-en#2"]);
    // "car" names the motor domain, but both products are motor products: still ambiguous.
    expect((await run("grade", { query: "car insurance premium", language: "en", chunks })).verdict).toBe("ambiguous");
  });

  it("is not ambiguous when the query names one of the products", async () => {
    const chunks = [chunk(F.MOTOR_BODY_PRICE_EN, 0.5), chunk(F.MOTOR_TPL_PRICE_EN, 0.48)];
    const out = await run("grade", { query: "third-party insurance premium", language: "en", chunks });
    expect(out.verdict).toBe("sufficient");
    expect(out.relevantChunkIds[0]).toBe("motor-third-party-en#2");
  });

  it("judges ambiguity in Persian by product, not by language version", async () => {
    const body = { ...chunk(F.MOTOR_BODY_DEDUCTIBLE_FA, 0.5), chunkId: "motor-body-fa#5", text: "قیمت بیمه بدنه درصدی از ارزش روز خودرو است." };
    const tpl = { ...chunk(F.MOTOR_TPL_PASSENGERS_FA, 0.5), chunkId: "motor-third-party-fa#6", text: "قیمت بیمه شخص ثالث به نوع خودرو بستگی دارد." };
    expect((await run("grade", { query: "قیمتش چقدر است؟", language: "fa", chunks: [body, tpl] })).verdict).toBe("ambiguous");
    expect((await run("grade", { query: "قیمت بیمه بدنه", language: "fa", chunks: [body, tpl] })).verdict).toBe("sufficient");
    // The same product in two languages is one option, not two.
    const bodyEn = { ...chunk(F.MOTOR_BODY_PRICE_EN, 0.5) };
    expect((await run("grade", { query: "premium", language: "en", chunks: [bodyEn, { ...bodyEn, chunkId: "motor-body-fa#1", lang: "fa" as const }] })).verdict).toBe("sufficient");
  });

  it("is insufficient without chunks or query terms", async () => {
    expect(await run("grade", { query: "motor body deductible", language: "en", chunks: [] })).toEqual({ verdict: "insufficient", relevantChunkIds: [] });
    expect((await run("grade", { query: "what is it?", language: "en", chunks: [chunk(F.MOTOR_BODY_PRICE_EN)] })).verdict).toBe("insufficient");
  });
});
