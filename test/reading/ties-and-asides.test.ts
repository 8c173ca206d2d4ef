import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../src/reading/question.js";
import { read } from "../../src/reading/read.js";
import { analyze } from "../../src/text/analysis/index.js";
import { judged, READER_RULES } from "../../src/reading/score.js";
import { termSet } from "../../src/reading/unit-terms.js";
import type { ReadingUnit } from "../../src/reading/types.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { parseConceptLexicon } from "../../src/text/concepts.js";

/** One fictional insurer's pages, as retrieval hands them to the reader. */
const base = { domain: "money", lang: "en" as const, score: 0.8 };
const at = (documentId: string, product: string, title: string, section: string, domain = base.domain) => ({ documentId, product, title, section, domain });

function sentence(where: ReturnType<typeof at>, id: string, text: string): ReadingUnit {
  return {
    ...base,
    chunkId: `${where.documentId}#${id}`,
    documentId: where.documentId,
    title: where.title,
    product: where.product,
    sectionPath: [where.section],
    text,
    shape: { kind: "paragraph" },
  };
}

/** The items of one list, each its own unit, as the chunker cuts them. */
function items(where: ReturnType<typeof at>, leadIn: string, list: readonly string[]): ReadingUnit[] {
  return list.map((item, i) => ({
    ...base,
    domain: where.domain,
    chunkId: `${where.documentId}#i${i}`,
    documentId: where.documentId,
    title: where.title,
    product: where.product,
    sectionPath: [where.section],
    text: `${where.section} — ${leadIn} ${item}`,
    position: i,
    shape: { kind: "item", leadIn, item },
  }));
}

const taxonomyOf = (units: readonly ReadingUnit[]) =>
  buildTaxonomy(
    [...new Set(units.map((u) => u.documentId))].map((id) => {
      const own = units.filter((u) => u.documentId === id);
      return { id, product: own[0]!.product, domain: own[0]!.domain, title: own[0]!.title, lang: own[0]!.lang, text: own.map((u) => u.text).join("\n") };
    }),
  );

describe("list items that tie", () => {
  const payments = at("haven-payments", "payments", "Haven Payments", "Paying by instalments");
  const rule = sentence(payments, "s", "Haven offers instalment plans for annual premiums above 5,000.");
  const plans = items(payments, "You can pay the premium in one of these instalment plans:", [
    "3 monthly instalments: a fee of 1% of the premium.",
    "6 monthly instalments: a fee of 2% of the premium.",
  ]);
  const units = [rule, ...plans];
  const taxonomy = taxonomyOf(units);
  const ask = (query: string) => read({ query, language: "en", units, taxonomy });

  it("gives way to the sentence of their document that states the rule they share", () => {
    expect(ask("Can I pay in instalments?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["haven-payments#s"] }] });
  });

  it("keeps the one item that says a number the question says", () => {
    expect(ask("Can I pay in 6 instalments?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["haven-payments#i1"] }] });
  });

  it("keeps its rank when the sentence beside it is another document's", () => {
    const faq = at("haven-faq", "payments", "Haven Payments FAQ", "Paying by instalments");
    const elsewhere = [{ ...rule, chunkId: "haven-faq#s", documentId: faq.documentId, title: faq.title }, ...plans];
    expect(read({ query: "Can I pay in instalments?", language: "en", units: elsewhere, taxonomy: taxonomyOf(elsewhere) })).toMatchObject({
      kind: "answer",
      basis: "item",
    });
  });
});

describe("a word carried only by its phrase's concept", () => {
  const lexicon = parseConceptLexicon("screen\tscreen | display\tصفحه نمایش | صفحه گوشی\nexcess\texcess | deductible\tفرانشیز\n");
  const gadget = at("gizmo", "gizmo", "Gizmo Phone Cover", "Excess");
  const excess = { ...sentence(gadget, "e", "The excess is AED 150 for a screen repair and AED 400 for theft."), domain: "gadgets" };
  const taxonomy = taxonomyOf([excess]);

  it("finds it in the other language's word for the phrase («صفحه» of «صفحه گوشی» is the screen)", () => {
    expect(read({ query: "فرانشیز صفحه گوشی Gizmo چقدر است؟", language: "fa", units: [excess], taxonomy, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["gizmo#e"] }],
    });
  });
});

describe("a figure given as an example", () => {
  const question = analyzeQuestion("what's the waiting period?", "en");
  const judge = (text: string) => judged({ coverage: 1, missing: [] }, text, termSet(text), question, 0).coverage;

  it("is not the value a question asks for (a glossary entry's «for example, 30 days»)", () => {
    expect(judge("Waiting period – Time from the start of a policy before a benefit can be used (for example, 30 days for illness).")).toBe(READER_RULES.formlessFactor);
    expect(judge("Waiting period – Time from the start of a policy before a benefit can be used (30 days for illness).")).toBe(1);
    expect(judge("The waiting period is 30 days for illness.")).toBe(1);
  });
});

describe("a general page's passage about some products only", () => {
  const voyage = at("voyage", "voyage", "Voyage Travel Cover", "Cover", "travel");
  const carewell = at("carewell", "carewell", "Carewell Health Plan", "Cover", "health");
  const nest = at("nest", "nest", "Nest Home Cover", "Cover", "home");
  const help = at("help", "help", "Help Centre", "Renewing your policy", "help");
  const units: ReadingUnit[] = [
    ...items(help, "Renewing your policy:", ["Voyage policy cover ends at midnight on the expiry date."]),
    sentence(voyage, "c", "The Voyage policy covers medical emergencies abroad."),
    sentence(carewell, "c", "The Carewell policy covers hospital stays."),
    sentence(nest, "c", "The Nest policy covers fire and flood."),
  ];
  // The help centre is a general page, each product named by its brand: taxonomy.ts infers both
  // from a real corpus (a word of four pages' is too common to name anything).
  const built = taxonomyOf(units);
  const taxonomy = { ...built, products: built.products.map((p) => (p.product === "help" ? { ...p, general: true } : { ...p, general: false, nameTerms: analyze(p.product) })) };

  it("does not answer for all products: which product decides the answer", () => {
    expect(read({ query: "what does the policy cover?", language: "en", units, taxonomy })).toMatchObject({ kind: "clarify_products" });
    // A passage of the general page that names no product answers for all of them.
    const forAll = [...items(help, "Renewing your policy:", ["Your policy cover ends at midnight on the expiry date."]), ...units.slice(1)];
    expect(read({ query: "what does the policy cover?", language: "en", units: forAll, taxonomy })).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["help#i0"] }] });
  });
});

describe("a kind of insurance the lexicon names by a phrase", () => {
  const lexicon = parseConceptLexicon("travel_insurance\ttravel insurance | trip insurance\tبیمه مسافرتی\npet_insurance\tpet insurance\tبیمه حیوان خانگی\n");
  const voyage = at("voyage", "voyage", "Voyage Travel Insurance", "Delays", "travel");
  const delay = sentence(voyage, "d", "Voyage pays up to AED 100 for delayed baggage.");
  // Another product's title says "insurance" first: the product vocabulary, a set of words, no longer holds the phrase.
  const taxonomy = taxonomyOf([sentence(at("nest", "nest", "Nest Home Insurance", "Cover", "home"), "c", "Nest covers fire."), delay]);

  it("is the insurer's when a product's title says the phrase", () => {
    expect(read({ query: "Does trip insurance cover delayed baggage?", language: "en", units: [delay], taxonomy, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["voyage#d"] }],
    });
  });

  it("is not when no title says it", () => {
    expect(read({ query: "Does pet insurance cover delayed baggage?", language: "en", units: [delay], taxonomy, lexicon })).toMatchObject({ kind: "insufficient" });
  });
});

describe("a table label's meaning said twice", () => {
  const lexicon = parseConceptLexicon("physiotherapy\trehab | rehabilitation\tتوانبخشی\ttreatment\ntreatment\ttreatment | care\tدرمان\n");
  const row = (id: string, label: string, limit: string): ReadingUnit => ({
    ...base,
    domain: "cars",
    chunkId: `road#${id}`,
    documentId: "road",
    title: "Road Auto Cover",
    product: "road",
    sectionPath: ["Accident benefits"],
    text: `Accident benefits — ${label} — Standard limit: ${limit}`,
    shape: {
      kind: "row",
      table: "road:t0",
      caption: "Accident benefits",
      rowLabel: label,
      cells: [
        { header: "Benefit", value: label },
        { header: "Standard limit", value: limit },
      ],
      rowHeaderColumn: 0,
    },
  });
  const rows = [
    row("a", "Medical and rehabilitation (non-catastrophic)", "$65,000"),
    row("b", "Medical, rehabilitation and attendant care (catastrophic)", "$1,000,000"),
    row("c", "Funeral expenses", "$6,000"),
  ];
  const taxonomy = taxonomyOf(rows);

  it("counts once: 'care', the broader of 'rehabilitation', adds nothing to a label that says rehabilitation", () => {
    for (const query of ["How much does Road pay for medical and rehabilitation?", "How much does Road pay for her medical and rehab?"]) {
      expect(read({ query, language: "en", units: rows, taxonomy, lexicon })).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["road#a"] }] });
    }
  });
});

describe("a list without a lead-in whose items tie", () => {
  it("is answered whole, in its order, rather than by whichever item comes first", () => {
    const road = at("road", "road", "Road Car Cover", "Deductibles", "cars");
    const list = [
      "First claim in a year: the deductible is 10% of the damage.",
      "Second claim in a year: the deductible is 20% of the damage.",
      "Theft of the car: the deductible is 20% of its value.",
    ];
    const units = items(road, "", list)
      .map((u) => ({ ...u, text: `Deductibles — ${u.shape.kind === "item" ? u.shape.item : ""}`, shape: { ...u.shape, leadIn: null } }) as ReadingUnit)
      .reverse();
    const verdict = read({ query: "How much is the Road deductible?", language: "en", units, taxonomy: taxonomyOf(units) });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["road#i0"] }, { chunkIds: ["road#i1"] }, { chunkIds: ["road#i2"] }] });
  });
});

describe("a question asking what a term means", () => {
  const pay = at("pay", "pay", "Paying Your Premium", "Late payment");
  const words = at("glossary", "glossary", "Glossary of Insurance Terms", "Terms");
  const units: ReadingUnit[] = [
    ...items(pay, "If a payment is late:", ["Grace period: you have up to 15 days after each due date to pay, and cover continues.", "Late fee: AED 50 for each late instalment."]),
    sentence(words, "g", "Grace period – Extra time to pay a late instalment while cover continues (15 days)."),
  ];
  // Both are general pages (taxonomy.ts infers that from a real corpus's shared section).
  const built = taxonomyOf(units);
  const taxonomy = { ...built, products: built.products.map((p) => ({ ...p, general: true })) };

  it("is answered by the glossary's entry, not an equally good passage of a product page", () => {
    expect(read({ query: "What is meant by the grace period, and how many days is it?", language: "en", units, taxonomy })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["glossary#g"] }],
    });
    expect(read({ query: "منظور از grace period چیست؟", language: "fa", units, taxonomy })).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["glossary#g"] }] });
    // Not asked what it means: the more structured item answers.
    expect(read({ query: "How many days is the grace period?", language: "en", units, taxonomy })).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["pay#i0"] }] });
  });
});
