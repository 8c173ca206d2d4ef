import { describe, expect, it } from "vitest";
import { read } from "../../src/reading/read.js";
import { supposedCase } from "../../src/reading/evidence-terms.js";
import type { ReadingUnit } from "../../src/reading/types.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";

/** One fictional home insurer's page, and another product's, as retrieval hands them to the reader. */
function sentence(documentId: string, product: string, title: string, id: string, text: string): ReadingUnit {
  return { domain: product, lang: "en", score: 0.8, chunkId: `${documentId}#${id}`, documentId, title, product, sectionPath: ["Cover"], text, shape: { kind: "paragraph" } };
}
const nest = (id: string, text: string) => sentence("nest-home", "nest", "Nest Home Contents", id, text);
const units = [
  nest("a", "Alternative accommodation is paid up to AED 20,000 per claim."),
  nest("b", "Jewellery is covered up to AED 5,000 per item."),
  nest("c", "Contents are insured against theft, storm and escape of water."),
  sentence("gear-faq", "gear", "Gear Device Cover", "d", "Breakdown after the warranty ends is covered."),
];
const taxonomy = buildTaxonomy(
  [...new Set(units.map((u) => u.documentId))].map((id) => ({
    id,
    title: units.find((u) => u.documentId === id)!.title,
    product: units.find((u) => u.documentId === id)!.product,
    domain: units.find((u) => u.documentId === id)!.domain,
    lang: "en" as const,
    text: units
      .filter((u) => u.documentId === id)
      .map((u) => u.text)
      .join("\n"),
  })),
);

describe("the case a question supposes", () => {
  it("is the opening if-clause when a clause asking follows it, less the words that clause asks about too", () => {
    expect(supposedCase("If a burst pipe floods our flat, how much does Nest pay for alternative accommodation?")).toEqual(["burst", "pipe", "flood", "flat"]);
    expect(supposedCase("اگر به دلیل آتش‌سوزی خانه قابل سکونت نباشد، سقف اسکان موقت چقدر است؟")).toContain("سکونت");
    expect(supposedCase("If I convert to permanent life, what would the permanent premiums be?")).not.toContain("perman");
    // No clause after it, or no if: nothing is supposed.
    expect(supposedCase("how much does Nest pay for alternative accommodation if a pipe bursts?")).toEqual([]);
    // A greeting before it is no part of the case.
    expect(supposedCase("Hi, if a burst pipe floods our flat, how much does Nest pay?")).toEqual(["burst", "pipe", "flood", "flat"]);
    // "When does…" asks; "When I…" supposes.
    expect(supposedCase("When does cover start, and is there a waiting period?")).toEqual([]);
    expect(supposedCase("When I travel abroad, is my phone covered?")).toContain("travel");
  });

  it("is what happened when the message tells it before a clause asking ('my phone got stolen …, will Nest pay?')", () => {
    expect(supposedCase("my phone got stolen from my suitcase on the flight, will Nest pay?")).toEqual(["phone", "stolen", "suitcas", "flight"]);
    expect(supposedCase("we had a burst pipe last night; does Nest pay for a hotel?")).toEqual(["burst", "pipe", "last", "night"]);
    // A question that opens by asking tells no case.
    expect(supposedCase("What is the excess, and does it change?")).toEqual([]);
    expect(supposedCase("my phone is it covered?")).toEqual([]);
  });

  it("need not be retold by a passage that states everything else the question asks", () => {
    const verdict = read({ query: "If a burst pipe floods our flat, how much does Nest pay for alternative accommodation?", language: "en", units, taxonomy });
    expect(verdict.kind).toBe("answer");
    expect(verdict.kind === "answer" && verdict.claims[0]!.text).toContain("20,000");
  });

  it("still counts in full when the asking clause asks nothing but the attribute ('am I covered?')", () => {
    const verdict = read({ query: "If I end up in hospital abroad, am I covered?", language: "en", units, taxonomy });
    expect(verdict.kind).not.toBe("answer");
  });
});
