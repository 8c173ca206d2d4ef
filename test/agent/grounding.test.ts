import { describe, expect, it } from "vitest";
import { checkGrounding } from "../../src/agent/grounding.js";
import type { EvidenceChunk } from "../../src/models/roles.js";

const chunk = (chunkId: string, text: string, lang: "en" | "fa" = "en"): EvidenceChunk => ({
  chunkId,
  documentId: chunkId.split("#")[0]!,
  title: "T",
  product: "p",
  domain: "motor",
  lang,
  text,
  score: 0.8,
});

const evidence = [
  chunk("motor-body-en#3", "The deductible is 10% of the assessed damage. The minimum deductible is 5,000,000 rials."),
  chunk("motor-body-fa#3", "فرانشیز ۱۰ درصد خسارت است. حداقل فرانشیز ۵٬۰۰۰٬۰۰۰ ریال است.", "fa"),
];

describe("checkGrounding", () => {
  it("accepts verbatim sentences and marks them verbatim", () => {
    const report = checkGrounding([{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], evidence);
    expect(report).toEqual({ failures: [], verbatim: [true] });
  });

  it("accepts a number written in another script or without separators", () => {
    const report = checkGrounding([{ text: "The minimum is 5000000 rials", chunkIds: ["motor-body-fa#3"] }], evidence);
    expect(report.failures).toEqual([]);
    expect(report.verbatim).toEqual([false]);
  });

  it("rejects a changed number and names it", () => {
    const report = checkGrounding([{ text: "The minimum deductible is 3,000,000 rials.", chunkIds: ["motor-body-en#3"] }], evidence);
    expect(report.failures).toEqual([{ claimIndex: 0, reason: "number 3000000 not in the cited chunk motor-body-en#3" }]);
  });

  it("rejects citations of chunks not retrieved this turn, and claims without citations", () => {
    const report = checkGrounding(
      [
        { text: "Travel cover starts at 30,000 euros.", chunkIds: ["travel-en#2"] },
        { text: "No citation here.", chunkIds: [] },
      ],
      evidence,
    );
    expect(report.failures).toEqual([
      { claimIndex: 0, reason: "cites chunks not retrieved this turn: travel-en#2" },
      { claimIndex: 1, reason: "cites no chunk" },
    ]);
  });
});
