import { describe, expect, it } from "vitest";
import { read } from "../../src/reading/read.js";
import { unitBags } from "../../src/reading/score.js";
import { analyze } from "../../src/text/analysis/index.js";
import type { ReadingUnit } from "../../src/reading/types.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { parseConceptLexicon } from "../../src/text/concepts.js";
import { kindProducts } from "../../src/reading/products.js";
import { analyzeQuestion } from "../../src/reading/question.js";

/** Units of two small fictional products, as retrieval would hand them to the reader. */
const base = { domain: "trips", lang: "en" as const, score: 0.8 };
/** A table's layout as the chunker renders its rows: caption (or heading) — row label — each other cell with its header. */
interface TableOf {
  documentId: string;
  title: string;
  product: string;
  domain: string;
  section: string;
  caption: string | null;
  labelHeader: string;
}

const tableRow = (t: TableOf, id: string, label: string, cells: ReadonlyArray<readonly [string, string]>): ReadingUnit => ({
  ...base,
  domain: t.domain,
  chunkId: `${t.documentId}#${id}`,
  documentId: t.documentId,
  title: t.title,
  product: t.product,
  sectionPath: [t.section],
  text: `${t.caption ?? t.section} — ${label} — ${cells.map(([header, value]) => `${header}: ${value}`).join("; ")}`,
  shape: {
    kind: "row",
    table: `${t.documentId}:t0`,
    caption: t.caption,
    rowLabel: label,
    cells: [{ header: t.labelHeader, value: label }, ...cells.map(([header, value]) => ({ header, value }))],
    rowHeaderColumn: 0,
  },
});

/** The taxonomy of one English table's rows, as one document of the table's product. */
const tableTaxonomy = (t: TableOf, rows: readonly ReadingUnit[]) =>
  buildTaxonomy([{ id: t.documentId, title: t.title, product: t.product, domain: t.domain, lang: "en", text: rows.map((r) => r.text).join("\n") }]);

const tripPrices: TableOf = {
  documentId: "trip-prices",
  title: "Voyager Travel Cover – Prices",
  product: "voyager",
  domain: "trips",
  section: "Prices",
  caption: "Price per adult (AED)",
  labelHeader: "Trip length",
};
const row = (id: string, label: string, values: [string, string, string]): ReadingUnit =>
  tableRow(tripPrices, id, label, [
    ["Basic", values[0]],
    ["Plus", values[1]],
    ["Max", values[2]],
  ]);
const prices = [row("a", "1–7 days", ["40", "60", "90"]), row("b", "8–15 days", ["65", "95", "150"]), row("c", "16–31 days", ["100", "150", "230"])];
const homePrice: ReadingUnit = {
  ...base,
  domain: "homes",
  chunkId: "nest#p",
  documentId: "nest",
  title: "Nest Home Cover",
  product: "nest",
  sectionPath: ["Price"],
  text: "Nest home cover costs AED 300 a year.",
  shape: { kind: "paragraph" },
};
const taxonomy = buildTaxonomy([
  { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
  { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: homePrice.text },
]);
const reading = (query: string, units: readonly ReadingUnit[] = [...prices, homePrice]) => read({ query, language: "en", units, taxonomy });

/** A paragraph unit of an English page, its document id the chunk id's prefix. */
function paragraph(at: { chunkId: string; product: string; domain: string; title: string; section: string }, text: string): ReadingUnit {
  return {
    ...base,
    domain: at.domain,
    chunkId: at.chunkId,
    documentId: at.chunkId.split("#")[0]!,
    title: at.title,
    product: at.product,
    sectionPath: [at.section],
    text,
    shape: { kind: "paragraph" },
  };
}

/** The items of a list under one lead-in, each its own unit ("<document>#<i>"), as the chunker cuts them. */
function listItems(at: { documentId: string; product: string; domain?: string; title: string; section: string }, leadIn: string, items: readonly string[]): ReadingUnit[] {
  return items.map((item, i) => ({
    ...base,
    domain: at.domain ?? base.domain,
    chunkId: `${at.documentId}#${i}`,
    documentId: at.documentId,
    title: at.title,
    product: at.product,
    sectionPath: [at.section],
    text: `${at.section} — ${leadIn} ${item}`,
    position: i,
    shape: { kind: "item", leadIn, item },
  }));
}

/** A document of the tenant's taxonomy, in English. */
const doc = (id: string, product: string, domain: string, title: string, text: string) => ({ id, product, domain, title, lang: "en" as const, text });

/** A term-life rate grid whose columns split on smoking: age bands by "Term 20 non-smoker | Term 20 smoker". */
function beaconRates(): { rows: ReadingUnit[]; beacon: ReturnType<typeof buildTaxonomy> } {
  const grid: TableOf = {
    documentId: "beacon",
    title: "Beacon Term Life – Rates",
    product: "beacon",
    domain: "life",
    section: "Monthly premium",
    caption: null,
    labelHeader: "Age",
  };
  const rows = [
    tableRow(grid, "a", "30–39", [
      ["Term 20 non-smoker", "$7.30"],
      ["Term 20 smoker", "$16.80"],
    ]),
    tableRow(grid, "b", "40–49", [
      ["Term 20 non-smoker", "$12.10"],
      ["Term 20 smoker", "$29.40"],
    ]),
  ];
  return { rows, beacon: buildTaxonomy([{ id: "beacon", title: grid.title, product: "beacon", domain: "life", lang: "en", text: rows.map((r) => r.text).join("\n") }]) };
}

describe("the reader", () => {
  it("answers from the cell whose row holds the stated quantity and whose column the question names", () => {
    expect(reading("how much is voyager plus for a 10 day trip?")).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: "Price per adult (AED) — 8–15 days — Plus: 95", chunkIds: ["trip-prices#b"] }],
    });
  });

  it("takes a destination the documents never name as a detail of a price question, and as the focus of a yes/no one", () => {
    expect(reading("how much is voyager plus for a 10 day trip to muscat?")).toMatchObject({ kind: "answer", basis: "cell", claims: [{ chunkIds: ["trip-prices#b"] }] });
    expect(reading("is voyager valid for a trip to antarctica?")).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("antarctica") });
  });

  it("never answers with a question the document asks (an FAQ's or an intro's rhetorical one)", () => {
    const text = "Burst pipe at home? Nest covers water damage.";
    const intro: ReadingUnit = { ...homePrice, chunkId: "nest#intro", sectionPath: ["Nest"], text };
    const own = buildTaxonomy([
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    // Without the rule the question itself is the best-covering "answer".
    expect(JSON.stringify(read({ query: "does nest cover a burst pipe?", language: "en", units: [intro], taxonomy: own }))).not.toContain("Burst pipe at home?");
  });

  it("does not hold against a Persian passage the English words no concept or name could carry into it", () => {
    const lexicon = parseConceptLexicon("price\tprice | cost\tقیمت | هزینه\n");
    const text = "هزینه بیمه نستکر برای هر سال ۳۰۰ درهم است.";
    const unit: ReadingUnit = { ...homePrice, chunkId: "nest-fa#1", documentId: "nest-fa", lang: "fa", title: "بیمه نستکر", text };
    const own = buildTaxonomy([
      // Nestcare is documented in Persian only; the payment pages name it in both languages.
      { id: "nest-fa", title: "بیمه نستکر", product: "nestcare", domain: "homes", lang: "fa", text },
      { id: "pay-en", title: "Paying", product: "payments", domain: "service", lang: "en", text: "Nestcare for a cottage is paid yearly." },
      { id: "pay-fa", title: "پرداخت", product: "payments", domain: "service", lang: "fa", text: "نستکر سالانه پرداخت می‌شود." },
      { id: "road-en", title: "Road Cover", product: "road", domain: "motor", lang: "en", text: "Road covers cars." },
      { id: "road-fa", title: "بیمه جاده", product: "road", domain: "motor", lang: "fa", text: "جاده خودرو را پوشش می‌دهد." },
    ]);
    expect(read({ query: "nestcare cost for my cottage?", language: "en", units: [{ ...unit, product: "nestcare" }], taxonomy: own, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["nest-fa#1"] }],
    });
  });

  it("does not answer across languages for a product documented in the question's language too", () => {
    const text = "هزینه بیمه نستکر برای هر سال ۳۰۰ درهم است.";
    const unit: ReadingUnit = { ...homePrice, chunkId: "nest-fa#1", documentId: "nest-fa", lang: "fa", title: "بیمه نستکر", product: "nestcare", text };
    const docs = [
      { id: "nest-fa", title: "بیمه نستکر", product: "nestcare", domain: "homes", lang: "fa" as const, text },
      { id: "road-en", title: "Road Cover", product: "road", domain: "motor", lang: "en" as const, text: "Road covers cars." },
    ];
    const persianOnly = buildTaxonomy(docs);
    const bilingual = buildTaxonomy([
      ...docs,
      { id: "nest-en", title: "Nestcare Home Cover", product: "nestcare", domain: "homes", lang: "en", text: "Nestcare costs AED 300 a year." },
    ]);
    const lexicon = parseConceptLexicon("price\tprice | cost\tقیمت | هزینه\n");
    const ask = (taxonomy: typeof bilingual) => read({ query: "nestcare cost?", language: "en", units: [unit], taxonomy, lexicon });
    expect(ask(persianOnly)).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["nest-fa#1"] }] });
    expect(ask(bilingual)).toMatchObject({ kind: "insufficient" });
  });

  it("answers a question asking for what a list states (its documents, what is covered) with the whole list, each item cited", () => {
    const at = { documentId: "claims", product: "claims", domain: "claims", title: "Claims guide" };
    const documents = listItems({ ...at, section: "Documents needed for every claim" }, "Every claim needs the same basic documents:", [
      "The completed claim form.",
      "A copy of the national ID card of the person making the claim.",
      "The IBAN of a bank account in the policyholder's name.",
      "Official reports where they apply, such as a police report.",
    ]);
    const covered = listItems({ ...at, documentId: "nest", product: "nest", domain: "homes", title: "Nest Home Cover", section: "What is covered" }, "Nest covers:", [
      "Fire and smoke damage.",
      "Theft after a break-in.",
    ]);
    const guide = buildTaxonomy([
      { id: "claims", title: "Claims guide", product: "claims", domain: "claims", lang: "en", text: documents.map((u) => u.text).join("\n") },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: covered.map((u) => u.text).join("\n") },
    ]);
    const answer = read({ query: "What documents do I need for a claim?", language: "en", units: documents, taxonomy: guide });
    expect(answer.kind).toBe("answer");
    if (answer.kind === "answer") {
      expect(answer.claims.map((c) => c.text).join(" ")).toContain("IBAN");
      expect(answer.claims.map((c) => c.text).join(" ")).toContain("national ID card");
      expect(new Set(answer.claims.flatMap((c) => c.chunkIds)).size).toBe(4);
    }
    // A word only one item says picks that item.
    const one = read({ query: "Do I need a police report for a claim?", language: "en", units: documents, taxonomy: guide });
    expect(one.kind === "answer" && one.claims.map((c) => c.text).join(" ")).not.toContain("IBAN");
    const cover = read({ query: "What does Nest cover?", language: "en", units: covered, taxonomy: guide });
    expect(cover.kind === "answer" && cover.claims.map((c) => c.text).join(" ")).toContain("Theft after a break-in");
    // A list of what is covered does not answer what is not.
    const not = read({ query: "What is not covered by Nest?", language: "en", units: covered, taxonomy: guide });
    expect(not.kind === "answer" && not.claims.length > 1).toBe(false);
  });

  it("does not hold a follow-up's carried quantities against a passage stating none of their kind, when it asks of something else", () => {
    const at = { product: "beacon", domain: "life", title: "Beacon Term Life – Rates", section: "Monthly or annual?" };
    const units = [
      paragraph({ ...at, chunkId: "beacon#1" }, "Paying once a year costs 4% less than twelve monthly payments."),
      paragraph({ ...at, chunkId: "beacon#2", section: "Example" }, "Example: a 35-year-old choosing $500,000 pays $40.50 per month."),
    ];
    const life = buildTaxonomy([
      { id: "beacon", title: "Beacon Term Life – Rates", product: "beacon", domain: "life", lang: "en", text: units.map((u) => u.text).join("\n") },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    const follow = (earlier: string) =>
      read({
        query: "is beacon cheaper if i pay once a year? $500,000 35 years old",
        language: "en",
        units,
        taxonomy: life,
        context: "is it cheaper if i pay once a year?",
        earlier,
      });
    const verdict = follow("I'm 35. How much is Beacon with $500,000 per month?");
    expect(verdict.kind === "answer" && verdict.claims.map((c) => c.text).join(" ")).toContain("4% less");
  });

  it("asks which product a need names by its kind ('I need health insurance for my parents'), when several products are of it", () => {
    const lexicon = parseConceptLexicon(
      [
        "insurance_type\ttype of insurance\tنوع بیمه",
        "health_insurance\thealth insurance | medical insurance | health cover\tبیمه درمان\tinsurance_type",
        "medical\thealth | medical care\tپزشکی",
        "doctor\tmedic | doctor\tپزشک",
      ].join("\n"),
      "test.tsv",
    );
    const health = buildTaxonomy([
      {
        id: "carefam",
        title: "Carefam Family Medical Insurance",
        product: "carefam",
        domain: "health",
        lang: "en",
        text: "Carefam Family Medical Insurance covers residents and their families. Carefam is the health insurance you need for your parents and children.",
      },
      {
        id: "guestcare",
        title: "Guestcare Visitor Medical Insurance",
        product: "guestcare",
        domain: "visitors",
        lang: "en",
        text: "Guestcare covers parents visiting on a visit visa for up to 180 days.",
      },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    expect(kindProducts("I need health insurance for my parents.", health, lexicon)).toEqual(new Set(["carefam", "guestcare"]));
    const units = [
      paragraph(
        { chunkId: "carefam#1", product: "carefam", domain: "health", title: "Carefam Family Medical Insurance", section: "Overview" },
        "Carefam is the health insurance you need for your parents and children.",
      ),
      paragraph(
        { chunkId: "guestcare#1", product: "guestcare", domain: "visitors", title: "Guestcare Visitor Medical Insurance", section: "Overview" },
        "Guestcare covers parents visiting on a visit visa for up to 180 days.",
      ),
    ];
    const verdict = read({ query: "I need health insurance for my parents.", language: "en", units, taxonomy: health, lexicon });
    expect(verdict.kind).toBe("clarify_products");
    expect(verdict.kind === "clarify_products" && verdict.options.map((o) => o.product).sort()).toEqual(["carefam", "guestcare"]);
  });

  it("answers 'where can I file a claim?' with the list under the heading that asks it, over a sentence sharing its words", () => {
    expect(analyzeQuestion("Where can I file a claim?", "en").asked).toContain("how");
    const at = { documentId: "claims", product: "claims", domain: "claims", title: "Claims guide", section: "Where to file a claim" };
    const channels = listItems(at, "We accept claims through three channels:", ["The app: choose New claim.", "The website: open the claims page.", "Any of our 140 branches."]);
    const who = paragraph(
      { chunkId: "claims#who", product: "claims", domain: "claims", title: "Claims guide", section: "Who may claim" },
      "A claim can be filed by the policyholder or by a beneficiary.",
    );
    const guide = buildTaxonomy([
      { id: "claims", title: "Claims guide", product: "claims", domain: "claims", lang: "en", text: [...channels.map((u) => u.text), who.text].join("\n") },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    const verdict = read({ query: "Where can I file a claim?", language: "en", units: [who, ...channels], taxonomy: guide });
    expect(verdict.kind === "answer" && verdict.claims.map((c) => c.text).join(" ")).toContain("140 branches");
  });

  it("answers from the item a section heading's word labels, not from a sibling the heading also covers", () => {
    const section = "Outpatient, dental and glasses";
    const items = listItems({ documentId: "careplus", product: "careplus", domain: "health", title: "Careplus Health Cover", section }, "", [
      "Outpatient treatment: doctor visits, tests and scans are paid up to 2,000 per person per year.",
      "Dental: fillings and extractions are paid up to 1,500 per person per year.",
      "Glasses: glasses and lenses are paid up to 300 per person per year.",
    ]);
    const health = buildTaxonomy([
      {
        id: "careplus",
        title: "Careplus Health Cover",
        product: "careplus",
        domain: "health",
        lang: "en",
        text: [...items.map((u) => u.text), "Careplus pays hospital treatment in full. Treatment abroad is not covered."].join("\n"),
      },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: "Emergency treatment abroad is covered." },
      {
        id: "claims",
        title: "Claims guide",
        product: "claims",
        domain: "claims",
        lang: "en",
        text: "Send the treatment invoice. Treatment reports are needed for treatment over 500.",
      },
    ]);
    const verdict = read({ query: "What is the limit for dental treatment?", language: "en", units: items, taxonomy: health });
    expect(verdict.kind).toBe("answer");
    expect(verdict.kind === "answer" && verdict.claims.map((c) => c.text).join(" ")).toContain("1,500");
  });

  it("hands off a question whether the insurer offers a kind of insurance none of its products is, whatever a passage says of its word", () => {
    const exclusion: ReadingUnit = {
      ...homePrice,
      chunkId: "nest#x",
      sectionPath: ["Not covered"],
      text: "We do not cover — Damage by pets.",
      shape: { kind: "item", leadIn: "We do not cover", item: "Damage by pets." },
    };
    const own = buildTaxonomy([
      {
        id: "nest",
        title: "Nest Home Cover",
        product: "nest",
        domain: "homes",
        lang: "en",
        text: `${homePrice.text}\n${exclusion.text}\nNest covers your home and your furniture. Furniture is insured at its new value.`,
      },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
      ...["Road", "Health", "Boat"].map((name) => ({
        id: name,
        title: `${name} Cover`,
        product: name.toLowerCase(),
        domain: name.toLowerCase(),
        lang: "en" as const,
        text: `${name} cover.`,
      })),
    ]);
    const ask = (query: string) => read({ query, language: "en", units: [exclusion, homePrice], taxonomy: own });
    expect(ask("do you do pet insurance?")).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("pet") });
    // A kind its products are (their titles, labels, the words their pages keep using) is theirs.
    expect(ask("do you offer home insurance?")).not.toMatchObject({ reason: expect.stringContaining("no product") });
    expect(ask("do you have furniture insurance?")).not.toMatchObject({ reason: expect.stringContaining("no product") });
    // A two-word kind is judged by its head ("term life": life), unless a word of it names a product ("cheap home").
    expect(ask("do you offer term life insurance?")).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("no product is life") });
    expect(ask("do you sell cheap home insurance?")).not.toMatchObject({ reason: expect.stringContaining("no product") });
    // A kind found only by its concept must be a concept the products are named by: the home page
    // says "owner" («homeowners» is an owner), but no product is homeowners insurance.
    const lexicon = parseConceptLexicon("owner\towner | owners | homeowner | homeowners\tمالک\n", "test.tsv");
    const owners = buildTaxonomy([
      { id: "road", title: "Road Cover", product: "road", domain: "road", lang: "en", text: "The registered owner must tell us. The owner pays the excess." },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    expect(read({ query: "do you offer homeowners insurance?", language: "en", units: prices, taxonomy: owners, lexicon })).toMatchObject({
      kind: "insufficient",
      reason: expect.stringContaining("no product is"),
    });
    // A kind of insurance by the lexicon (filed under insurance_type) that no product is named as is
    // not sold, though its word is on their pages: a car's «عمر» (its age) in a table label.
    const kinds = parseConceptLexicon(
      "insurance_type\ttype of insurance\tنوع بیمه\nlife_insurance\tlife insurance | life cover\tبیمه عمر | عمر\tinsurance_type\nmotor_insurance\tcar insurance | motor insurance\tبیمه خودرو\tinsurance_type\n",
      "test.tsv",
    );
    const cars = buildTaxonomy([
      {
        id: "road",
        title: "Road Car Insurance",
        product: "road",
        domain: "road",
        lang: "fa",
        text: "| | طلایی |\n|---|---|\n| حداکثر عمر خودرو | ۱۰ سال |",
        labelSets: [["حداکثر عمر خودرو"]],
      },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    expect(read({ query: "آیا بیمه عمر هم ارائه می‌دهید؟", language: "fa", units: prices, taxonomy: cars, lexicon: kinds })).toMatchObject({
      kind: "insufficient",
      reason: expect.stringContaining("no product is"),
    });
    expect(read({ query: "do you offer car insurance?", language: "en", units: prices, taxonomy: cars, lexicon: kinds })).not.toMatchObject({
      reason: expect.stringContaining("no product"),
    });
  });

  it("lets a phrase's concept be said in other words in the same language by a passage with none of the phrase's words", () => {
    const lexicon = parseConceptLexicon("driver\tdriver | drivers | behind the wheel\tراننده\n", "test.tsv");
    const drivers: ReadingUnit = {
      ...homePrice,
      domain: "motor",
      chunkId: "roadie#d",
      documentId: "roadie",
      title: "Roadie Car Cover",
      product: "roadie",
      sectionPath: ["Excess"],
      text: "Drivers under 25 add AED 1,000 to the Roadie excess.",
    };
    const own = buildTaxonomy([{ id: "roadie", title: "Roadie Car Cover", product: "roadie", domain: "motor", lang: "en", text: drivers.text }]);
    const ask = (query: string, unit: ReadingUnit) => read({ query, language: "en", units: [unit], taxonomy: own, lexicon });
    // "behind the wheel" is a driver, none of its words in the passage: covered.
    expect(ask("roadie excess when behind the wheel under 25?", drivers)).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["roadie#d"] }] });
  });

  it('reads a kind the question names ("car insurance") as the products whose titles are it, and asks among them', () => {
    const lexicon = parseConceptLexicon("vehicle\tcar | cars | vehicle | vehicles\tخودرو | ماشین\n", "test.tsv");
    const motor = { ...homePrice, domain: "motor", sectionPath: ["Excess"] };
    const wheel: ReadingUnit = {
      ...motor,
      chunkId: "wheel#e",
      documentId: "wheel",
      title: "Wheel Comprehensive Car Insurance",
      product: "wheel",
      text: "The Wheel excess is AED 750 per claim.",
    };
    const building: ReadingUnit = {
      ...homePrice,
      domain: "buildings",
      chunkId: "keep#v",
      documentId: "keep",
      title: "Keep Building Insurance",
      product: "keep",
      sectionPath: ["Excess"],
      text: "Vehicle impact on the building: excess AED 1,000.",
    };
    const own = buildTaxonomy([
      { id: "wheel", title: wheel.title, product: "wheel", domain: "motor", lang: "en", text: wheel.text },
      { id: "road", title: "Road Third-Party Car Insurance", product: "road", domain: "motor", lang: "en", text: "Road pays the other party directly." },
      { id: "keep", title: building.title, product: "keep", domain: "buildings", lang: "en", text: building.text },
    ]);
    const verdict = read({ query: "what is the excess on car insurance?", language: "en", units: [building, wheel], taxonomy: own, lexicon });
    expect(verdict).toMatchObject({ kind: "clarify_products" });
    expect(verdict.kind === "clarify_products" && verdict.options.map((o) => o.product).sort()).toEqual(["road", "wheel"]);
  });

  it('takes "no excess" as the amount of an excess question, though it states no figure', () => {
    const text = "Nest claims for a burst pipe have no excess.";
    const unit: ReadingUnit = { ...homePrice, chunkId: "nest#e", sectionPath: ["Excess"], text };
    const own = buildTaxonomy([
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: `${homePrice.text}\n${text}` },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    expect(read({ query: "do i pay any excess on a nest burst pipe claim?", language: "en", units: [unit], taxonomy: own })).toMatchObject({ kind: "answer", claims: [{ text }] });
  });

  it('asks which product when the question names a class several products share ("car insurance"), though retrieval found one', () => {
    const comprehensive: ReadingUnit = {
      ...homePrice,
      domain: "motor",
      chunkId: "wheel#1",
      documentId: "wheel",
      title: "Wheel Comprehensive Car Insurance",
      product: "wheel",
      sectionPath: ["Premium"],
      text: "Wheel car insurance costs 2% of the car's value a year.",
    };
    const docs = [
      { id: "wheel", title: "Wheel Comprehensive Car Insurance", product: "wheel", domain: "motor", lang: "en" as const, text: comprehensive.text },
      { id: "lane", title: "Lane Third-Party Car Insurance", product: "lane", domain: "motor", lang: "en" as const, text: "Lane covers damage you cause to others." },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en" as const, text: prices.map((p) => p.text).join("\n") },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en" as const, text: homePrice.text },
      { id: "guard", title: "Guard Device Cover", product: "guard", domain: "gadgets", lang: "en" as const, text: "Guard covers phones." },
    ];
    const own = buildTaxonomy(docs);
    const ask = (query: string) => read({ query, language: "en", units: [comprehensive], taxonomy: own });
    expect(ask("how much is car insurance?")).toMatchObject({ kind: "clarify_products", options: [{ product: "wheel" }, { product: "lane", documentId: "lane" }] });
    // Naming the product itself is no class.
    expect(ask("how much is wheel car insurance?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["wheel#1"] }] });
  });

  it('answers a class-word question when it picks a column only one product\'s table has ("car insurance on Gold")', () => {
    const wheelTable: TableOf = {
      documentId: "wheel",
      title: "Wheel Comprehensive Car Insurance",
      product: "wheel",
      domain: "motor",
      section: "Premium",
      caption: "Annual premium (AED)",
      labelHeader: "Car value",
    };
    const rows = [
      tableRow(wheelTable, "r1", "Up to 50,000", [
        ["Silver", "1,200"],
        ["Gold", "1,600"],
      ]),
      tableRow(wheelTable, "r2", "Over 50,000", [
        ["Silver", "1,900"],
        ["Gold", "2,400"],
      ]),
    ];
    const lane: ReadingUnit = {
      ...homePrice,
      domain: "motor",
      chunkId: "lane#1",
      documentId: "lane",
      title: "Lane Third-Party Car Insurance",
      product: "lane",
      sectionPath: ["Price"],
      text: "Lane car insurance costs AED 700 a year.",
    };
    const own = buildTaxonomy([
      { id: "wheel", title: "Wheel Comprehensive Car Insurance", product: "wheel", domain: "motor", lang: "en", text: rows.map((r) => r.text).join("\n") },
      { id: "lane", title: "Lane Third-Party Car Insurance", product: "lane", domain: "motor", lang: "en", text: lane.text },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: homePrice.text },
    ]);
    const ask = (query: string) => read({ query, language: "en", units: [...rows, lane], taxonomy: own });
    expect(ask("how much is car insurance on gold for a car worth 40,000?")).toMatchObject({ kind: "answer", basis: "cell", claims: [{ chunkIds: ["wheel#r1"] }] });
    // Without the label, the class word still leaves the product open.
    expect(ask("how much is car insurance for a car worth 40,000?")).toMatchObject({ kind: "clarify_products" });
  });

  it('reads a unit as about its product as every title of the product names it ("car" of the price guide for a benefit schedule row), not by the attribute another title names', () => {
    const schedule: TableOf = {
      documentId: "wheel-benefits",
      title: "Wheel – Benefit Schedule",
      product: "wheel",
      domain: "motor",
      section: "Benefits",
      caption: "Benefit schedule",
      labelHeader: "Benefit",
    };
    const rows = [
      tableRow(schedule, "pa", "Personal accident – each passenger", [
        ["Silver", "not covered"],
        ["Gold", "AED 100,000"],
      ]),
      tableRow(schedule, "rc", "Rental income lost", [
        ["Silver", "AED 5,000"],
        ["Gold", "AED 10,000"],
      ]),
    ];
    const docs = [
      { id: "wheel-benefits", title: schedule.title, product: "wheel", domain: "motor", lang: "en" as const, text: rows.map((r) => r.text).join("\n") },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en" as const, text: prices.map((p) => p.text).join("\n") },
    ];
    const titled = (title: string) => buildTaxonomy([...docs, { id: "wheel-prices", title, product: "wheel", domain: "motor", lang: "en", text: "Wheel premiums by car value." }]);
    const ask = (query: string, title: string) => read({ query, language: "en", units: rows, taxonomy: titled(title) });
    const passenger = "does wheel gold pay a passenger in my car?";
    expect(ask(passenger, "Wheel Comprehensive Car Insurance – Price Guide").coverage).toBeGreaterThan(ask(passenger, "Wheel – Price Guide").coverage);
    // …but not of the attribute another page's title names ("Price Guide"): that page states it.
    const title = unitBags(rows[0]!, titled("Wheel Comprehensive Car Insurance – Price Guide")).title;
    expect(title.has(analyze("car")[0]!)).toBe(true);
    expect(title.has(analyze("price")[0]!)).toBe(false);
  });

  it("reads a statement added to an earlier question as the case told, not as words asked", () => {
    const contents: ReadingUnit = {
      ...homePrice,
      chunkId: "nest#w",
      sectionPath: ["Excess"],
      text: "Water damage to furniture and rugs in a rented home has an excess of AED 1,000.",
    };
    const building: ReadingUnit = {
      ...homePrice,
      domain: "homes",
      chunkId: "wall#w",
      documentId: "wall",
      title: "Wall Building Cover",
      product: "wall",
      sectionPath: ["Excess"],
      text: "Water damage to the building has an excess of AED 2,500.",
    };
    const own = buildTaxonomy([
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: `${homePrice.text}\n${contents.text}` },
      { id: "wall", title: "Wall Building Cover", product: "wall", domain: "homes", lang: "en", text: building.text },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    const told = "I'm only renting, it's my sofa and rugs that got soaked";
    const verdict = read({
      query: "excess water damage claim renting sofa rugs soaked",
      language: "en",
      units: [building, contents],
      taxonomy: own,
      context: told,
      earlier: "What excess would I pay on a water damage claim?",
    });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["nest#w"] }] });
    // The same words asked as a question of their own are asked: no passage says the sofa, so the
    // best one covers less of the question.
    const asked = read({
      query: "excess water damage claim renting sofa rugs soaked",
      language: "en",
      units: [building, contents],
      taxonomy: own,
      context: `${told}?`,
      earlier: "What excess would I pay on a water damage claim?",
    });
    expect(asked.coverage).toBeLessThan(verdict.coverage);
    // A case told that no passage speaks of is someone else's case: the earlier answer is not its.
    const inLaws = "it's for my in-laws visiting from abroad, we'd buy it after they land";
    expect(
      read({
        query: "excess water damage claim in-laws visiting abroad buy land",
        language: "en",
        units: [building, contents],
        taxonomy: own,
        context: inLaws,
        earlier: "What excess would I pay on a water damage claim?",
      }),
    ).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("says nothing of what the customer told") });
  });

  it('does not respell a word the concept lexicon knows as a document\'s word ("crash" is not "cash")', () => {
    const lexicon = parseConceptLexicon("collision\tcollision | crash\tتصادف\n");
    const cash: ReadingUnit = { ...homePrice, chunkId: "nest#c", text: "Nest pays cash for stolen furniture." };
    const collision: ReadingUnit = { ...homePrice, chunkId: "nest#k", text: "Nest pays for damage from a collision with your house." };
    const own = buildTaxonomy([
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: `${cash.text}\n${collision.text}` },
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
    ]);
    const verdict = read({ query: "does nest pay for a crash into the house?", language: "en", units: [cash, collision], taxonomy: own, lexicon });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["nest#k"] }] });
  });

  it("asks which column when the table needs a choice the question does not make, with the table's own labels", () => {
    expect(reading("how much is voyager for a 10 day trip?")).toMatchObject({ kind: "clarify_table", options: [{ label: "Basic" }, { label: "Plus" }, { label: "Max" }] });
  });

  it("asks the table's column rather than quote a sentence of equal coverage, when the question picked the row", () => {
    const extension: ReadingUnit = {
      ...prices[0]!,
      chunkId: "trip-prices#x",
      sectionPath: ["Changing your trip"],
      text: "If your trip is extended because of an emergency, cover is extended at no cost for up to 30 days.",
      shape: { kind: "paragraph" },
    };
    const own = buildTaxonomy([
      { id: "trip-prices", title: tripPrices.title, product: "voyager", domain: "trips", lang: "en", text: [...prices.map((p) => p.text), extension.text].join("\n") },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: homePrice.text },
    ]);
    const verdict = read({ query: "how much is voyager travel insurance for 10 days?", language: "en", units: [extension, ...prices], taxonomy: own });
    expect(verdict).toMatchObject({ kind: "clarify_table", options: [{ label: "Basic" }, { label: "Plus" }, { label: "Max" }] });
  });

  it('adds to the cell the note beside its table that adjusts it for what the question says and the cell does not ("+30% for ski trips")', () => {
    const notes = listItems({ documentId: "trip-prices", product: "voyager", domain: "trips", title: tripPrices.title, section: "Prices" }, "", [
      "Trips to ski resorts: +30% on the price above.",
      "Children under 2 travel free.",
    ]);
    const elsewhere = listItems({ documentId: "trip-prices", product: "voyager", domain: "trips", title: tripPrices.title, section: "Changing your trip" }, "", [
      "Changing a ski trip's dates: +10% on the price paid.",
    ]).map((u) => ({ ...u, chunkId: "trip-prices#e" }));
    const own = buildTaxonomy([
      { id: "trip-prices", title: tripPrices.title, product: "voyager", domain: "trips", lang: "en", text: [...prices, ...notes, ...elsewhere].map((p) => p.text).join("\n") },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: homePrice.text },
    ]);
    const ask = (query: string, units: readonly ReadingUnit[]) => read({ query, language: "en", units, taxonomy: own });
    const ski = ask("how much is voyager plus for a 10 day ski trip?", [...prices, ...notes, ...elsewhere]);
    expect(ski).toMatchObject({ kind: "answer", basis: "cell" });
    expect(ski.kind === "answer" && ski.claims.map((c) => c.chunkIds[0])).toEqual(["trip-prices#b", "trip-prices#0"]);
    // Nothing the cell leaves out: the cell alone. A note of another section does not adjust it.
    const plain = ask("how much is voyager plus for a 10 day trip?", [...prices, ...notes]);
    expect(plain.kind === "answer" && plain.claims.map((c) => c.chunkIds[0])).toEqual(["trip-prices#b"]);
    const other = ask("how much is voyager plus for a 10 day ski trip?", [...prices, ...elsewhere]);
    expect(other.kind === "answer" && other.claims.map((c) => c.chunkIds[0])).toEqual(["trip-prices#b"]);
  });

  it("answers from a passage about the refund the question names, not one that only states a length of time in its other words", () => {
    const at = { product: "payments", domain: "billing", title: "Paying Your Premium", section: "Paying" };
    const transfer = paragraph({ ...at, chunkId: "pay#t" }, "Card transfers take up to 2 working days to reach us.");
    const refunds = paragraph({ ...at, chunkId: "pay#r", section: "Refunds" }, "Refunds reach your card within 10 working days of approval.");
    const own = buildTaxonomy([{ id: "pay", title: at.title, product: at.product, domain: at.domain, lang: "en", text: `${transfer.text}\n${refunds.text}` }]);
    const verdict = read({ query: "How long does a refund take to reach my card?", language: "en", units: [transfer, refunds], taxonomy: own });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["pay#r"] }] });
  });

  it('answers each person\'s row when the question states two ages of one kind ("dad is 63, mum 58"), in the picked column', () => {
    const grid: TableOf = {
      documentId: "kin",
      title: "Kin Visitor Cover – Prices",
      product: "kin",
      domain: "visitors",
      section: "Prices",
      caption: "Price per person",
      labelHeader: "Age",
    };
    const rows = [
      tableRow(grid, "a", "41–60", [
        ["30 days", "300"],
        ["90 days", "480"],
      ]),
      tableRow(grid, "b", "61–70", [
        ["30 days", "500"],
        ["90 days", "760"],
      ]),
    ];
    const own = tableTaxonomy(grid, rows);
    const ask = (context: string) => read({ query: "how much is kin for 90 days?", context, language: "en", units: rows, taxonomy: own });
    const two = ask("dad is 63, mum 58. how much is kin for 90 days?");
    expect(two.kind === "answer" && two.claims.map((c) => [c.chunkIds[0], c.text])).toEqual([
      ["kin#b", expect.stringContaining("760")],
      ["kin#a", expect.stringContaining("480")],
    ]);
    const one = ask("dad is 63. how much is kin for 90 days?");
    expect(one.kind === "answer" && one.claims.map((c) => c.chunkIds[0])).toEqual(["kin#b"]);
  });

  it("does not guess a neighbouring row when no row holds the quantity", () => {
    expect(reading("how much is voyager plus for a 45 day trip?")).toMatchObject({ kind: "insufficient" });
  });

  it("asks which product when the question names none and several answer", () => {
    expect(reading("how much does it cost?")).toMatchObject({ kind: "clarify_products" });
  });

  it("hands off what the documents never mention, however well the rest matches", () => {
    expect(reading("does voyager cover skiing?")).toMatchObject({ kind: "insufficient", reason: expect.stringContaining("ski") });
  });

  it('answers a list of hours whole, an item that states no time ("closed") with the rest', () => {
    const leadIn = "The help desk opening hours are:";
    const items = ["Monday to Thursday: 9:00 to 17:00", "Friday: 9:00 to 13:00", "Weekends: closed"];
    const units = listItems({ documentId: "desk", product: "desk", domain: "service", title: "Help Desk", section: "Help desk" }, leadIn, items);
    const desk = buildTaxonomy([{ id: "desk", title: "Help Desk", product: "desk", domain: "service", lang: "en", text: units.map((u) => u.text).join("\n") }]);
    const verdict = read({ query: "what are the help desk opening hours?", language: "en", units, taxonomy: desk });
    expect(verdict).toMatchObject({ kind: "answer", basis: "item" });
    if (verdict.kind !== "answer") throw new Error();
    expect(verdict.claims.flatMap((c) => c.chunkIds).sort()).toEqual(["desk#0", "desk#1", "desk#2"]);
  });

  it('reads a list item\'s label and value apart from its lead-in\'s range: 5 days is in "Up to 7 days", not against "aged 18 to 65"', () => {
    const leadIn = "The premium for one traveller aged 18 to 65 costs:";
    const items = ["Up to 7 days: 4,500,000 rials", "8 to 15 days: 6,800,000 rials"];
    const units = listItems({ documentId: "wander", product: "wander", title: "Wander Travel Cover", section: "Prices" }, leadIn, items);
    const age: ReadingUnit = {
      ...base,
      chunkId: "wander#age",
      documentId: "wander",
      title: "Wander Travel Cover",
      product: "wander",
      sectionPath: ["Prices"],
      text: "Travellers aged 66 to 75 pay 2 times the premium.",
      shape: { kind: "paragraph" },
    };
    const wander = buildTaxonomy([
      { id: "wander", title: "Wander Travel Cover", product: "wander", domain: "trips", lang: "en", text: [...units, age].map((u) => u.text).join("\n") },
    ]);
    expect(read({ query: "how much does wander cost for a 5-day trip?", language: "en", units: [age, ...units], taxonomy: wander })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["wander#0"] }],
    });
  });

  it("in a follow-up, weighs the customer's own words over those carried from the conversation", () => {
    const unit = (id: string, text: string): ReadingUnit => ({
      ...base,
      chunkId: `rider#${id}`,
      documentId: "rider",
      title: "Rider Motor Cover",
      product: "rider",
      sectionPath: ["Passengers"],
      text,
      shape: { kind: "paragraph" },
    });
    const units = [
      unit("wife", "Is my wife covered if she is injured while riding in my car? Yes, a spouse riding in the insured car is covered for injury."),
      unit("family", "Children and other family members riding in the insured car are covered as third parties."),
    ];
    const rider = buildTaxonomy([{ id: "rider", title: "Rider Motor Cover", product: "rider", domain: "motor", lang: "en", text: units.map((u) => u.text).join("\n") }]);
    const query = "covered injured riding car children";
    expect(read({ query, language: "en", units, taxonomy: rider, context: "and my children?" })).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["rider#family"] }] });
  });

  it('answers a list of deductibles whole though its items take percentages "of the repair cost"', () => {
    const leadIn = "The Guard deductible is the amount you pay for each claim:";
    const items = ["Screen breakage: 10% of the repair cost, with a minimum of 150", "Theft: 25% of the replacement value"];
    const units = listItems({ documentId: "guard", product: "guard", domain: "gadgets", title: "Guard Device Cover", section: "Deductible" }, leadIn, items);
    const passing: ReadingUnit = {
      ...units[0]!,
      chunkId: "guard#r",
      sectionPath: ["Repairs"],
      text: "When a repair costs more than 60% of the device's value, Guard pays its value minus the deductible.",
      shape: { kind: "paragraph" },
    };
    const guard = buildTaxonomy([
      { id: "guard", title: "Guard Device Cover", product: "guard", domain: "gadgets", lang: "en", text: [...units, passing].map((u) => u.text).join("\n") },
    ]);
    const verdict = read({ query: "what is the guard deductible?", language: "en", units: [passing, ...units], taxonomy: guard });
    expect(verdict).toMatchObject({ kind: "answer", basis: "item" });
    if (verdict.kind !== "answer") throw new Error();
    expect(verdict.claims.flatMap((c) => c.chunkIds).sort()).toEqual(["guard#0", "guard#1"]);
  });

  it("does not answer a price question with a list of discounts", () => {
    const leadIn = "Claim-free years earn a discount on the premium:";
    const items = ["1 claim-free year: 25% discount", "2 claim-free years: 35% discount"];
    const units = listItems({ documentId: "shield", product: "shield", title: "Shield Car Cover", section: "Discounts" }, leadIn, items);
    const price: ReadingUnit = {
      ...base,
      chunkId: "shield#price",
      documentId: "shield",
      title: "Shield Car Cover",
      product: "shield",
      sectionPath: ["Price"],
      text: "The annual premium is 1.2% of the car's value.",
      shape: { kind: "paragraph" },
    };
    const shield = buildTaxonomy([
      { id: "shield", title: "Shield Car Cover", product: "shield", domain: "motor", lang: "en", text: [...units, price].map((u) => u.text).join("\n") },
    ]);
    const verdict = read({ query: "what is the shield premium?", language: "en", units: [...units, price], taxonomy: shield });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["shield#price"] }] });
  });

  it("picks the column a word of the question names among headers that all speak of the price (Monthly | Annual)", () => {
    const guardPrices: TableOf = {
      documentId: "guard",
      title: "Guard Device Cover – Prices",
      product: "guard",
      domain: "gadgets",
      section: "Prices",
      caption: "Premium (AED)",
      labelHeader: "Device value (AED)",
    };
    const band = (id: string, label: string, monthly: string, annual: string) =>
      tableRow(guardPrices, id, label, [
        ["Monthly", monthly],
        ["Annual", annual],
      ]);
    const rows = [band("a", "Up to 2,000", "19", "199"), band("b", "2,001–5,000", "35", "385")];
    const guard = buildTaxonomy([{ id: "guard", title: "Guard Device Cover – Prices", product: "guard", domain: "gadgets", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const ask = (query: string) => read({ query, language: "en", units: rows, taxonomy: guard });
    expect(ask("what is the guard annual premium for an AED 4,299 phone?")).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("Annual: 385"), chunkIds: ["guard#b"] }],
    });
    expect(ask("what is the guard premium for an AED 4,299 phone?")).toMatchObject({ kind: "clarify_table", options: [{ label: "Monthly" }, { label: "Annual" }] });
  });

  it("weighs a header's words by rarity: sharing «insurance» with the question does not make a column the asked one", () => {
    const rates: TableOf = {
      documentId: "pillar",
      title: "Pillar Building Insurance",
      product: "pillar",
      domain: "property",
      section: "Rates",
      caption: "Annual Pillar insurance rates",
      labelHeader: "Property",
    };
    const rate = (id: string, label: string, perThousand: string, minimum: string) =>
      tableRow(rates, id, label, [
        ["Rate per 1,000 of rebuild value", perThousand],
        ["Minimum annual insurance premium", minimum],
      ]);
    const rows = [rate("a", "Villa", "0.75", "600"), rate("b", "Apartment", "0.55", "350")];
    const other = "Pillar insurance insures buildings. Insurance is paid yearly. Our insurance is simple.";
    const pillar = buildTaxonomy([
      { id: "pillar", title: "Pillar Building Insurance", product: "pillar", domain: "property", lang: "en", text: rows.map((r) => r.text).join("\n") },
      { id: "help", title: "Insurance help", product: "help", domain: "service", lang: "en", text: other },
      { id: "pay", title: "Paying for insurance", product: "pay", domain: "service", lang: "en", text: other },
    ]);
    expect(read({ query: "what is the pillar insurance rate for a villa?", language: "en", units: rows, taxonomy: pillar })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("Rate per 1,000 of rebuild value: 0.75"), chunkIds: ["pillar#a"] }],
    });
  });

  it("reads an amount per period as a price, and asks no column of a table whose columns are not prices", () => {
    const benefits: TableOf = {
      documentId: "road",
      title: "Road Cover – Benefits",
      product: "road",
      domain: "motor",
      section: "Benefit schedule",
      caption: "Benefit schedule",
      labelHeader: "Benefit",
    };
    const benefit = tableRow(benefits, "b", "Towing", [
      ["Basic", "Optional add-on, AED 95/year"],
      ["Plus", "Included"],
    ]);
    const phoneLines: TableOf = {
      documentId: "lines",
      title: "Contact – Phone Lines",
      product: "contact",
      domain: "service",
      section: "Phone lines",
      caption: null,
      labelHeader: "Line",
    };
    const line = (id: string, label: string, number: string, hours: string) =>
      tableRow(phoneLines, id, label, [
        ["Number", number],
        ["Hours", hours],
      ]);
    const lines = [line("a", "Sales (quotes, payments)", "800 100", "9:00 to 17:00"), line("b", "Towing (Basic add-on or Plus)", "800 200", "24 hours")];
    const units = [benefit, ...lines];
    const road = buildTaxonomy([
      { id: "road", title: "Road Cover – Benefits", product: "road", domain: "motor", lang: "en", text: benefit.text },
      { id: "lines", title: "Contact – Phone Lines", product: "contact", domain: "service", lang: "en", text: lines.map((l) => l.text).join("\n") },
    ]);
    expect(read({ query: "how much is the towing add-on on road basic?", language: "en", units, taxonomy: road })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ chunkIds: ["road#b"] }],
    });
  });

  it('reads unlabelled ranges in headers ("Driver 25–29") as what a stated age falls in, though the caption\'s currency names the cells', () => {
    const lanePrices: TableOf = {
      documentId: "lane",
      title: "Lane Car Insurance – Prices",
      product: "lane",
      domain: "motor",
      section: "Prices",
      caption: "Annual premium (AED)",
      labelHeader: "Vehicle",
    };
    const row = (id: string, label: string, young: string, mid: string) =>
      tableRow(lanePrices, id, label, [
        ["Driver 18–24", young],
        ["Driver 25–29", mid],
      ]);
    const rows = [row("a", "Saloon, 4 cylinders", "1,050", "820"), row("b", "Saloon, 6 cylinders", "1,280", "990")];
    const lane = buildTaxonomy([{ id: "lane", title: "Lane Car Insurance – Prices", product: "lane", domain: "motor", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    expect(read({ query: "how much is lane for a 6 cylinder saloon? i'm 27", language: "en", units: rows, taxonomy: lane })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("Driver 25–29: 990"), chunkIds: ["lane#b"] }],
    });
  });

  it('matches a row label by the question\'s concept in other words ("motorbike" picks "Motorcycle")', () => {
    const pathPrices: TableOf = {
      documentId: "path",
      title: "Path Vehicle Cover – Prices",
      product: "path",
      domain: "motor",
      section: "Prices",
      caption: "Annual premium",
      labelHeader: "Vehicle class",
    };
    const row = (id: string, label: string, price: string) => tableRow(pathPrices, id, label, [["Price", price]]);
    const rows = [row("a", "Motorcycle", "460"), row("b", "Saloon", "690")];
    const path = buildTaxonomy([{ id: "path", title: "Path Vehicle Cover – Prices", product: "path", domain: "motor", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const lexicon = parseConceptLexicon("motorcycle\tmotorcycle | motorbike\tموتورسیکلت\n", "test.tsv");
    expect(read({ query: "how much is path for a motorbike?", language: "en", units: rows, taxonomy: path, lexicon })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ chunkIds: ["path#a"] }],
    });
  });

  it('does not let a concept most rows share pick the row: "car" is every saloon\'s "vehicle", "pickup" names one', () => {
    const roadPrices: TableOf = {
      documentId: "road",
      title: "Road Car Insurance – Prices",
      product: "road",
      domain: "motor",
      section: "Prices",
      caption: "Annual premium (AED)",
      labelHeader: "Vehicle class",
    };
    const row = (id: string, label: string, young: string, mid: string) =>
      tableRow(roadPrices, id, label, [
        ["Driver 18–24", young],
        ["Driver 25–29", mid],
      ]);
    const rows = [
      row("a", "Saloon / hatchback, 4 cylinders", "1,050", "820"),
      row("b", "Saloon, 6 cylinders", "1,280", "990"),
      row("c", "SUV / 4x4", "1,180", "910"),
      row("d", "Pick-up / light van up to 3.5 tonnes", "1,390", "1,080"),
    ];
    const road = tableTaxonomy(roadPrices, rows);
    const lexicon = parseConceptLexicon("vehicle\tcar | cars | saloon | hatchback | suv\tخودرو\ncommercial_vehicle\tvan | pickup | pick-up\tوانت\n", "test.tsv");
    expect(read({ query: "how much is road car insurance for a pickup? i'm 26", language: "en", units: rows, taxonomy: road, lexicon })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("Driver 25–29: 1,080"), chunkIds: ["road#d"] }],
    });
  });

  it('reads a hyphenated label word as said whole when the question writes it joined ("pickup" is all of "Pick-up", more than the "Van" of its concept)', () => {
    const haulPrices: TableOf = {
      documentId: "haul",
      title: "Haul Cover – Prices",
      product: "haul",
      domain: "motor",
      section: "Prices",
      caption: "Annual premium",
      labelHeader: "Vehicle",
    };
    const row = (id: string, label: string, price: string) => tableRow(haulPrices, id, label, [["Price", price]]);
    const rows = [row("a", "Pick-up", "900"), row("b", "Van", "1,100"), row("c", "Saloon", "700"), row("d", "Motorcycle", "400")];
    const haul = tableTaxonomy(haulPrices, rows);
    const lexicon = parseConceptLexicon("commercial_vehicle\tvan | pickup | pick-up\tوانت\n", "test.tsv");
    expect(read({ query: "haul price for a pickup?", language: "en", units: rows, taxonomy: haul, lexicon })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("900"), chunkIds: ["haul#a"] }],
    });
  });

  it('of nested row labels, reads the one saying more of the question ("a villa with a pool" is not the plain "Villa")', () => {
    const keepRates: TableOf = {
      documentId: "keep",
      title: "Keep Building Cover – Rates",
      product: "keep",
      domain: "home",
      section: "Rates",
      caption: "Annual rate",
      labelHeader: "Property",
    };
    const row = (id: string, label: string, minimum: string) => tableRow(keepRates, id, label, [["Minimum premium", minimum]]);
    const rows = [row("a", "Apartment", "350"), row("b", "Villa", "650"), row("c", "Villa with private pool", "750")];
    const keep = tableTaxonomy(keepRates, rows);
    expect(read({ query: "what is keep's minimum premium for a villa with a pool?", language: "en", units: rows, taxonomy: keep })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("750"), chunkIds: ["keep#c"] }],
    });
    // A plain villa is still the plain villa's row.
    expect(read({ query: "what is keep's minimum premium for a villa?", language: "en", units: rows, taxonomy: keep })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["keep#b"] }],
    });
    // So is one the customer says has no pool («استخر نداره»): a denied word is no more of the question said.
    const kip: TableOf = { documentId: "kip", title: "بیمه ساختمان کیپ", product: "kip", domain: "home", section: "نرخ", caption: "نرخ سالانه", labelHeader: "نوع ملک" };
    const faRow = (id: string, label: string, minimum: string) => ({ ...tableRow(kip, id, label, [["حداقل حق بیمه", minimum]]), lang: "fa" as const });
    const faRows = [faRow("a", "آپارتمان", "350"), faRow("b", "ویلا", "650"), faRow("c", "ویلا با استخر اختصاصی", "750")];
    const kipTaxonomy = buildTaxonomy([{ id: "kip", title: kip.title, product: "kip", domain: "home", lang: "fa", text: faRows.map((r) => r.text).join("\n") }]);
    const faRead = (query: string) => read({ query, language: "fa", units: faRows, taxonomy: kipTaxonomy, context: query });
    expect(faRead("حداقل حق بیمه کیپ برای ویلا چقدره؟ استخر نداره")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["kip#b"] }] });
    expect(faRead("حداقل حق بیمه کیپ برای ویلای استخردار چقدره؟")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["kip#c"] }] });
  });

  it("answers each question of a message that asks two things of one row with that row's two cells", () => {
    const keepRates: TableOf = {
      documentId: "keep",
      title: "Keep Building Cover – Rates",
      product: "keep",
      domain: "home",
      section: "Rates",
      caption: "Annual rate",
      labelHeader: "Property",
    };
    const row = (id: string, label: string, rate: string, minimum: string) =>
      tableRow(keepRates, id, label, [
        ["Rate per 1,000 of rebuild value", rate],
        ["Minimum premium", minimum],
      ]);
    const rows = [row("a", "Apartment", "0.45", "350"), row("b", "Villa", "0.75", "650")];
    const keep = tableTaxonomy(keepRates, rows);
    const both = read({ query: "What is keep's rate for a villa? And the minimum premium?", language: "en", units: rows, taxonomy: keep });
    expect(both).toMatchObject({ kind: "answer", basis: "cell", claims: [{ chunkIds: ["keep#b"] }] });
    const text = both.kind === "answer" ? both.claims[0]!.text : "";
    expect(text).toContain("0.75");
    expect(text).toContain("650");
    // One question, one cell.
    const one = read({ query: "What is keep's minimum premium for a villa?", language: "en", units: rows, taxonomy: keep });
    expect(one.kind === "answer" ? one.claims[0]!.text : "").not.toContain("0.75");
  });

  it('does not put an age in a band of another unit ("20 km or more" is a distance, not 20 years and over)', () => {
    const useFactors: TableOf = {
      documentId: "lane-use",
      title: "Lane Car Insurance – Factors",
      product: "lane",
      domain: "motor",
      section: "Vehicle use",
      caption: "Vehicle use",
      labelHeader: "Use",
    };
    const row = (id: string, label: string, factor: string) => tableRow(useFactors, id, label, [["Factor", factor]]);
    const rows = [row("a", "Commute under 20 km one way", "×1.00"), row("b", "Commute 20 km or more one way", "×1.12"), row("c", "Business use", "×1.25")];
    const lane = tableTaxonomy(useFactors, rows);
    expect(read({ query: "i'm 28. what is lane's factor for business use?", language: "en", units: rows, taxonomy: lane })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("×1.25"), chunkIds: ["lane-use#c"] }],
    });
  });

  it("reads the row whose cells say the question's other words when the labels say the same of it, and a 'Saving' column as the discount", () => {
    const discounts: TableOf = {
      documentId: "wheel-discounts",
      title: "Wheel Auto – Discounts",
      product: "wheel",
      domain: "motor",
      section: "Discounts",
      caption: null,
      labelHeader: "Discount",
    };
    const row = (id: string, label: string, saving: string, condition: string) =>
      tableRow(discounts, id, label, [
        ["Saving", saving],
        ["Condition", condition],
      ]);
    const rows = [
      row("a", "Multi-line", "10%", "You also hold a Nook renters policy"),
      row("b", "Multi-vehicle", "12%", "Two or more vehicles on the same policy"),
      row("c", "Winter tires", "5%", "Four winter tires from December"),
    ];
    const pets = paragraph(
      { chunkId: "paw#p", product: "paw", domain: "pets", title: "Paw Pet Insurance", section: "Adding a pet" },
      "The 5% multi-pet discount applies automatically.",
    );
    const taxonomy = buildTaxonomy([
      { id: "wheel-discounts", title: discounts.title, product: "wheel", domain: "motor", lang: "en", text: rows.map((r) => r.text).join("\n") },
      { id: "nook", title: "Nook Renters Insurance", product: "nook", domain: "home", lang: "en", text: "Nook renters insurance covers your contents. Vehicles are not covered." },
      { id: "paw", title: "Paw Pet Insurance", product: "paw", domain: "pets", lang: "en", text: pets.text },
    ]);
    expect(read({ query: "is there a multi-policy discount if i have renters and auto?", language: "en", units: [...rows, pets], taxonomy })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("Saving: 10%"), chunkIds: ["wheel-discounts#a"] }],
    });
  });

  it('answers "how much X is covered" with the amount in X\'s row, a limit whatever the columns are called', () => {
    const plans: TableOf = { documentId: "nook", title: "Nook Home Contents", product: "nook", domain: "home", section: "Two plans", caption: null, labelHeader: "" };
    const row = (id: string, label: string, basic: string, gold: string) =>
      tableRow(plans, id, label, [
        ["Basic", basic],
        ["Gold", gold],
      ]);
    const rows = [row("a", "Cash at home", "AED 1,000", "AED 2,500"), row("b", "Jewellery", "AED 10,000", "AED 25,000")];
    const nook = buildTaxonomy([{ id: "nook", title: "Nook Home Contents", product: "nook", domain: "home", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    expect(read({ query: "how much cash at home is covered on nook gold?", language: "en", units: rows, taxonomy: nook })).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: expect.stringContaining("Gold: AED 2,500"), chunkIds: ["nook#a"] }],
    });
    // The asked word "limit" is covered by that amount too, over another table whose header says "limits".
    const deadlines: TableOf = { documentId: "nook-claims", title: "Nook Claims", product: "nook", domain: "home", section: "Deadlines", caption: null, labelHeader: "" };
    const other = tableRow(deadlines, "d", "Nook", [["Time limits", "report a theft of cash at home to the police within 24 hours"]]);
    expect(read({ query: "nook gold cash at home limit?", language: "en", units: [other, ...rows], taxonomy: nook })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["nook#a"] }],
    });
  });

  it("credits a stated age only to the row whose band holds it, not to a row its words picked", () => {
    const plans: TableOf = { documentId: "well", title: "Wellspring Medical", product: "wellspring", domain: "health", section: "Plans", caption: "Three plans", labelHeader: "" };
    const premiums: TableOf = { ...plans, section: "Premiums", caption: "Annual premium per person (AED)", labelHeader: "Age" };
    const limit = tableRow(plans, "l", "Annual limit per person", [
      ["Core", "AED 150,000"],
      ["Elite", "AED 5,000,000"],
    ]);
    const bands = [
      tableRow(premiums, "p1", "41–60", [
        ["Core", "4,100"],
        ["Elite", "15,200"],
      ]),
      tableRow(premiums, "p2", "61–65", [
        ["Core", "6,900"],
        ["Elite", "20,600"],
      ]),
    ];
    // The premium table is the real document's second table, so its rows are in a separate table key.
    const rows = bands.map((r) => ({ ...r, shape: { ...r.shape, table: "well:t1" } }) as ReadingUnit);
    const well = buildTaxonomy([
      { id: "well", title: "Wellspring Medical", product: "wellspring", domain: "health", lang: "en", text: [limit, ...rows].map((r) => r.text).join("\n") },
    ]);
    const verdict = read({
      query: "What would Wellspring Elite cost for him per year?",
      language: "en",
      units: [limit, ...rows],
      taxonomy: well,
      context: "My dad is 62. What would Wellspring Elite cost for him per year?",
    });
    expect(verdict).toMatchObject({ kind: "answer", basis: "cell", claims: [{ text: expect.stringContaining("20,600"), chunkIds: ["well#p2"] }] });
  });

  it("reads the row the customer's statement names instead of asking for it, and asks when the statement names it only in part", () => {
    const rates: TableOf = {
      documentId: "keel",
      title: "Keel Building Cover",
      product: "keel",
      domain: "home",
      section: "Rates",
      caption: "Keel annual rates",
      labelHeader: "Property",
    };
    const rows = [
      tableRow(rates, "a", "Apartment", [["Minimum annual premium", "AED 350"]]),
      tableRow(rates, "t", "Townhouse", [["Minimum annual premium", "AED 500"]]),
      tableRow(rates, "v", "Villa with pool", [["Minimum annual premium", "AED 750"]]),
    ];
    const keel = buildTaxonomy([{ id: "keel", title: "Keel Building Cover", product: "keel", domain: "home", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const ask = (context: string) => read({ query: "What would Keel cost me a year?", language: "en", units: rows, taxonomy: keel, context });
    expect(ask("I own a townhouse that I rent out. What would Keel cost me a year?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["keel#t"] }] });
    // "a villa" is only part of "Villa with pool": which row is still the customer's to say.
    expect(ask("I own a villa. What would Keel cost me a year?")).toMatchObject({ kind: "clarify_table" });
    expect(ask("What would Keel cost me a year?")).toMatchObject({ kind: "clarify_table" });
  });

  it('reads the row an earlier message of the conversation stated ("I have a 4-cylinder saloon") in a follow-up that says nothing of it', () => {
    const grid: TableOf = {
      documentId: "road",
      title: "Road Third-Party – Prices",
      product: "road",
      domain: "cars",
      section: "Annual price",
      caption: "Annual price (AED)",
      labelHeader: "Vehicle",
    };
    const rows = [
      tableRow(grid, "a", "Saloon / hatchback 4 cylinders", [
        ["Driver 18–24", "1,100"],
        ["25–29", "820"],
        ["60 years and over", "760"],
      ]),
      tableRow(grid, "b", "Saloon 6 cylinders", [
        ["Driver 18–24", "1,300"],
        ["25–29", "940"],
        ["60 years and over", "880"],
      ]),
    ];
    const road = buildTaxonomy([{ id: "road", title: grid.title, product: "road", domain: "cars", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const followUp = { query: "road third party price 63 years old", language: "en" as const, units: rows, taxonomy: road, context: "and if it's in my dad's name? he's 63" };
    expect(read({ ...followUp, earlier: "I have a 4 cylinder saloon and I'm 27. How much is Road third party a year?" })).toMatchObject({
      kind: "answer",
      claims: [{ text: "Annual price (AED) — Saloon / hatchback 4 cylinders — 60 years and over: 760" }],
    });
    // Without the earlier statement the row is asked for.
    expect(read(followUp)).toMatchObject({ kind: "clarify_table" });
  });

  it('takes a statement naming one of the words a slash joins for the label ("a hatchback" is "Saloon / hatchback")', () => {
    const vehicles: TableOf = {
      documentId: "lane",
      title: "Lane Third Party",
      product: "lane",
      domain: "motor",
      section: "Prices",
      caption: "Annual premium",
      labelHeader: "Vehicle",
    };
    const rows = [
      tableRow(vehicles, "s", "Saloon / hatchback", [["Premium", "AED 820"]]),
      tableRow(vehicles, "e", "Estate", [["Premium", "AED 900"]]),
      tableRow(vehicles, "x", "SUV/crossover", [["Premium", "AED 1,100"]]),
    ];
    const lane = buildTaxonomy([{ id: "lane", title: vehicles.title, product: "lane", domain: "motor", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const ask = (context: string) => read({ query: "What would Lane cost me a year?", language: "en", units: rows, taxonomy: lane, context });
    expect(ask("I drive a hatchback. What would Lane cost me a year?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["lane#s"] }] });
    expect(ask("It's a crossover. What would Lane cost me a year?")).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["lane#x"] }] });
    // Neither alternative said: the label is not named.
    expect(ask("I drive a car. What would Lane cost me a year?")).toMatchObject({ kind: "clarify_table" });
  });

  it("reads a grid whose page title says what its figures are, skips a column that does not apply (n/a), and knows a pet by another name", () => {
    const lexicon = parseConceptLexicon("rabbit\trabbit | rabbits | bunny | bunnies\tخرگوش\n");
    const grid: TableOf = {
      documentId: "paws",
      title: "Paws Pet Insurance – Monthly Prices",
      product: "paws",
      domain: "pets",
      section: "Rabbits",
      caption: null,
      labelHeader: "Age of pet",
    };
    const rows = [
      tableRow(grid, "r1", "2–4 years", [
        ["Scout (accident only)", "$9"],
        ["Guardian (accident & illness)", "n/a"],
      ]),
      tableRow(grid, "r2", "5–7 years", [
        ["Scout (accident only)", "$11"],
        ["Guardian (accident & illness)", "n/a"],
      ]),
    ];
    const paws = buildTaxonomy([
      { id: "paws", title: grid.title, product: "paws", domain: "pets", lang: "en", text: `# Rabbits\n${rows.map((r) => r.text).join("\n")}`, labels: "Rabbits" },
    ]);
    const verdict = read({
      query: "how much a month to insure my bunny?",
      language: "en",
      units: rows,
      taxonomy: paws,
      lexicon,
      context: "how much a month to insure my bunny? she's 6",
    });
    expect(verdict).toMatchObject({ kind: "answer", basis: "cell", claims: [{ text: expect.stringContaining("$11"), chunkIds: ["paws#r2"] }] });
  });

  it('does not put an age in a column that counts something else ("2 or more incidents")', () => {
    const grid: TableOf = {
      documentId: "road",
      title: "Road Auto – Premiums",
      product: "road",
      domain: "auto",
      section: "Annual premium by age band and driving record",
      caption: null,
      labelHeader: "Principal driver age",
    };
    const rows = [
      tableRow(grid, "a", "Under 25", [
        ["Clean record", "$3,480"],
        ["2 or more incidents", "$6,240"],
      ]),
      tableRow(grid, "b", "25–34", [
        ["Clean record", "$2,160"],
        ["2 or more incidents", "$3,960"],
      ]),
    ];
    const road = buildTaxonomy([{ id: "road", title: grid.title, product: "road", domain: "auto", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const verdict = read({
      query: "What's the annual premium for Road?",
      language: "en",
      units: rows,
      taxonomy: road,
      context: "I'm 28 with a clean driving record. What's the annual premium for Road?",
    });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ text: expect.stringContaining("Clean record: $2,160"), chunkIds: ["road#b"] }] });
  });

  it("asks which plan of a sublimit table whose amounts are in dollars, «ساعت» being a watch there, not opening hours", () => {
    const grid: TableOf = { documentId: "keel", title: "بیمه واحد کیل", product: "keel", domain: "home", section: "سقف‌های فرعی", caption: null, labelHeader: "نوع مال" };
    const rows = [
      tableRow(grid, "j", "جواهرات و ساعت (سرقت)", [
        ["کیل استاندارد", "۲٬۰۰۰ دلار"],
        ["کیل کامل", "۶٬۰۰۰ دلار"],
      ]),
      tableRow(grid, "b", "دوچرخه", [
        ["کیل استاندارد", "۱٬۰۰۰ دلار"],
        ["کیل کامل", "۳٬۰۰۰ دلار"],
      ]),
    ].map((r) => ({ ...r, lang: "fa" as const }));
    const keel = buildTaxonomy([{ id: "keel", title: grid.title, product: "keel", domain: "home", lang: "fa", text: rows.map((r) => r.text).join("\n") }]);
    const verdict = read({ query: "سقف پوشش سرقت جواهرات و ساعت چقدره؟", language: "fa", units: rows, taxonomy: keel });
    expect(verdict).toMatchObject({ kind: "clarify_table", options: [{ label: "کیل استاندارد" }, { label: "کیل کامل" }] });
    // The plan named, the cell answers.
    expect(read({ query: "سقف سرقت جواهرات و ساعت در کیل کامل چقدره؟", language: "fa", units: rows, taxonomy: keel })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("۶٬۰۰۰ دلار"), chunkIds: ["keel#j"] }],
    });
  });

  it("does not answer a limit with a passage whose only figures are lengths of time", () => {
    const deadline: ReadingUnit = {
      ...base,
      domain: "homes",
      chunkId: "nest#d",
      documentId: "nest",
      title: "Nest Home Cover",
      product: "nest",
      sectionPath: ["Time limits"],
      text: "Report a theft to the police within 48 hours.",
      shape: { kind: "paragraph" },
    };
    const nest = buildTaxonomy([{ id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: `# Time limits\n${deadline.text}` }]);
    expect(read({ query: "what is the theft limit on nest?", language: "en", units: [deadline], taxonomy: nest }).kind).toBe("insufficient");
    // Asked for a length of time, the same passage answers.
    expect(read({ query: "what is the time limit to report a theft on nest?", language: "en", units: [deadline], taxonomy: nest }).kind).toBe("answer");
  });

  it("answers a question about a dog from a passage about pets; a passage about dogs covers a pet question no better than its words", () => {
    const lexicon = parseConceptLexicon("pet\tpet | pets\tحیوان خانگی\ndog\tdog | dogs\tسگ\tpet\nvet\tvet | veterinary\tدامپزشک");
    const unit = (id: string, text: string): ReadingUnit => ({
      ...base,
      domain: "pets",
      chunkId: `paws#${id}`,
      documentId: "paws",
      title: "Paws Cover",
      product: "paws",
      sectionPath: ["Claims"],
      text,
      shape: { kind: "paragraph" },
    });
    const pets = unit("p", "Send us the vet invoice for your pet within 180 days of the treatment.");
    const dogs = unit("d", "Send us the vet invoice for your dog within 90 days of the treatment.");
    const paws = buildTaxonomy([{ id: "paws", title: "Paws Cover", product: "paws", domain: "pets", lang: "en", text: `${pets.text}\n${dogs.text}` }]);
    const ask = (query: string, units: ReadingUnit[]) => read({ query, language: "en", units, taxonomy: paws, lexicon });
    expect(ask("within how many days must I send the vet invoice for my dog?", [pets])).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["paws#p"] }] });
    // Both there: the passage that names the dog itself is the better answer.
    expect(ask("within how many days must I send the vet invoice for my dog?", [pets, dogs])).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["paws#d"] }] });
    // The relation holds one way: "pets" asked of the dog passage gets no credit from it.
    const petScore = ask("within how many days must I send the vet invoice for my pet?", [dogs]);
    const dogScore = ask("within how many days must I send the vet invoice for my dog?", [pets]);
    expect(petScore.coverage).toBeLessThan(dogScore.coverage);
  });

  it("answers with the whole row a question picked when the other columns are its fields (Number | Hours), and asks when they are alternatives", () => {
    const lines: TableOf = { documentId: "care", title: "Contact Us", product: "care", domain: "care", section: "Phone lines", caption: "Phone lines", labelHeader: "Line" };
    const rows = [
      tableRow(lines, "c", "Customer service", [
        ["Number", "+1 416 555 0100"],
        ["Hours", "Mon–Fri 8:00–20:00"],
      ]),
      tableRow(lines, "t", "TTY (hearing impaired)", [
        ["Number", "+1 416 555 0109"],
        ["Hours", "Mon–Fri 8:00–20:00"],
      ]),
    ];
    const care = buildTaxonomy([{ id: "care", title: "Contact Us", product: "care", domain: "care", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    expect(read({ query: "Do you have a TTY line for people who are hard of hearing?", language: "en", units: rows, taxonomy: care })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("Number: +1 416 555 0109; Hours: Mon–Fri 8:00–20:00"), chunkIds: ["care#t"] }],
    });
    // Plans are alternatives: the row alone does not say which price.
    expect(reading("how much is the 8–15 days trip?", prices).kind).toBe("clarify_table");
  });

  it("picks, of two rows whose words the question all uses, the one saying more of it, and answers when every plan's cell is the same", () => {
    const excess: TableOf = { documentId: "nest", title: "Nest Contents Cover", product: "nest", domain: "homes", section: "Excess", caption: null, labelHeader: "Claim type" };
    const rows = [
      tableRow(excess, "m", "Most claims", [
        ["Standard", "AED 500"],
        ["Gold", "AED 250"],
      ]),
      tableRow(excess, "w", "Water damage", [
        ["Standard", "AED 1,000"],
        ["Gold", "AED 1,000"],
      ]),
      tableRow(excess, "a", "Accidental damage", [
        ["Standard", "—"],
        ["Gold", "AED 250"],
      ]),
    ];
    const nest = buildTaxonomy([{ id: "nest", title: excess.title, product: "nest", domain: "homes", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    const ask = (query: string) => read({ query, language: "en", units: rows, taxonomy: nest });
    // "Most claims" is all "claim" to the question, "Water damage" all "water damage": the latter says more of it.
    expect(ask("What excess would I pay on a water damage claim?")).toMatchObject({
      kind: "answer",
      basis: "cell",
      claims: [{ text: "Water damage — Standard / Gold: AED 1,000", chunkIds: ["nest#w"] }],
    });
    // Where the plans differ, which plan still matters.
    expect(ask("What excess would I pay on most claims?")).toMatchObject({ kind: "clarify_table", options: [{ label: "Standard" }, { label: "Gold" }] });
  });

  it("reads a general page's row naming a product as speaking of the words only that product's pages use (vet → the pet row)", () => {
    const deadlines: TableOf = {
      documentId: "claims",
      title: "Claims Guide",
      product: "claims",
      domain: "care",
      section: "Deadlines",
      caption: "Deadlines",
      labelHeader: "Product",
    };
    const rows = [
      tableRow(deadlines, "p", "Paws pet", [["Send the claim form", "Within 180 days of the treatment date"]]),
      tableRow(deadlines, "r", "Road car", [["Send the claim form", "Within 30 days of the loss"]]),
      tableRow(deadlines, "t", "Trip travel", [["Send the claim form", "Within 90 days of treatment"]]),
      tableRow(deadlines, "n", "Nest home", [["Send the claim form", "Within 60 days of the loss"]]),
      tableRow(deadlines, "b", "Beacon life", [["Send the claim form", "Within 1 year of the death"]]),
    ];
    const six = buildTaxonomy([
      doc("paws", "paws", "pets", "Paws Pet Cover", "Paws pays vet bills for your pet. Every vet visit counts."),
      doc("road", "road", "cars", "Road Car Cover", "Road pays repair bills for your car."),
      doc("trip", "trip", "trips", "Trip Travel Cover", "Trip pays hospital bills abroad."),
      doc("nest", "nest", "homes", "Nest Home Cover", "Nest covers your house."),
      doc("beacon", "beacon", "lives", "Beacon Life Cover", "Beacon pays your family."),
      doc("claims", "claims", "care", "Claims Guide", rows.map((r) => r.text).join("\n")),
    ]);
    expect(six.products.find((p) => p.product === "claims")?.general).toBe(true);
    const lexicon = parseConceptLexicon("pet\tpet | pets\tحیوان خانگی\ndog\tdog | dogs\tسگ\tpet\n");
    expect(read({ query: "how long do i have to send the vet bills for my dog?", language: "en", units: rows, taxonomy: six, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("Within 180 days"), chunkIds: ["claims#p"] }],
    });
    // "treatment" is in two products' rows; "vet" tells them apart, so no product is asked for.
    expect(read({ query: "how long do i have to send the vet bills after my dog's treatment?", language: "en", units: rows, taxonomy: six, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["claims#p"] }],
    });
    // A product's own page gets no such credit: its words are there or not.
    const own: ReadingUnit = {
      ...base,
      domain: "pets",
      chunkId: "paws#x",
      documentId: "paws",
      title: "Paws Pet Cover",
      product: "paws",
      sectionPath: ["Claims"],
      text: "Paws claims are paid within 10 days.",
      shape: { kind: "paragraph" },
    };
    expect(read({ query: "how long do i have to send the vet bills for my dog?", language: "en", units: [own], taxonomy: six, lexicon })).toMatchObject({
      kind: "insufficient",
      reason: expect.stringMatching(/missing: .*\bvet\b/u),
    });
  });

  it("asks which product when a general page's table gives the asked attribute per product and the question's words suit several rows, with the rows as options", () => {
    const deadlines: TableOf = {
      documentId: "claims",
      title: "Claims Guide",
      product: "claims",
      domain: "care",
      section: "Deadlines",
      caption: "Deadlines by product",
      labelHeader: "Product",
    };
    const rows = [
      tableRow(deadlines, "v", "Vita Family Medical", [
        ["Tell us within", "Planned treatment: 48 hours before"],
        ["Other time limits", "Reimbursement claims within 90 days of treatment"],
      ]),
      tableRow(deadlines, "r", "Rova Visitor Medical", [
        ["Tell us within", "Emergency admission: within 24 hours"],
        ["Other time limits", "Reimbursement claims within 60 days of treatment"],
      ]),
      tableRow(deadlines, "k", "Kado Car", [
        ["Tell us within", "7 days of the accident"],
        ["Other time limits", "Police report for every claim"],
      ]),
      tableRow(deadlines, "j", "Jula Car", [
        ["Tell us within", "7 days of the accident"],
        ["Other time limits", "Police report for every claim"],
      ]),
    ];
    const vitaOwn = paragraph(
      { chunkId: "vita#n", product: "vita", domain: "health", title: "Vita Family Medical – Benefits", section: "Notes" },
      "Reimbursement claims must reach us within 90 days of the treatment date.",
    );
    const five = buildTaxonomy([
      doc("vita", "vita", "health", "Vita Family Medical – Benefits", vitaOwn.text),
      doc("rova", "rova", "visitors", "Rova Visitor Medical", "Rova covers visitors."),
      doc("kado", "kado", "cars", "Kado Car Cover", "Kado covers your car."),
      doc("jula", "jula", "cars", "Jula Car Cover", "Jula covers other people's cars."),
      doc("claims", "claims", "care", "Claims Guide", rows.map((r) => r.text).join("\n")),
      // Pages that do not name their brand: a name is in few of a tenant's pages.
      doc("vita-faq", "vita", "health", "Questions about treatment", "Treatment abroad is paid back."),
      doc("kado-faq", "kado", "cars", "Questions about repairs", "Repairs are done at approved garages."),
    ]);
    expect(five.products.find((p) => p.product === "claims")?.general).toBe(true);
    const ask = (query: string) => read({ query, language: "en", units: [vitaOwn, ...rows], taxonomy: five });
    expect(ask("how long do I have to send in a medical claim for reimbursement?")).toMatchObject({
      kind: "clarify_products",
      options: [
        { label: "Vita Family Medical", product: "vita", documentId: "claims" },
        { label: "Rova Visitor Medical", product: "rova", documentId: "claims" },
      ],
    });
    // The pick: the row named, and of its two deadline columns the cell that says the question's words.
    expect(ask("how long do I have to send in a medical claim for reimbursement? Rova Visitor Medical")).toMatchObject({
      kind: "answer",
      claims: [{ text: "Deadlines by product — Rova Visitor Medical — Other time limits: Reimbursement claims within 60 days of treatment", chunkIds: ["claims#r"] }],
    });
    // A product the question names by its name is answered.
    expect(ask("how long do I have to send a Vita medical reimbursement claim?")).toMatchObject({ kind: "answer" });
    // Rows that say the same answer alike: no question.
    expect(ask("how long do I have to tell you about a car accident?")).toMatchObject({ kind: "answer", claims: [{ text: expect.stringContaining("7 days of the accident") }] });
  });

  it("asks among a general page's product columns when one of them is the best answer's product and they say different things", () => {
    const missed: TableOf = {
      documentId: "billing",
      title: "Payments and Billing",
      product: "billing",
      domain: "care",
      section: "Missed payments",
      caption: "Missed payments",
      labelHeader: "",
    };
    const rows = [
      tableRow(missed, "g", "Grace period", [
        ["Home, auto and pet", "15 days after the missed payment"],
        ["Beacon term life", "31 days after the missed payment"],
      ]),
      tableRow(missed, "f", "Returned payment fee", [
        ["Home, auto and pet", "$45"],
        ["Beacon term life", "$45"],
      ]),
    ];
    const lifeOwn = paragraph(
      { chunkId: "beacon#c", product: "beacon", domain: "life", title: "Beacon Term Life", section: "Important conditions" },
      "Grace period: 31 days after a missed payment; coverage continues during the grace period.",
    );
    const tenant = buildTaxonomy([
      doc("beacon", "beacon", "life", "Beacon Term Life", lifeOwn.text),
      doc("beacon-rates", "beacon", "life", "Rates", "Monthly rates per age."),
      doc("nest", "nest", "home", "Nest Home Cover", "Nest covers your home."),
      doc("road", "road", "auto", "Road Auto Cover", "Road covers your car."),
      doc("paws", "paws", "pet", "Paws Pet Cover", "Paws covers your pet."),
      doc("billing", "billing", "care", "Payments and Billing", `Nest, Road, Paws and Beacon premiums. ${rows.map((r) => r.text).join("\n")}`),
      // Pages that do not name their brand: a name is in few of a tenant's pages.
      doc("nest-prices", "nest", "home", "Home prices", "Prices by home value."),
      doc("road-prices", "road", "auto", "Auto prices", "Prices by driver age."),
      doc("paws-prices", "paws", "pet", "Pet prices", "Prices by pet age."),
    ]);
    expect(tenant.products.find((p) => p.product === "billing")?.general).toBe(true);
    const ask = (query: string, units: readonly ReadingUnit[]) => read({ query, language: "en", units, taxonomy: tenant });
    expect(ask("How many days grace do I get if I miss a payment?", [lifeOwn, ...rows])).toMatchObject({
      kind: "clarify_table",
      options: [
        { label: "Home, auto and pet", documentId: "billing" },
        { label: "Beacon term life", documentId: "billing" },
      ],
    });
    // The columns saying the same ask nothing.
    expect(ask("What is the returned payment fee for Beacon?", [{ ...lifeOwn, text: "A returned payment costs $45." }, ...rows])).toMatchObject({ kind: "answer" });
  });

  it("does not answer a question naming one product with a passage of its page that is about another product", () => {
    const page = { ...base, documentId: "voyager-faq", title: "Voyager Travel Cover – FAQ", product: "voyager", sectionPath: ["FAQ"], shape: { kind: "paragraph" as const } };
    const other: ReadingUnit = { ...page, chunkId: "voyager-faq#1", text: "Nest covers lost luggage at home up to AED 5,000, but not abroad." };
    const own: ReadingUnit = { ...page, chunkId: "voyager-faq#2", text: "Voyager pays up to AED 3,000 for luggage the airline loses." };
    const tenant = buildTaxonomy([
      { id: "trip-prices", title: "Voyager Travel Cover – Prices", product: "voyager", domain: "trips", lang: "en", text: prices.map((p) => p.text).join("\n") },
      { id: "voyager-faq", title: page.title, product: "voyager", domain: "trips", lang: "en", text: `${other.text}\n${own.text}` },
      { id: "nest", title: "Nest Home Cover", product: "nest", domain: "homes", lang: "en", text: homePrice.text },
      // Other products: a name is in few of a tenant's pages.
      { id: "paws", title: "Paws Pet Cover", product: "paws", domain: "pets", lang: "en", text: "Paws pays vet bills." },
      { id: "road", title: "Road Car Cover", product: "road", domain: "cars", lang: "en", text: "Road pays for repairs." },
      { id: "beacon", title: "Beacon Life Cover", product: "beacon", domain: "lives", lang: "en", text: "Beacon pays your family." },
    ]);
    const ask = (units: readonly ReadingUnit[]) => read({ query: "what is the most voyager pays for lost luggage?", language: "en", units, taxonomy: tenant });
    expect(ask([other, own])).toMatchObject({ kind: "answer", claims: [{ chunkIds: ["voyager-faq#2"] }] });
    // Alone, it is no answer for Voyager.
    expect(ask([other]).kind).not.toBe("answer");
  });

  it("prefers a cell under a header naming the asked attribute to a sentence only a little better ('Annual premium: $312' over an add-on's '$45 per year')", () => {
    const premiums: TableOf = {
      documentId: "nest",
      title: "Nest Renters – Plans",
      product: "nest",
      domain: "homes",
      section: "Premiums",
      caption: "Premiums",
      labelHeader: "Plan",
    };
    const rows = [tableRow(premiums, "e", "Essential", [["Annual premium", "$240"]]), tableRow(premiums, "p", "Plus", [["Annual premium", "$312"]])];
    const addOn: ReadingUnit = {
      ...base,
      domain: "homes",
      chunkId: "nest#s",
      documentId: "nest",
      title: premiums.title,
      product: "nest",
      sectionPath: ["Add-ons"],
      text: "Sewer backup endorsement for Plus: $45 per year.",
      shape: { kind: "paragraph" },
    };
    const nest = buildTaxonomy([{ id: "nest", title: premiums.title, product: "nest", domain: "homes", lang: "en", text: [...rows.map((r) => r.text), addOn.text].join("\n") }]);
    const lexicon = parseConceptLexicon("year\tyear | years | annual | yearly\tسال | سالانه\n");
    const verdict = read({ query: "how much is nest plus per year?", language: "en", units: [addOn, ...rows], taxonomy: nest, lexicon });
    expect(verdict).toMatchObject({ kind: "answer", claims: [{ text: expect.stringContaining("Annual premium: $312"), chunkIds: ["nest#p"] }] });
  });

  it('does not take a word of page titles ("… – Plans and Prices", "… – Plans and Benefits") for the name of the products that have it', () => {
    const unit = (id: string, product: string, title: string, text: string): ReadingUnit => ({
      ...base,
      domain: product,
      chunkId: `${product}#${id}`,
      documentId: product,
      title,
      product,
      sectionPath: ["Cover"],
      text,
      shape: { kind: "paragraph" },
    });
    const nest = unit("s", "nest", "Nest Renters – Plans and Prices", "Sewer backup is an optional endorsement on Plus for $45 per year.");
    const paws = unit("w", "paws", "Paws Pet – Plans and Benefits", "Paws covers vet bills for accidents and illness.");
    // Two of four products have "Plans" in a title: few enough for a word to name them, were it a name.
    const four = buildTaxonomy([
      { id: "nest", title: nest.title, product: "nest", domain: "nest", lang: "en", text: nest.text },
      { id: "paws", title: paws.title, product: "paws", domain: "paws", lang: "en", text: paws.text },
      { id: "road", title: "Road Auto Cover", product: "road", domain: "road", lang: "en", text: "Road covers your car." },
      { id: "life", title: "Beacon Term Life", product: "life", domain: "life", lang: "en", text: "Beacon pays your family." },
    ]);
    expect(read({ query: "Is sewer backup covered? I'm on the Plus plan.", language: "en", units: [nest, paws], taxonomy: four })).toMatchObject({
      kind: "answer",
      claims: [{ chunkIds: ["nest#s"] }],
    });
  });

  it("takes two words the lexicon knows as one thing for what is asked about («ساعت هوشمند» is a smartwatch, not an hour)", () => {
    const lexicon = parseConceptLexicon("watch\twatch | smartwatch\tساعت مچی | ساعت هوشمند\nhour\thour | hours\tساعت\n");
    const unit: ReadingUnit = {
      ...base,
      lang: "fa",
      domain: "claims",
      chunkId: "claims#d",
      documentId: "claims",
      title: "اعلام خسارت",
      product: "claims",
      sectionPath: ["مهلت‌ها"],
      text: "سرقت باید حداکثر ظرف ۴۸ ساعت به پلیس گزارش شود و سقف آن ۱۰ روز است.",
      shape: { kind: "paragraph" },
    };
    const claims = buildTaxonomy([{ id: "claims", title: unit.title, product: "claims", domain: "claims", lang: "fa", text: unit.text }]);
    expect(read({ query: "سقف بیمه ساعت هوشمند چقدر است؟", language: "fa", units: [unit], taxonomy: claims, lexicon })).toMatchObject({
      kind: "insufficient",
      reason: expect.stringContaining("ساعت هوشمند"),
    });
  });

  it("reads the sibling label the customer said every word of, when it holds all of the picked one's words and more (non-smoker)", () => {
    const { rows, beacon } = beaconRates();
    const ask = (context: string) => read({ query: "How much would Beacon Term 20 cost per month?", language: "en", units: rows, taxonomy: beacon, context });
    expect(ask("I'm 35, non-smoker. How much would Beacon Term 20 cost per month?")).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("non-smoker: $7.30") }],
    });
    // Said nothing of smoking: the question's own words pick, as before.
    expect(ask("I'm 35. How much would Beacon Term 20 cost per month?")).toMatchObject({ kind: "answer", claims: [{ text: expect.stringContaining("Term 20 smoker: $16.80") }] });
  });

  it("reads a denial as the negated label of a table that splits on one (\"I don't smoke\" is the non-smoker column), in the query or the customer's words", () => {
    const { rows, beacon } = beaconRates();
    const ask = (query: string, context?: string) => read({ query, language: "en", units: rows, taxonomy: beacon, ...(context === undefined ? {} : { context }) });
    const says = (value: string) => ({ kind: "answer", claims: [{ text: expect.stringContaining(value) }] });
    expect(ask("How much is Beacon Term 20 a month for a 35 year old smoker?")).toMatchObject(says("Term 20 smoker: $16.80"));
    expect(ask("I'm 35 and I don't smoke. How much is Beacon Term 20 a month?")).toMatchObject(says("non-smoker: $7.30"));
    expect(ask("How much is Beacon Term 20 a month?", "Hi, I'm 44 and I've never smoked. How much is Beacon Term 20 a month?")).toMatchObject(says("non-smoker: $12.10"));
    // A denial of something else, in another sentence, picks nothing.
    expect(ask("I don't know my plan. How much is Beacon Term 20 a month for a 35 year old smoker?")).toMatchObject(says("Term 20 smoker: $16.80"));
  });

  it('rules out a plan the question names only to exclude ("not the plus one")', () => {
    const plain: TableOf = {
      documentId: "mehr",
      title: "Mehr Visitor – Prices",
      product: "mehr",
      domain: "visit",
      section: "Table 1 – Mehr",
      caption: "Table 1 – Mehr",
      labelHeader: "Age",
    };
    const plus: TableOf = { ...plain, section: "Table 2 – Mehr Plus", caption: "Table 2 – Mehr Plus" };
    const rows = [
      { ...tableRow(plain, "a", "41–60", [["90 days", "480"]]), shape: { ...tableRow(plain, "a", "41–60", [["90 days", "480"]]).shape, table: "mehr:t0" } },
      { ...tableRow(plus, "b", "41–60", [["90 days", "670"]]), shape: { ...tableRow(plus, "b", "41–60", [["90 days", "670"]]).shape, table: "mehr:t1" } },
    ] as ReadingUnit[];
    const mehr = buildTaxonomy([
      { id: "mehr", title: plain.title, product: "mehr", domain: "visit", lang: "en", text: rows.map((r) => r.text).join("\n"), labelSets: [["Regular", "Plus"]] },
    ]);
    expect(read({ query: "How much is the regular Mehr (not the plus one) for 90 days for a 45 year old?", language: "en", units: rows, taxonomy: mehr })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("480") }],
    });
    // "no plus" says the same; "no claims" names no plan, so it rules nothing out.
    expect(read({ query: "How much is Mehr for 90 days for a 45 year old, no plus?", language: "en", units: rows, taxonomy: mehr })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("480") }],
    });
  });

  /** A premium grid by driver age and driving record, and a lexicon where a speeding ticket is a conviction. */
  function roadPremiums() {
    const lexicon = parseConceptLexicon(
      "traffic_violation\ttraffic violation | conviction | convictions\tتخلف\nspeeding\tspeeding | speeding ticket\tسرعت غیرمجاز\ttraffic_violation\n",
    );
    const grid: TableOf = {
      documentId: "road",
      title: "Road Auto – Premiums",
      product: "road",
      domain: "auto",
      section: "Annual premium by driving record",
      caption: null,
      labelHeader: "Driver age",
    };
    const rows = [
      tableRow(grid, "a", "25–34", [
        ["Clean record", "$2,160"],
        ["1 minor conviction", "$2,520"],
        ["1 at-fault accident", "$2,990"],
      ]),
      tableRow(grid, "b", "35–49", [
        ["Clean record", "$1,800"],
        ["1 minor conviction", "$2,100"],
        ["1 at-fault accident", "$2,500"],
      ]),
    ];
    const road = buildTaxonomy([{ id: "road", title: grid.title, product: "road", domain: "auto", lang: "en", text: rows.map((r) => r.text).join("\n") }]);
    return { lexicon, rows, road };
  }

  it("picks the column whose label names the broader concept of a question word (a speeding ticket is a conviction)", () => {
    const { lexicon, rows, road } = roadPremiums();
    expect(read({ query: "what is the Road annual premium at 28 with a speeding ticket?", language: "en", units: rows, taxonomy: road, lexicon })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("1 minor conviction: $2,520") }],
    });
  });

  it("takes the option the message says in other words before the question ('I'm 28 with a speeding ticket. What's the premium?')", () => {
    const { lexicon, rows, road } = roadPremiums();
    // The offline rewrite keeps the question; the message is the context.
    const ask = (context: string) => read({ query: "What's the Road annual premium?", language: "en", units: rows, taxonomy: road, lexicon, context });
    expect(ask("I'm 28 with a speeding ticket. What's the Road annual premium?")).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("25–34 — 1 minor conviction: $2,520") }],
    });
    // Nothing of the record said: the question is asked with the table's own labels.
    expect(ask("I'm 28. What's the Road annual premium?")).toMatchObject({
      kind: "clarify_table",
      options: [{ label: "Clean record" }, { label: "1 minor conviction" }, { label: "1 at-fault accident" }],
    });
  });

  it("reads a picked cell together with the running text of its table's section (whom and when the table pays)", () => {
    const table = (documentId: string, section: string, limit: string) => {
      const t: TableOf = { documentId, title: "Road Auto – What's Covered", product: "road", domain: "auto", section, caption: null, labelHeader: "Benefit" };
      return {
        ...tableRow(t, "m", "Medical and rehabilitation", [["Standard limit", limit]]),
        shape: { ...tableRow(t, "m", "Medical and rehabilitation", [["Standard limit", limit]]).shape, table: `${documentId}:t0` },
      } as ReadingUnit;
    };
    const paragraph = (documentId: string, section: string, text: string): ReadingUnit => ({
      ...base,
      domain: "auto",
      chunkId: `${documentId}#p`,
      documentId,
      title: "Road Auto – What's Covered",
      product: "road",
      sectionPath: [section],
      text,
      shape: { kind: "paragraph" },
    });
    const units = [
      paragraph("road-b", "Travel medical", "Pays your medical bills when you fall ill abroad."),
      table("road-b", "Travel medical", "$10,000"),
      paragraph("road-a", "Accident benefits", "Pays benefits to you and your passengers if injured in a collision."),
      table("road-a", "Accident benefits", "$65,000"),
    ];
    const road = buildTaxonomy(
      ["road-a", "road-b"].map((id) => ({
        id,
        title: "Road Auto – What's Covered",
        product: "road",
        domain: "auto",
        lang: "en" as const,
        text: units
          .filter((u) => u.documentId === id)
          .map((u) => u.text)
          .join("\n"),
      })),
    );
    const query = "If my passenger is injured in a collision, how much does Road pay for medical and rehabilitation?";
    expect(read({ query, language: "en", units, taxonomy: road })).toMatchObject({
      kind: "answer",
      claims: [{ text: expect.stringContaining("$65,000"), chunkIds: ["road-a#m"] }],
    });
  });
});
