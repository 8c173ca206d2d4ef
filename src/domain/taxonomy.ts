import type { Language } from "../text/language.js";
import { memoByText } from "../text/memo.js";
import { analyzeWord, words } from "../text/analysis/index.js";
import { keyedWords } from "../text/transliterate.js";

/**
 * A tenant's own taxonomy, built at index time from its documents: the domains and products its
 * documents name, each product's titles in each language and the terms that name it, and which
 * products are general (claims, payments, contact pages that apply to every product). Nothing
 * that reads a domain or product list — clarify options, product detection, the request's domain
 * filter — uses a list in the code: each reads this.
 */
export interface ProductEntry {
  product: string;
  domain: string;
  /** Document titles by language (several documents may document one product). */
  titles: Partial<Record<Language, string[]>>;
  documentIds: string[];
  /** Languages the product is documented in: one of them only, for a product documented once. */
  languages: Language[];
  /**
   * Analysed terms that name this product and no other (from its slug and titles, both
   * languages): "rahvar", «رهوار», "comprehensive". A question containing one names the product.
   */
  nameTerms: string[];
  /** Applies to every product (a help or service page), so it is never a clarify option. */
  general: boolean;
}

export interface Taxonomy {
  domains: string[];
  products: ProductEntry[];
  /** Analysed terms of every document of the tenant (titles, headings, text). */
  vocabulary: ReadonlySet<string>;
  /**
   * What the tenant's products are called and made of: analysed terms of the titles, slugs,
   * domains, headings and table labels of every product that is not a general page. A kind of
   * insurance a question asks whether they offer ("do you do pet insurance?") is theirs only if
   * its word is here.
   */
  productVocabulary: ReadonlySet<string>;
  /**
   * Of those, the words the product pages name things with (titles, headings, table labels), not
   * those they merely keep using: what a customer's "it" can be ("my e-bike… if it is stolen").
   */
  labelVocabulary: ReadonlySet<string>;
  /** How many documents each analysed term occurs in; documents is their count. */
  documentFrequency: ReadonlyMap<string, number>;
  documents: number;
  /**
   * The tenant's names and labels written in both scripts (product names, titles, plan and other
   * table labels, headings), by their script-neutral key (src/text/transliterate.ts): "gadgetguard"
   * and «گجتگارد» under one key. Only keys with terms of both scripts.
   */
  scriptNames: ReadonlyMap<string, readonly ScriptName[]>;
  /** Names a document glosses in the other script ("کیل کامل (Keel Complete)"), analysed term to the other script's terms. */
  glosses: ReadonlyMap<string, readonly string[]>;
  /** One-word labels of a table's columns or rows, as analysed terms: alternatives to one another. */
  labelGroups: readonly (readonly string[])[];
  /**
   * Terms only one line of business's documents use ("vet" of the pet pages), to that domain: a
   * general page's row naming the product ("Pet insurance — within 180 days") speaks of them.
   */
  domainTerms: ReadonlyMap<string, string>;
}

export interface ScriptName {
  term: string;
  persian: boolean;
}

export const EMPTY_TAXONOMY: Taxonomy = {
  domains: [],
  products: [],
  vocabulary: new Set(),
  documentFrequency: new Map(),
  documents: 0,
  scriptNames: new Map(),
  glosses: new Map(),
  labelGroups: [],
  productVocabulary: new Set(),
  labelVocabulary: new Set(),
  domainTerms: new Map(),
};

/**
 * The same names in the other script for the words of a text: a Persian question's «گجت‌گارد» is
 * the tenant's "gadgetguard", an English "plus" its «پلاس». Keyed by the word's analysed term.
 */
export function crossScriptAliases(taxonomy: Taxonomy, text: string): ReadonlyMap<string, readonly string[]> {
  if (taxonomy.scriptNames.size === 0 && taxonomy.glosses.size === 0) return NO_ALIASES;
  // One turn asks this of the same text in retrieval and in reading: computed once per taxonomy.
  let memo = aliasMemo.get(taxonomy);
  if (memo === undefined) {
    memo = memoByText((t) => aliasesOf(taxonomy, t), 2_000);
    aliasMemo.set(taxonomy, memo);
  }
  return memo(text);
}

const NO_ALIASES: ReadonlyMap<string, readonly string[]> = new Map();
const aliasMemo = new WeakMap<Taxonomy, (text: string) => ReadonlyMap<string, readonly string[]>>();

function aliasesOf(taxonomy: Taxonomy, text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const word of words(text)) {
    const term = analyzeWord(word);
    const glossed = term === null ? undefined : taxonomy.glosses.get(term);
    if (term !== null && glossed !== undefined) out.set(term, [...new Set([...(out.get(term) ?? []), ...glossed])]);
  }
  for (const word of keyedWords(text)) {
    const names = taxonomy.scriptNames.get(word.key);
    if (names === undefined) continue;
    // The word must be the tenant's own spelling of that name, or a word its documents never use:
    // «بدون» ("without") sounds like "body" but is neither.
    const own = new Set(names.filter((n) => n.persian === word.persian).map((n) => n.term));
    if (!word.terms.every((t) => own.has(t)) && word.terms.some((t) => taxonomy.vocabulary.has(t))) continue;
    const others = names.filter((n) => n.persian !== word.persian).map((n) => n.term);
    for (const term of word.terms) out.set(term, [...new Set([...(out.get(term) ?? []), ...others])]);
  }
  return out;
}

export function productEntry(taxonomy: Taxonomy, product: string): ProductEntry | undefined {
  return taxonomy.products.find((p) => p.product === product);
}

/** Products a set of analysed terms names, by their name terms (best first: most terms matched). */
export function productsNamed(taxonomy: Taxonomy, terms: Iterable<string>): ProductEntry[] {
  const bag = new Set(terms);
  return taxonomy.products
    .map((p) => ({ p, n: p.nameTerms.filter((t) => bag.has(t)).length }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || (a.p.product < b.p.product ? -1 : 1))
    .map((x) => x.p);
}
