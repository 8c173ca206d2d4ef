import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { crossScriptAliases, productsNamed } from "../../src/domain/taxonomy.js";
import { loadCorpusDir } from "../../src/retrieval/index.js";
import { buildTaxonomy, labelSetsOf, type TaxonomyDocument } from "../../src/retrieval/taxonomy.js";
import { createTaxonomyCache } from "../../src/retrieval/taxonomy-cache.js";
import type { Chunk } from "../../src/retrieval/index.js";
import { analyze } from "../../src/text/analysis/index.js";

async function taxonomyOf(dir: string) {
  const { documents } = await loadCorpusDir(path.join(PACKAGE_ROOT, dir), { tenantId: "t" });
  return buildTaxonomy(documents.map((d) => ({ ...d, text: d.body })));
}

describe("the tenant's taxonomy, built from its documents", () => {
  it("takes domains and products from the bundled corpus and finds its general pages", async () => {
    const t = await taxonomyOf("data/corpus");
    expect(t.domains).toEqual(["device", "general", "health", "home", "life", "motor", "travel"]);
    expect(t.products.filter((p) => p.general).map((p) => p.product)).toEqual(["claims-procedure", "complaints", "contact-hours", "payments", "renewal-cancellation"]);
    expect(t.products.find((p) => p.product === "motor-body")).toMatchObject({ domain: "motor", languages: ["en", "fa"], documentIds: ["motor-body-en", "motor-body-fa"] });
  });

  it("does the same, unchanged, for an insurer nobody tuned it on: its own slugs, general section and one-language products", async () => {
    const t = await taxonomyOf("eval/insurers/sadaf-assurance/corpus");
    expect(t.domains).toEqual(["customer-care", "gadget", "journey", "medical", "property", "vehicle"]);
    expect(t.products.filter((p) => p.general).map((p) => p.domain)).toEqual(Array(6).fill("customer-care"));
    expect(t.products.find((p) => p.product === "mehr-visitor")?.languages).toEqual(["fa"]);
    expect(t.products.find((p) => p.product === "gadgetguard")?.languages).toEqual(["en"]);
    // Products are named in either language, by their brand and by their slug.
    expect(productsNamed(t, analyze("how much is rahvar gold?")).map((p) => p.product)).toEqual(["rahvar-comprehensive"]);
    expect(productsNamed(t, analyze("بیمه رهوار طلایی چند است")).map((p) => p.product)).toEqual(["rahvar-comprehensive"]);
    expect(productsNamed(t, analyze("mehr visitor insurance for my mother")).map((p) => p.product)).toEqual(["mehr-visitor"]);
  });

  it("keeps the terms only one line of business's documents use, counting no general page", () => {
    const doc = (id: string, product: string, domain: string, title: string, text: string): TaxonomyDocument => ({ id, product, domain, title, lang: "en", text });
    const t = buildTaxonomy([
      doc("p", "paws", "pets", "Paws Pet Cover", "Paws pays vet bills. Every vet visit counts. Surgery is covered."),
      doc("c", "road", "cars", "Road Car Cover", "Road pays repair bills. Surgery after a crash is a medical benefit. Towing, towing."),
      doc("t", "trip", "trips", "Trip Cover", "Trip pays hospital bills."),
      doc("h", "nest", "homes", "Nest Home Cover", "Nest covers your house."),
      doc("l", "beacon", "lives", "Beacon Life Cover", "Beacon pays your family."),
      doc("g", "claims", "care", "Claims Guide", "Paws: send the vet invoice. Road: call us. Trip: call assistance. Nest: photos. Beacon: certificate."),
    ]);
    expect(t.products.filter((p) => p.general).map((p) => p.product)).toEqual(["claims"]);
    // "vet" twice in the pet pages (and on the general page, which does not count); "bill" in all three; "surgery" in two.
    expect(t.domainTerms.get(analyze("vet")[0]!)).toBe("pets");
    expect(t.domainTerms.get(analyze("towing")[0]!)).toBe("cars");
    expect(t.domainTerms.has(analyze("bills")[0]!)).toBe(false);
    expect(t.domainTerms.has(analyze("surgery")[0]!)).toBe(false);
    // Used once ("visit"): not yet what the line is about.
    expect(t.domainTerms.has(analyze("visit")[0]!)).toBe(false);
  });

  it("keeps apart the words product pages name things with (titles, headings, labels) from those they merely keep using", () => {
    const doc = (id: string, product: string, domain: string, title: string, text: string, labels: string): TaxonomyDocument => ({
      id,
      product,
      domain,
      title,
      lang: "en",
      text,
      labels,
    });
    const t = buildTaxonomy([
      doc("r", "nest", "home", "Nest Renters", "Call the Persian desk. The Persian desk helps. Persian, Persian.", "Compare the plans\nBicycles and e-bikes"),
      doc("c", "road", "cars", "Road Car Cover", "Road pays repair bills.", "Deductibles"),
    ]);
    expect(t.labelVocabulary.has("bike")).toBe(true);
    expect(t.labelVocabulary.has("nest")).toBe(true);
    expect(t.productVocabulary.has("persian")).toBe(true);
    expect(t.labelVocabulary.has("persian")).toBe(false);
  });

  it("keeps a name term only if no other product's names have it", () => {
    const doc = (id: string, product: string, domain: string, title: string): TaxonomyDocument => ({ id, product, domain, title, lang: "en", text: title });
    const t = buildTaxonomy([doc("a", "car-basic", "car", "Car Basic Cover"), doc("b", "car-plus", "car", "Car Plus Cover"), doc("c", "home", "home", "Home Cover")]);
    expect(t.products.find((p) => p.product === "car-basic")?.nameTerms).toEqual(analyze("basic"));
    expect(t.products.find((p) => p.product === "car-plus")?.nameTerms).toEqual(analyze("plus"));
    expect(t.products.every((p) => !p.general)).toBe(true);
  });

  it('takes no word of what a page states for a name (a title\'s «قیمت‌ها», "Prices")', () => {
    const doc = (id: string, product: string, domain: string, title: string, lang: "en" | "fa" = "en"): TaxonomyDocument => ({ id, product, domain, title, lang, text: "" });
    const t = buildTaxonomy([
      doc("a", "paws", "pets", "Paws Pet Cover – Prices"),
      doc("b", "paws", "pets", "بیمه حیوانات پاوز – قیمت‌ها", "fa"),
      doc("c", "nest", "homes", "Nest Home Cover"),
      doc("d", "nest", "homes", "بیمه خانه نست", "fa"),
      doc("e", "road", "cars", "Road Car Cover"),
      doc("f", "road", "cars", "بیمه خودرو رود", "fa"),
    ]);
    const paws = t.products.find((p) => p.product === "paws")!.nameTerms;
    expect(paws).toContain(analyze("paws")[0]);
    for (const word of [...analyze("Prices"), ...analyze("قیمت‌ها")]) expect(paws).not.toContain(word);
  });

  it("is rebuilt after a change, and a failed load is not cached", async () => {
    let documents: TaxonomyDocument[] = [{ id: "a", product: "car", domain: "motor", title: "Car", lang: "en", text: "" }];
    let fail = true;
    const cache = createTaxonomyCache({
      ttlMs: Infinity,
      load: () => {
        if (fail) {
          fail = false;
          throw new Error("store down");
        }
        return documents;
      },
    });
    await expect(cache.get("t")).rejects.toThrow("store down");
    expect((await cache.get("t")).domains).toEqual(["motor"]);
    documents = [...documents, { id: "b", product: "trip", domain: "travel", title: "Trip", lang: "en", text: "" }];
    expect((await cache.get("t")).domains).toEqual(["motor"]);
    cache.invalidate("t");
    expect((await cache.get("t")).domains).toEqual(["motor", "travel"]);
  });
});

describe("names written in both scripts", () => {
  const doc = (id: string, product: string, lang: "en" | "fa", title: string, text: string, labels = ""): TaxonomyDocument => ({
    id,
    product,
    domain: product,
    title,
    lang,
    text,
    labels,
  });
  const documents = [
    doc("gadget-en", "gadget", "en", "Gizmoguard Device Cover", "Gizmoguard covers phones. The body of the phone."),
    doc("pay-en", "payments", "en", "Paying your premium", "Gizmoguard and Nestcare can be paid monthly. The body of a payment."),
    doc("pay-fa", "payments", "fa", "پرداخت حق بیمه", "گیزموگارد و نستکر را می‌توان ماهانه پرداخت کرد. بدون کارمزد.", "بدنه"),
    doc("nest-en", "nestcare", "en", "Nestcare Home", "Nestcare covers homes."),
    doc("nest-fa", "nestcare", "fa", "بیمه نستکر", "نستکر خانه را پوشش می‌دهد. بدون کارمزد."),
    doc("car-en", "car", "en", "Car Cover", "Your car and its body are covered."),
    doc("car-fa", "car", "fa", "بیمه خودرو", "خودرو و بدنه آن بدون کارمزد بیمه می‌شود."),
    doc("trip-en", "trip", "en", "Trip Cover", "Trips abroad are covered."),
    doc("trip-fa", "trip", "fa", "بیمه سفر", "سفر خارجی بدون کارمزد پوشش دارد."),
  ];
  const t = buildTaxonomy(documents);

  it("ties a name to its transliteration where the same products use both", () => {
    expect(crossScriptAliases(t, "فرانشیز گیزموگارد چقدر است؟").get(analyze("گیزموگارد")[0]!)).toEqual(analyze("gizmoguard"));
    expect(crossScriptAliases(t, "nestcare price").get("nestcar")).toEqual(analyze("نستکر"));
  });

  it("does not tie a common word to a label that merely sounds like it", () => {
    // «بدون» ("without") and "body" share a key; «بدون» is a word of the documents, not a name.
    expect(crossScriptAliases(t, "بدون کارمزد").size).toBe(0);
  });
});

describe("an English-only product named in Persian running text", () => {
  const doc = (id: string, product: string, lang: "en" | "fa", title: string, text: string): TaxonomyDocument => ({ id, product, domain: product, title, lang, text });
  const documents = [
    doc("life-en", "lighthouse-life", "en", "Lighthouse Term Life", "Lighthouse term life pays a lump sum."),
    doc("pay-en", "payments", "en", "Paying your premium", "Lighthouse term life can be paid yearly."),
    doc("pay-fa", "payments", "fa", "پرداخت حق بیمه", "عمر زمانی لایت‌هاوس را می‌توان سالانه پرداخت کرد."),
    doc("car-en", "car", "en", "Car Cover", "Your car is covered."),
    doc("car-fa", "car", "fa", "بیمه خودرو", "خودرو بیمه می‌شود."),
    doc("trip-en", "trip", "en", "Trip Cover", "Trips abroad are covered."),
    doc("trip-fa", "trip", "fa", "بیمه سفر", "سفر خارجی پوشش دارد."),
  ];
  const t = buildTaxonomy(documents);

  it("ties the brand to its Persian spelling, written as one word or two (silent gh, «ته» for th)", () => {
    const brand = analyze("lighthouse");
    expect(crossScriptAliases(t, "بیمه عمر لایت‌هاوس چند است؟").get(analyze("لایتهاوس")[0]!)).toEqual(brand);
    expect(crossScriptAliases(t, "بیمه عمر لایت هاوس چند است؟").get(analyze("لایت")[0]!)).toEqual(brand);
  });
});

describe("plan names that are also words of running text", () => {
  const doc = (id: string, product: string, lang: "en" | "fa", text: string, labels: string, labelSets: string[][] = []): TaxonomyDocument => ({
    id,
    product,
    domain: product,
    title: product,
    lang,
    text,
    labels,
    labelSets,
  });
  // "plus" is in most English documents ("plus VAT"); as a table label only the health product's.
  const documents = [
    doc("health-en", "health", "en", "Prices plus VAT. Plus covers dental.", "Prices\nBasic\nPlus", [["Basic", "Plus"]]),
    doc("health-fa", "health", "fa", "پلاس دندانپزشکی را پوشش می‌دهد.", "قیمت‌ها\nپایه\nپلاس", [["پایه", "پلاس"]]),
    doc("car-en", "car", "en", "Prices plus VAT. Resolution times are short.", "Resolution times"),
    doc("car-fa", "car", "fa", "خودرو بیمه می‌شود. با مرکز تماس بگیرید.", "مرکز تماس"),
    doc("trip-en", "trip", "en", "Prices plus VAT.", "Trips"),
    doc("trip-fa", "trip", "fa", "سفر پوشش دارد. با مرکز تماس بگیرید.", "مرکز تماس"),
  ];
  const t = buildTaxonomy(documents);

  it("ties a plan's name to its transliteration where the same products label their tables with both", () => {
    expect(crossScriptAliases(t, "what about plus?").get(analyze("plus")[0]!)).toEqual(analyze("پلاس"));
  });

  it("does not tie heading words that merely share a key", () => {
    // "times" and «تماس» both read t-m-s; neither labels a table.
    expect(crossScriptAliases(t, "resolution times").size).toBe(0);
  });
});

describe("labels that are alternatives to one another", () => {
  it("groups a table's one-word column headers and row labels, from the chunks' structure", async () => {
    const row = (label: string): Pick<Chunk, "unit"> => ({
      unit: {
        kind: "row",
        table: "d:t0",
        caption: null,
        rowLabel: label,
        rowHeaderColumn: 0,
        cells: [
          { header: "Cover", value: label },
          { header: "Silver", value: "1" },
          { header: "Gold", value: "2" },
          { header: "Price per year (AED)", value: "3" },
        ],
      },
    });
    const labelSets = labelSetsOf([row("Windscreen"), row("Towing")]);
    expect(labelSets).toEqual([
      ["Silver", "Gold", "Price per year (AED)"],
      ["Windscreen", "Towing"],
    ]);
    const t = buildTaxonomy([{ id: "d", title: "Road Cover", product: "road", domain: "motor", lang: "en", text: "", labelSets }]);
    // One-word labels only: "Price per year" is not an alternative to "Gold".
    expect(t.labelGroups).toEqual([analyze("gold silver"), analyze("towing windscreen")].map((g) => [...g].sort()));
  });
});
