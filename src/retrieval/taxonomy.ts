import { ATTRIBUTE_TERMS } from "../text/attribute-words.js";
import type { ProductEntry, ScriptName, Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import type { Language } from "../text/language.js";
import { keyedWords } from "../text/transliterate.js";
import type { Chunk } from "./types.js";
import { glossesOf } from "./glosses.js";
import { domainTermsOf } from "./domain-terms.js";

/** What the taxonomy is built from: a document's metadata and its text. */
export interface TaxonomyDocument {
  id: string;
  title: string;
  product: string;
  domain: string;
  lang: Language;
  text: string;
  /** Where a document names things: headings, table captions, row labels and column headers. */
  labels?: string;
  /** Each table's column headers, and its row labels: alternatives to one another ("Gold", "Platinum"). */
  labelSets?: string[][];
}

/** The labelSets of a document's chunks (TaxonomyDocument.labelSets). */
export function labelSetsOf(chunks: readonly Pick<Chunk, "unit">[]): string[][] {
  const tables = new Map<string, { columns: Set<string>; rows: Set<string> }>();
  for (const { unit } of chunks) {
    if (unit.kind !== "row") continue;
    const table = tables.get(unit.table) ?? { columns: new Set<string>(), rows: new Set<string>() };
    unit.cells.forEach((c, i) => {
      if (i !== unit.rowHeaderColumn && c.header.trim() !== "") table.columns.add(c.header);
    });
    if (unit.rowLabel !== null && unit.rowLabel.trim() !== "") table.rows.add(unit.rowLabel);
    tables.set(unit.table, table);
  }
  return [...tables.values()].flatMap((t) => [[...t.columns], [...t.rows]]).filter((set) => set.length >= 2);
}

/**
 * Tuning of the general-page inference, fitted on the bundled corpus and checked unchanged on
 * the second insurer (eval/insurers): both hold on each.
 */
export const GENERAL_RULES = {
  /**
   * A domain whose documents, on average, name products of more than this share of the other
   * domains reads as a service section (claims, payments, contact pages mention every product
   * line; a product page mentions a line or two it is sold with).
   */
  breadth: 0.65,
  /** Or: a domain with at least this many products and this many times more than any other domain. */
  minProducts: 3,
  productRatio: 2,
  /** A term in more than this share of documents is too common to name a product ("claim", "contact"). */
  maxNameDocumentShare: 0.35,
  /**
   * Two spellings of one key are one name when at least this share of the bilingual products that
   * use either use both (Jaccard over products): a name and its transliteration go together.
   */
  scriptNameOverlap: 0.5,
  /** A term a domain's documents use at least this often is part of what its products are (Taxonomy.productVocabulary). */
  productTermUses: 2,
} as const;

/** The labels of a chunk for TaxonomyDocument.labels: its headings and, for a row, its table's labels. */
export function chunkLabels(chunk: Pick<Chunk, "sectionPath" | "unit">): string {
  const parts = [...chunk.sectionPath];
  if (chunk.unit.kind === "row") {
    parts.push(chunk.unit.caption ?? "", chunk.unit.rowLabel ?? "", ...chunk.unit.cells.map((c) => c.header));
  }
  return parts.filter((p) => p !== "").join("\n");
}

/**
 * Names and labels that read the same in both scripts (Taxonomy.scriptNames). Sounding alike is
 * not enough ("renew" and «رنگ» share a key): the two spellings must also be used by the same
 * products in their documents of each language — a name is mentioned where its translation is.
 */
function scriptNamesOf(documents: readonly TaxonomyDocument[], termsOf: ReadonlyMap<string, ReadonlySet<string>>, productNames: ReadonlySet<string>): Map<string, ScriptName[]> {
  interface Spelling {
    terms: string[];
    persian: boolean;
  }
  const byKey = new Map<string, Map<string, Spelling>>();
  for (const d of documents) {
    for (const word of keyedWords(`${d.title}\n${slugWords(d.product)}\n${d.labels ?? ""}`)) {
      const spellings = byKey.get(word.key) ?? new Map<string, Spelling>();
      spellings.set(`${word.persian}:${word.terms.join(" ")}`, { terms: word.terms, persian: word.persian });
      byKey.set(word.key, spellings);
    }
  }
  // A product's name may be spelt in the other language only in running text (a Persian payments
  // page mentioning an English-only product). Such a spelling is as common as the brand is.
  const isProductName = (s: Spelling) => s.terms.length === 1 && productNames.has(s.terms[0]!);
  const brands = new Set([...byKey].filter(([, spellings]) => [...spellings.values()].some(isProductName)).map(([key]) => key));
  for (const d of documents) {
    for (const word of keyedWords(d.text)) {
      const spellings = byKey.get(word.key);
      if (spellings !== undefined && brands.has(word.key) && ![...spellings.values()].some((s) => s.persian === word.persian)) {
        spellings.set(`${word.persian}:${word.terms.join(" ")}`, { terms: word.terms, persian: word.persian });
      }
    }
  }
  // Products documented in both languages: where a name and its translation can both be seen.
  const languagesOf = new Map<string, Set<Language>>();
  for (const d of documents) languagesOf.set(d.product, (languagesOf.get(d.product) ?? new Set()).add(d.lang));
  // A document's table labels: its column headers and row labels ("Essential | Plus | Elite").
  // Headings are not among them: "resolution times" and «مرکز تماس» share a key and a contact page.
  const labelTerms = new Map(documents.map((d) => [d.id, new Set((d.labelSets ?? []).flat().flatMap((label) => analyze(label)))]));
  const usedBy = (spelling: Spelling, where: ReadonlyMap<string, ReadonlySet<string>>): Set<string> => {
    const lang: Language = spelling.persian ? "fa" : "en";
    const out = new Set<string>();
    for (const d of documents) {
      if (d.lang !== lang || languagesOf.get(d.product)?.size !== 2) continue;
      const terms = where.get(d.id);
      if (terms !== undefined && spelling.terms.every((t) => terms.has(t))) out.add(d.product);
    }
    return out;
  };
  // A word many documents of its language use ("within", "driver") is not a name, unless it names a
  // product (a brand is mentioned on every service page).
  const perLanguage = (where: ReadonlyMap<string, ReadonlySet<string>>) => {
    const out = new Map<Language, ReadonlySet<string>[]>();
    for (const d of documents) out.set(d.lang, [...(out.get(d.lang) ?? []), where.get(d.id) ?? new Set<string>()]);
    return out;
  };
  const byLanguage = perLanguage(termsOf);
  const labelsByLanguage = perLanguage(labelTerms);
  const common = (spelling: Spelling, key: string, by: ReadonlyMap<Language, ReadonlySet<string>[]>): boolean => {
    if (brands.has(key) && spelling.terms.length === 1) return false;
    const docs = by.get(spelling.persian ? "fa" : "en") ?? [];
    return spelling.terms.some((t) => docs.filter((terms) => terms.has(t)).length > docs.length * GENERAL_RULES.maxNameDocumentShare);
  };
  const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
    const both = [...a].filter((p) => b.has(p)).length;
    return both === 0 ? 0 : both / new Set([...a, ...b]).size;
  };
  const out = new Map<string, ScriptName[]>();
  for (const [key, all] of byKey) {
    // A spelling goes with one of the other script's where both are rare and the same products use
    // both: in running text, or in their tables' labels — a plan's name is also a word of running
    // text ("Plus" and "plus VAT"), rare among labels. "within" does not go with «ستون».
    const spellings = [...all.values()].map((s) => ({
      ...s,
      used: common(s, key, byLanguage) ? new Set<string>() : usedBy(s, termsOf),
      labelled: common(s, key, labelsByLanguage) ? new Set<string>() : usedBy(s, labelTerms),
    }));
    const agree = (s: (typeof spellings)[number], o: (typeof spellings)[number]) =>
      jaccard(s.used, o.used) >= GENERAL_RULES.scriptNameOverlap || jaccard(s.labelled, o.labelled) >= GENERAL_RULES.scriptNameOverlap;
    const kept = spellings.filter((s) => spellings.some((o) => o.persian !== s.persian && agree(s, o)));
    if (!kept.some((s) => s.persian) || !kept.some((s) => !s.persian)) continue;
    const names = new Map<string, ScriptName>();
    for (const s of kept) for (const term of s.terms) names.set(`${s.persian}:${term}`, { term, persian: s.persian });
    out.set(
      key,
      [...names.values()].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)),
    );
  }
  return out;
}

/**
 * Labels that are alternatives to one another, as analysed terms: the one-word labels of each
 * table's columns or rows ("Silver | Gold | Platinum"). A follow-up naming one of them replaces its
 * sibling in the previous question, and nothing else.
 */
function labelGroupsOf(documents: readonly TaxonomyDocument[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const d of documents) {
    for (const set of d.labelSets ?? []) {
      const terms = [
        ...new Set(
          set
            .map((label) => analyze(label).filter((t) => !/\d/u.test(t)))
            .filter((t) => t.length === 1)
            .map((t) => t[0]!),
        ),
      ].sort();
      if (terms.length >= 2) groups.set(terms.join(" "), terms);
    }
  }
  return [...groups.values()].sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1));
}

const slugWords = (slug: string) => slug.replace(/[-_]+/gu, " ");

/** Builds a tenant's taxonomy from all its documents. Pure: same documents, same taxonomy. */
export function buildTaxonomy(documents: readonly TaxonomyDocument[]): Taxonomy {
  const documentFrequency = new Map<string, number>();
  const vocabulary = new Set<string>();
  const termsOf = new Map<string, Set<string>>();
  // How often each domain's documents use each term: a word a line of business's pages use again
  // and again is part of what it sells; one mention ("damage by pets" in an exclusion list) is not.
  const usesOf = new Map<string, Map<string, number>>();
  for (const d of documents) {
    const analysed = analyze(`${d.title}\n${slugWords(d.product)}\n${d.text}`);
    const terms = new Set(analysed);
    termsOf.set(d.id, terms);
    const uses = usesOf.get(d.domain) ?? new Map<string, number>();
    for (const t of analysed) uses.set(t, (uses.get(t) ?? 0) + 1);
    usesOf.set(d.domain, uses);
    for (const t of terms) {
      vocabulary.add(t);
      documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
    }
  }

  const byProduct = new Map<string, TaxonomyDocument[]>();
  for (const d of [...documents].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const list = byProduct.get(d.product) ?? [];
    list.push(d);
    byProduct.set(d.product, list);
  }

  // Name terms: from the product's slug and titles, occurring in no other product's names, and
  // not so common in the tenant's text that they name nothing ("insurance", "claim").
  const rawNames = new Map<string, Set<string>>();
  for (const [product, docs] of byProduct) rawNames.set(product, new Set(analyze(`${slugWords(product)} ${docs.map((d) => d.title).join(" ")}`)));
  const owners = new Map<string, number>();
  for (const names of rawNames.values()) for (const t of names) owners.set(t, (owners.get(t) ?? 0) + 1);
  const maxDf = Math.max(1, documents.length * GENERAL_RULES.maxNameDocumentShare);
  const nameTerms = new Map<string, string[]>();
  for (const [product, names] of rawNames) {
    // …nor a word of what a page states ("Prices", «قیمت‌ها»): a title says so of its page, not of a product.
    nameTerms.set(product, [...names].filter((t) => owners.get(t) === 1 && (documentFrequency.get(t) ?? 0) <= maxDf && !ATTRIBUTE_TERMS.has(t)).sort());
  }

  const domainOf = new Map([...byProduct].map(([product, docs]) => [product, docs[0]!.domain]));
  const general = generalDomains(byProduct, domainOf, nameTerms, termsOf);

  const products: ProductEntry[] = [...byProduct].map(([product, docs]) => {
    const titles: ProductEntry["titles"] = {};
    for (const d of docs) {
      const list = titles[d.lang] ?? [];
      list.push(d.title);
      titles[d.lang] = list;
    }
    return {
      product,
      domain: domainOf.get(product)!,
      titles,
      documentIds: docs.map((d) => d.id),
      languages: [...new Set(docs.map((d) => d.lang))].sort(),
      nameTerms: nameTerms.get(product) ?? [],
      general: general.has(domainOf.get(product)!),
    };
  });
  products.sort((a, b) => (a.product < b.product ? -1 : 1));
  const domains = [...new Set(products.map((p) => p.domain))].sort();
  const generalProducts = new Set(products.filter((p) => p.general).map((p) => p.product));
  const labelVocabulary: ReadonlySet<string> = new Set(
    documents.filter((d) => !generalProducts.has(d.product)).flatMap((d) => analyze(`${d.title}\n${slugWords(d.product)}\n${slugWords(d.domain)}\n${d.labels ?? ""}`)),
  );
  const productVocabulary = new Set(labelVocabulary);
  const generalDomainsOf = new Set(products.filter((p) => p.general).map((p) => p.domain));
  for (const [domain, uses] of usesOf) {
    if (generalDomainsOf.has(domain)) continue;
    for (const [term, n] of uses) if (n >= GENERAL_RULES.productTermUses) productVocabulary.add(term);
  }
  return {
    domains,
    productVocabulary,
    labelVocabulary,
    products,
    vocabulary,
    documentFrequency,
    documents: documents.length,
    labelGroups: labelGroupsOf(documents),
    domainTerms: domainTermsOf(usesOf, generalDomainsOf),
    scriptNames: scriptNamesOf(documents, termsOf, new Set([...nameTerms.values()].flat())),
    glosses: glossesOf(documents.map((d) => d.text)),
  };
}

/** The domains that read as service sections (see GENERAL_RULES), from structure and text. */
function generalDomains(
  byProduct: ReadonlyMap<string, TaxonomyDocument[]>,
  domainOf: ReadonlyMap<string, string>,
  nameTerms: ReadonlyMap<string, string[]>,
  termsOf: ReadonlyMap<string, Set<string>>,
): Set<string> {
  const domains = [...new Set(domainOf.values())];
  const out = new Set<string>();
  if (domains.length < 2) return out;
  const productsIn = new Map(domains.map((d) => [d, [...domainOf].filter(([, dd]) => dd === d).map(([p]) => p)]));
  for (const domain of domains) {
    const mine = productsIn.get(domain)!;
    const others = Math.max(0, ...domains.filter((d) => d !== domain).map((d) => productsIn.get(d)!.length));
    const structural = mine.length >= GENERAL_RULES.minProducts && mine.length >= GENERAL_RULES.productRatio * others;
    let breadthSum = 0;
    let docs = 0;
    for (const product of mine) {
      for (const doc of byProduct.get(product)!) {
        const terms = termsOf.get(doc.id)!;
        const named = new Set<string>();
        for (const [other, names] of nameTerms) {
          const otherDomain = domainOf.get(other)!;
          if (otherDomain !== domain && names.some((t) => terms.has(t))) named.add(otherDomain);
        }
        breadthSum += named.size / (domains.length - 1);
        docs++;
      }
    }
    const breadth = docs === 0 ? 0 : breadthSum / docs;
    if (structural || breadth > GENERAL_RULES.breadth) out.add(domain);
  }
  return out;
}
