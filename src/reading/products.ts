import { analyze } from "../text/analysis/index.js";
import { foldForMatch } from "../text/normalize.js";
import { isAttributeWord } from "./attributes.js";
import { crossScriptAliases, productsNamed, type ProductEntry, type Taxonomy } from "../domain/taxonomy.js";
import type { ConceptLexicon } from "../text/concepts.js";
import type { Language } from "../text/language.js";
import { type Candidate, productOf, productOptions, productsMentioned } from "./candidates.js";
import { offeredKinds, questionTerms, tenantForm } from "./evidence-terms.js";
import type { Attribute } from "./question.js";
import { READER_RULES } from "./score.js";
import type { Table } from "./table.js";
import type { ReaderOption } from "./types.js";
import { termSet } from "./unit-terms.js";

/**
 * What the reader decides about the products a question names: which ones it names, a kind of
 * insurance none of them is, a class several of them share, and the options to ask among them.
 */

/** The analysed words of every title a product has, in either language. */
const titleTerms = (p: ProductEntry): string[] => Object.values(p.titles).flatMap((ts) => (ts ?? []).flatMap((t) => analyze(t)));

/** The kinds of insurance a question asks whether the tenant offers that no product of theirs is (by word, concept or name in the other script). */
export function unsoldKinds(query: string, taxonomy: Taxonomy, lexicon: ConceptLexicon | undefined): string[] {
  const kinds = offeredKinds(query);
  if (kinds.length === 0 || taxonomy.productVocabulary.size === 0) return [];
  const aliases = crossScriptAliases(taxonomy, query);
  // A kind matched only by its concept ("homeowners" is an "owner") must be a concept the products
  // are named by: that an auto page says "registered owner" does not make it homeowners insurance.
  const named = taxonomy.products.filter((p) => !p.general).flatMap((p) => [...p.nameTerms, ...titleTerms(p)]);
  const concepts = lexicon === undefined ? new Set<string>() : new Set(lexicon.conceptsOfTerms(named));
  const names = new Set(named);
  // "cheap car insurance", "pet health insurance": a word the products are named by says it is
  // theirs; otherwise the kind's head decides ("term life": life).
  const heads = kinds.filter((k) => !k.some((t) => names.has(t) || names.has(tenantForm(taxonomy, t)))).map((k) => k.at(-1)!);
  return heads.filter((raw) => {
    const term = tenantForm(taxonomy, raw);
    // A kind of insurance by the lexicon («عمر», life) that no product is named as is not sold,
    // whatever else its word says on their pages (a car's «عمر», its age, in a table label).
    const kind = lexicon?.conceptOfTerm(raw) ?? lexicon?.conceptOfTerm(term);
    if (kind !== undefined && lexicon !== undefined && isInsuranceKind(lexicon, kind) && !concepts.has(kind)) return true;
    if (taxonomy.productVocabulary.has(term) || taxonomy.productVocabulary.has(raw)) return false;
    if ((aliases.get(raw) ?? []).some((a) => taxonomy.productVocabulary.has(a))) return false;
    // A word most documents use is the insurer's own name ("Arman Insurance"), not a kind.
    if ((taxonomy.documentFrequency.get(term) ?? 0) > taxonomy.documents * READER_RULES.insurerNameShare) return false;
    const concept = lexicon?.conceptOfTerm(term) ?? lexicon?.conceptOfTerm(raw);
    return concept === undefined || !concepts.has(concept);
  });
}

/** A concept and every broader one above it in the lexicon (contents insurance → home → property insurance). */
function withBroader(lexicon: ConceptLexicon, concept: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const queue = [concept]; queue.length > 0; ) {
    const next = queue.pop()!;
    if (out.has(next)) continue;
    out.add(next);
    queue.push(...lexicon.broaderOf(next));
  }
  return out;
}

/** A concept the lexicon files under the kinds of insurance (insurance_type), directly or through a broader kind. */
const isInsuranceKind = (lexicon: ConceptLexicon, concept: string): boolean => concept !== INSURANCE_KIND && withBroader(lexicon, concept).has(INSURANCE_KIND);
const INSURANCE_KIND = "insurance_type";

// "car insurance", «بیمه ماشین»: the word before "insurance" or after «بیمه» names a kind.
const KIND_WORD = [/(?<![\p{L}])بیمه\s+([\p{L}\u200C]{2,})/gu, /(?<![\p{L}'-])([\p{L}'-]{3,})\s+(?:insurance|insurence|cover|policy)(?![\p{L}])/giu];

/**
 * The products a kind the question names ("car insurance") is, by their titles' words or
 * concepts in either language (a car for «ماشین», «خودرو»); null when it names no kind or no
 * product is it. A product's own name is no kind ("Rahvar insurance").
 */
export function kindProducts(query: string, taxonomy: Taxonomy, lexicon: ConceptLexicon | undefined): ReadonlySet<string> | null {
  const names = new Set(taxonomy.products.flatMap((p) => p.nameTerms));
  const kinds = KIND_WORD.flatMap((pattern) => [...foldForMatch(query).matchAll(pattern)].flatMap((m) => analyze(m[1]!))).filter(
    (t) => !names.has(t) && !isAttributeWord(t) && !names.has(tenantForm(taxonomy, t)),
  );
  if (kinds.length === 0) return null;
  // "health insurance" is the kind its phrase names (health_insurance), which a "Medical Insurance"
  // title names too, though "health" and "medical" are not one word's concept; a title naming a
  // narrower kind (contents insurance) is of the broader one asked (home insurance).
  const phraseKinds =
    lexicon === undefined
      ? []
      : KIND_WORD.flatMap((pattern) => [...foldForMatch(query).matchAll(pattern)].flatMap((m) => lexicon.conceptsOf(m[0]))).filter((c) => isInsuranceKind(lexicon, c));
  const ofKind = (concept: string): boolean => lexicon !== undefined && [...withBroader(lexicon, concept)].some((c) => phraseKinds.includes(c));
  const out = new Set<string>();
  for (const p of taxonomy.products) {
    if (p.general) continue;
    const terms = titleTerms(p);
    const words = new Set(terms);
    const concepts = new Set(lexicon?.conceptsOfTerms(terms) ?? []);
    const is = (t: string) => {
      const concept = lexicon?.conceptOfTerm(t) ?? lexicon?.conceptOfTerm(tenantForm(taxonomy, t));
      return words.has(t) || words.has(tenantForm(taxonomy, t)) || (concept !== undefined && concepts.has(concept));
    };
    const titled = phraseKinds.length > 0 && Object.values(p.titles).some((ts) => (ts ?? []).some((title) => lexicon!.conceptsOf(title).some(ofKind)));
    if (kinds.some(is) || titled) out.add(p.product);
  }
  return out.size === 0 ? null : out;
}

/** What differs from one product to another: its price, its cover, its excess, its limits, its waiting periods. */
export const PRODUCT_ATTRIBUTES: ReadonlySet<Attribute> = new Set(["price", "limit", "deductible", "waiting", "covered", "excluded", "discount"]);

/** True when no term names one product alone: the products were named by a word they share. */
export function sharedClassOnly(taxonomy: Taxonomy, terms: readonly string[]): boolean {
  return productsNamed(taxonomy, terms).filter((p) => !p.general).length === 0;
}

/**
 * True when the best answer is a cell whose column or row the question picked by a label ("the
 * Plus plan") that no retrieved table of another product has: the label says which product, the
 * class word ("medical insurance") no longer leaves it open.
 */
export function labelPicksProduct(best: Candidate, candidates: readonly Candidate[], terms: readonly string[]): boolean {
  if (best.kind !== "table" || best.reading.kind !== "cell") return false;
  const reading = best.reading;
  const asked = new Set(terms);
  const picked = [...(reading.columnMatched ? termSet(reading.column.header) : []), ...(reading.rowMatched ? termSet(reading.row.label) : [])].filter((t) => asked.has(t));
  if (picked.length === 0) return false;
  const product = productOf(best);
  return !candidates.some(
    (c) =>
      c.kind === "table" &&
      productOf(c) !== product &&
      [...c.table.columns.map((col) => col.header), ...c.table.rows.map((r) => r.label)].some((label) => picked.some((t) => termSet(label).has(t))),
  );
}

/** Options for the named products: each by its retrieved unit when there is one, else by its own title. */
export function namedOptions(named: readonly ProductEntry[], candidates: readonly Candidate[], language: Language, taxonomy: Taxonomy): ReaderOption[] {
  const retrieved = new Set(candidates.map(productOf));
  const found = productOptions(
    named.filter((p) => retrieved.has(p.product)).map((p) => p.product),
    candidates,
    language,
    taxonomy,
  );
  const rest = named
    .filter((p) => !retrieved.has(p.product))
    .map((p): ReaderOption => {
      const titles = p.titles[language] ?? Object.values(p.titles).flat();
      const title = [...titles].sort((a, b) => a.length - b.length)[0] ?? p.product;
      return { label: title, documentId: p.documentIds[0]!, product: p.product, domain: p.domain, title };
    });
  return [...found, ...rest].slice(0, READER_RULES.maxOptions);
}

/**
 * The products a question names, as the reader reads it (spelling forgiven, names in the other
 * script included): retrieval searches their documents and the general pages first.
 */
export function namedProducts(query: string, taxonomy: Taxonomy): ProductEntry[] {
  const terms = [...new Set(questionTerms(query).map((t) => tenantForm(taxonomy, t)))];
  return namedBy(taxonomy, terms, crossScriptAliases(taxonomy, query));
}

/** The products named by a question's terms or by their names in the other script. */
export function namedBy(taxonomy: Taxonomy, terms: readonly string[], aliases: ReadonlyMap<string, readonly string[]>): ProductEntry[] {
  return productsMentioned(taxonomy, [...terms, ...[...aliases.values()].flat()]);
}

/**
 * The products a general page's table states the asked attribute for, one per row ("Deadlines by
 * product": Tandorost … 90 days | Mehr … 60 days), when the question picked no row: the answer
 * depends on the product. Of its rows, those saying most of the question's words (a medical claim
 * question keeps the medical products' rows), each with its row's label; none when fewer than two
 * products remain or their rows all say the same.
 */
export function productsOfTable(table: Table, terms: readonly string[], taxonomy: Taxonomy): Array<{ product: ProductEntry; label: string }> {
  const rows = table.rows.map((row) => ({ row, product: rowProduct(taxonomy, row.label), text: termSet(row.unit.text) }));
  const keyed = rows.filter((r): r is typeof r & { product: ProductEntry } => r.product !== null);
  if (keyed.length < 2 || keyed.length < rows.length / 2) return [];
  // Words every row says ("claim", "within") do not tell the rows apart; a word only one line of
  // business's pages use ("vet"), not a product's name, says its product's row (Taxonomy.domainTerms).
  const distinctive = terms.filter((t) => keyed.some((r) => !r.text.has(t)));
  const names = new Set(taxonomy.products.flatMap((p) => p.nameTerms));
  const said = keyed.map((r) => distinctive.filter((t) => r.text.has(t) || (!names.has(t) && taxonomy.domainTerms.get(t) === r.product.domain)).length);
  const most = Math.max(...said);
  // A question none of whose words a row says is not read off this table.
  if (most === 0) return [];
  const picked = keyed.filter((_, i) => said[i] === most);
  // Rows that all say the same ("7 days of the accident" for both car products) answer alike.
  const values = new Set(picked.map((r) => r.row.values.map((v) => v.value.trim()).join("|")));
  if (values.size < 2) return [];
  const products = picked.filter((r, i) => picked.findIndex((o) => o.product === r.product) === i).map((r) => ({ product: r.product, label: r.row.label }));
  return products.length >= 2 ? products : [];
}

/** The one product a row label names most of ("Mehr Visitor Medical" is Mehr's, though "medical" is in another's name too). */
function rowProduct(taxonomy: Taxonomy, label: string): ProductEntry | null {
  const terms = new Set([...termSet(label), ...[...crossScriptAliases(taxonomy, label).values()].flat()]);
  const counts = taxonomy.products.filter((p) => !p.general).map((p) => ({ p, n: p.nameTerms.filter((t) => terms.has(t)).length }));
  const most = Math.max(0, ...counts.map((c) => c.n));
  const best = counts.filter((c) => c.n === most);
  return most > 0 && best.length === 1 ? best[0]!.p : null;
}

/**
 * The options to ask among when a general page's table states the asked attribute per product and
 * the question does not say which row: the best answer is that table's cell, or a product's own
 * passage whose product the table lists beside others.
 */
export function productTableClarify(
  best: Candidate,
  candidates: readonly Candidate[],
  general: ReadonlySet<string>,
  terms: readonly string[],
  language: Language,
  taxonomy: Taxonomy,
): ReaderOption[] | null {
  // The best is the table's cell, or another product's passage beside such a table.
  const tables = best.kind === "table" ? [best] : general.has(productOf(best)) ? [] : candidates.filter((c) => c.kind === "table" && c.score.coverage >= READER_RULES.sufficient);
  for (const c of tables) {
    if (c.kind !== "table" || !general.has(c.table.sample.product) || c.reading.kind === "no_match") continue;
    const products = productsOfTable(c.table, terms, taxonomy);
    const reading = c.reading;
    const among = reading.kind === "cell" ? products.some((p) => p.label === reading.row.label) : c !== best && products.some((p) => p.product.product === productOf(best));
    if (!among) continue;
    // In the reply language, the table's own rows are the options: their labels name the products
    // ("Mehr Visitor Medical" for a product whose pages are all in Persian), and their page states
    // the answer a pick asks for.
    const sample = c.table.sample;
    if (sample.lang === language) {
      return products
        .slice(0, READER_RULES.maxOptions)
        .map(({ product, label }) => ({ label, documentId: sample.documentId, product: product.product, domain: product.domain, title: sample.title }));
    }
    return namedOptions(
      products.map((p) => p.product),
      candidates,
      language,
      taxonomy,
    );
  }
  return null;
}

/**
 * A general page's table whose columns are products ("Home, auto and pet | Lighthouse term life"),
 * its row picked and its columns not: when one column names the best answer's own product and the
 * columns say different things, the table's columns are the choice (the best answer is one product's
 * only). The table's candidate, else null.
 */
export function productColumns(best: Candidate, candidates: readonly Candidate[], general: ReadonlySet<string>, taxonomy: Taxonomy): (Candidate & { kind: "table" }) | null {
  if (best.kind === "table" || general.has(productOf(best))) return null;
  for (const c of candidates) {
    if (c.kind !== "table" || c.score.coverage < READER_RULES.sufficient || !general.has(c.table.sample.product)) continue;
    const reading = c.reading;
    if (reading.kind !== "needs" || reading.dimension !== "column" || reading.row === undefined) continue;
    if (!reading.options.some((header) => rowProduct(taxonomy, header)?.product === productOf(best))) continue;
    const row = reading.row;
    const values = new Set(reading.options.map((header) => row.values.find((v) => v.header === header)?.value.trim() ?? ""));
    if (values.size >= 2) return c;
  }
  return null;
}
