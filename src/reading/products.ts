import { crossScriptAliases, productsNamed, type ProductEntry, type Taxonomy } from "../domain/taxonomy.js";
import type { ConceptLexicon } from "../text/concepts.js";
import type { Language } from "../text/language.js";
import { type Candidate, productOf, productOptions, productsMentioned } from "./candidates.js";
import { offeredKinds, questionTerms, tenantForm } from "./evidence-terms.js";
import type { Attribute } from "./question.js";
import { READER_RULES } from "./score.js";
import type { ReaderOption } from "./types.js";

/**
 * What the reader decides about the products a question names: which ones it names, a kind of
 * insurance none of them is, a class several of them share, and the options to ask among them.
 */

/** The kinds of insurance a question asks whether the tenant offers that no product of theirs is (by word, concept or name in the other script). */
export function unsoldKinds(query: string, taxonomy: Taxonomy, lexicon: ConceptLexicon | undefined): string[] {
  const kinds = offeredKinds(query);
  if (kinds.length === 0 || taxonomy.productVocabulary.size === 0) return [];
  const aliases = crossScriptAliases(taxonomy, query);
  const concepts = lexicon === undefined ? new Set<string>() : new Set(lexicon.conceptsOfTerms([...taxonomy.productVocabulary]));
  return kinds.filter((raw) => {
    const term = tenantForm(taxonomy, raw);
    if (taxonomy.productVocabulary.has(term) || taxonomy.productVocabulary.has(raw)) return false;
    if ((aliases.get(raw) ?? []).some((a) => taxonomy.productVocabulary.has(a))) return false;
    // A word most documents use is the insurer's own name ("Arman Insurance"), not a kind.
    if ((taxonomy.documentFrequency.get(term) ?? 0) > taxonomy.documents * READER_RULES.insurerNameShare) return false;
    const concept = lexicon?.conceptOfTerm(term) ?? lexicon?.conceptOfTerm(raw);
    return concept === undefined || !concepts.has(concept);
  });
}

/** What differs from one product to another: its price, its cover, its excess, its limits, its waiting periods. */
export const PRODUCT_ATTRIBUTES: ReadonlySet<Attribute> = new Set(["price", "limit", "deductible", "waiting", "covered", "excluded", "discount"]);

/** True when no term names one product alone: the products were named by a word they share. */
export function sharedClassOnly(taxonomy: Taxonomy, terms: readonly string[]): boolean {
  return productsNamed(taxonomy, terms).filter((p) => !p.general).length === 0;
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
