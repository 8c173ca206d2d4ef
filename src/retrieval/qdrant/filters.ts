import type { Schemas } from "@qdrant/js-client-rest";
import { windowRange } from "../hybrid/context-window.js";
import type { Chunk, RetrievalRequest } from "../types.js";

/**
 * Every filter the backend sends. Each one starts with the tenant: Qdrant's tenant index keeps
 * the scan inside one tenant's points, and no request may read across tenants.
 */

export type Filter = Schemas["Filter"];
type Condition = Schemas["Condition"];

const match = (key: string, value: string): Condition => ({ key, match: { value } });
const tenant = (tenantId: string): Condition => match("tenant_id", tenantId);
const chunkIndex = (value: number): Condition => ({ key: "chunk_index", match: { value } });

/** The filter of every search: the tenant always, then the request's domain and documents. */
export function requestFilter(request: Pick<RetrievalRequest, "tenantId" | "domain" | "documentIds">): Filter {
  const must: Condition[] = [tenant(request.tenantId)];
  if (request.domain !== undefined && request.domain !== "") must.push(match("domain", request.domain));
  if (request.documentIds !== undefined) must.push({ key: "document_id", match: { any: [...request.documentIds] } });
  return { must };
}

/** Every point of one document. */
export function documentFilter(tenantId: string, documentId: string): Filter {
  return { must: [tenant(tenantId), match("document_id", documentId)] };
}

/** One chunk, by document and position. */
export function chunkFilter(tenantId: string, documentId: string, index: number): Filter {
  return { must: [tenant(tenantId), match("document_id", documentId), chunkIndex(index)] };
}

/** Chunk 0 of these documents: their document records. */
export function recordsFilter(tenantId: string, documentIds: readonly string[]): Filter {
  return { must: [tenant(tenantId), chunkIndex(0), { key: "document_id", match: { any: [...documentIds] } }] };
}

/** Chunk 0 of every document of the tenant (of one domain, when given): a listing. */
export function listingFilter(tenantId: string, domain: string | undefined): Filter {
  const must: Condition[] = [tenant(tenantId), chunkIndex(0)];
  if (domain !== undefined) must.push(match("domain", domain));
  return { must };
}

/** A document's chunks from `from` on: the stale tail a shorter new version leaves. */
export function tailFilter(tenantId: string, documentId: string, from: number): Filter {
  return { must: [tenant(tenantId), match("document_id", documentId), { key: "chunk_index", range: { gte: from } }] };
}

/** The context windows of these hits (see windowRange), in one filter. */
export function windowsFilter(tenantId: string, hits: readonly Chunk[], window: number): Filter {
  const should: Condition[] = hits.map((chunk) => ({ must: [match("document_id", chunk.documentId), { key: "chunk_index", range: windowRange(chunk, window) }] }));
  return { must: [tenant(tenantId)], should };
}
