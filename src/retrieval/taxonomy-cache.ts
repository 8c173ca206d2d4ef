import type { Taxonomy } from "../domain/taxonomy.js";
import { buildTaxonomy, type TaxonomyDocument } from "./taxonomy.js";

/** A tenant's taxonomy, rebuilt when its documents change (or, for a shared store, when stale). */
export interface TaxonomyCache {
  get(tenantId: string, signal?: AbortSignal): Promise<Taxonomy>;
  /** The tenant's documents changed in this process: rebuild on next use. */
  invalidate(tenantId: string): void;
}

export interface TaxonomyCacheOptions {
  /** Every document of the tenant with its text. */
  load(tenantId: string, signal?: AbortSignal): Promise<readonly TaxonomyDocument[]> | readonly TaxonomyDocument[];
  /**
   * How long a built taxonomy is trusted when another process may change the documents (a shared
   * vector store); Infinity when this process sees every change (the embedded index).
   */
  ttlMs: number;
  now?: () => number;
}

export function createTaxonomyCache(options: TaxonomyCacheOptions): TaxonomyCache {
  const now = options.now ?? Date.now;
  const built = new Map<string, { at: number; taxonomy: Promise<Taxonomy> }>();
  return {
    get(tenantId, signal) {
      const entry = built.get(tenantId);
      if (entry !== undefined && now() - entry.at < options.ttlMs) return entry.taxonomy;
      const taxonomy = Promise.resolve()
        .then(() => options.load(tenantId, signal))
        .then((documents) => buildTaxonomy(documents));
      built.set(tenantId, { at: now(), taxonomy });
      // A failed load is not cached: the next turn tries again.
      taxonomy.catch(() => {
        if (built.get(tenantId)?.taxonomy === taxonomy) built.delete(tenantId);
      });
      return taxonomy;
    },
    invalidate(tenantId) {
      built.delete(tenantId);
    },
  };
}
