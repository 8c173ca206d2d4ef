/** A term a line of business uses this often, and no other uses at all, is its own (Taxonomy.domainTerms). */
export const DOMAIN_TERM_USES = 2;

/**
 * Terms only one line of business's documents use, to that domain: "vet" and «دامپزشک» of the pet
 * pages. General pages (claims, contact) are left out of the count, as they speak of every product.
 */
export function domainTermsOf(usesOf: ReadonlyMap<string, ReadonlyMap<string, number>>, generalDomains: ReadonlySet<string>): Map<string, string> {
  const owner = new Map<string, string | null>();
  for (const [domain, uses] of [...usesOf].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (generalDomains.has(domain)) continue;
    for (const term of uses.keys()) owner.set(term, owner.has(term) ? null : domain);
  }
  const out = new Map<string, string>();
  for (const [term, domain] of owner) if (domain !== null && (usesOf.get(domain)?.get(term) ?? 0) >= DOMAIN_TERM_USES) out.set(term, domain);
  return out;
}
