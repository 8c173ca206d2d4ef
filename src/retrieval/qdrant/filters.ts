import type { Schemas } from "@qdrant/js-client-rest";
import { tableReach, windowRange, type ContextWindow } from "../hybrid/context-window.js";
import type { Chunk, RetrievalRequest } from "../types.js";
import { PAYLOAD_VERSION } from "./payload.js";

/**
 * Every filter the backend sends. Each one starts with the tenant: Qdrant's tenant index keeps
 * the scan inside one tenant's points, and no request may read across tenants. Reads also match
 * the payload version: points an older frontdesk wrote are not served until their document is
 * upserted again (see PAYLOAD_VERSION).
 */

export type Filter = Schemas["Filter"];
type Condition = Schemas["Condition"];

const match = (key: string, value: string): Condition => ({ key, match: { value } });
const tenant = (tenantId: string): Condition => match("tenant_id", tenantId);
const current: Condition = { key: "payload_version", match: { value: PAYLOAD_VERSION } };
const chunkIndex = (value: number): Condition => ({ key: "chunk_index", match: { value } });

/** The filter of every search: the tenant always, then the request's domain and documents. */
export function requestFilter(request: Pick<RetrievalRequest, "tenantId" | "domain" | "documentIds">): Filter {
  const must: Condition[] = [tenant(request.tenantId), current];
  if (request.domain !== undefined && request.domain !== "") must.push(match("domain", request.domain));
  if (request.documentIds !== undefined) must.push({ key: "document_id", match: { any: [...request.documentIds] } });
  return { must };
}

/** Every point of one document, of any payload version. */
export function documentFilter(tenantId: string, documentId: string): Filter {
  return { must: [tenant(tenantId), match("document_id", documentId)] };
}

/** One chunk, by its id. */
export function chunkFilter(tenantId: string, documentId: string, chunkId: string): Filter {
  return { must: [tenant(tenantId), current, match("document_id", documentId), match("chunk_id", chunkId)] };
}

/** Chunk 0 of these documents, of any payload version: their document records. */
export function recordsFilter(tenantId: string, documentIds: readonly string[]): Filter {
  return { must: [tenant(tenantId), chunkIndex(0), { key: "document_id", match: { any: [...documentIds] } }] };
}

/** Chunk 0 of every document of the tenant (of one domain, when given): a listing. */
export function listingFilter(tenantId: string, domain: string | undefined): Filter {
  const must: Condition[] = [tenant(tenantId), current, chunkIndex(0)];
  if (domain !== undefined) must.push(match("domain", domain));
  return { must };
}

/** A document's points other than `keep`: what a new version no longer has (edited units, a shorter tail, old-version points). */
export function staleFilter(tenantId: string, documentId: string, keep: readonly string[]): Filter {
  return { must: documentFilter(tenantId, documentId).must, must_not: [{ has_id: [...keep] }] };
}

/** Points of another payload version: what an upgrade has still to rewrite. */
export function outdatedFilter(): Filter {
  return { must_not: [current] };
}

/**
 * The context windows of these hits (see windowRange), in one filter: a row's table (by its key,
 * within its reach), any other unit's neighbours by position and the rows around them (tableReach).
 * Null when no hit has any.
 */
export function windowsFilter(tenantId: string, hits: readonly Chunk[], context: ContextWindow): { filter: Filter; limit: number } | null {
  const should: Condition[] = [];
  let limit = 0;
  for (const chunk of hits) {
    const range = windowRange(chunk, context);
    if (range.lte === chunk.chunkIndex) continue;
    const conditions: Condition[] = [match("document_id", chunk.documentId), { key: "chunk_index", range }];
    if (chunk.unit.kind === "row") conditions.push(match("table", chunk.unit.table));
    should.push({ must: conditions });
    limit += range.lte - range.gte + 1;
    // Rows only, further out: the tables the window reaches into come whole.
    const rows = tableReach(chunk, context);
    if (rows !== null) {
      should.push({ must: [match("document_id", chunk.documentId), { key: "chunk_index", range: rows }], must_not: [{ is_null: { key: "table" } }] });
      limit += rows.lte - rows.gte + 1;
    }
  }
  return should.length === 0 ? null : { filter: { must: [tenant(tenantId), current], should }, limit };
}
