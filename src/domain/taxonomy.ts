import type { Language } from "../text/language.js";

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
  /** How many documents each analysed term occurs in; documents is their count. */
  documentFrequency: ReadonlyMap<string, number>;
  documents: number;
}

export const EMPTY_TAXONOMY: Taxonomy = { domains: [], products: [], vocabulary: new Set(), documentFrequency: new Map(), documents: 0 };

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
