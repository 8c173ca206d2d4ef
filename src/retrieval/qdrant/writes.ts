import type { Schemas } from "@qdrant/js-client-rest";
import type { RemoveOutcome, UpsertOutcome } from "../document-index.js";
import { searchableText, type Chunker } from "../hybrid/chunker.js";
import { hashContent } from "../hybrid/content-hash.js";
import { embedPassages } from "../hybrid/pipeline.js";
import { checkChunks, type IngestionCheck } from "../instructions.js";
import type { Chunk, Embedder, SourceDocument } from "../types.js";
import type { CollectionClient } from "./client.js";
import { documentFilter, recordsFilter, staleFilter } from "./filters.js";
import { chunkPoint, documentRecord, PAYLOAD_VERSION, RECORD_FIELDS, type DocumentRecord } from "./payload.js";
import type { SparseWeighting } from "./schema.js";

export interface QdrantWriterOptions {
  client: CollectionClient;
  embedder: Embedder;
  chunker: Chunker;
  weighting: SparseWeighting;
  /** Points per upsert request. */
  upsertPoints: number;
  /** The instruction detector run over each changed document's chunks (payload `instruction_chunks`). */
  instructions?: IngestionCheck | undefined;
}

export interface QdrantWriter {
  upsert(documents: readonly SourceDocument[], signal?: AbortSignal): Promise<UpsertOutcome[]>;
  remove(tenantId: string, documentId: string, signal?: AbortSignal): Promise<RemoveOutcome>;
}

/**
 * Writes: a changed document's chunks are embedded and upserted, then the points its new version
 * no longer has are deleted (point ids derive from tenant and chunk id, so an unchanged unit keeps
 * its point; chunk 0, the document's record, has a fixed point per document). An unchanged
 * document is left alone; a document written by an older payload version counts as changed. A
 * delete removes every point of the document.
 */
export function createQdrantWriter(options: QdrantWriterOptions): QdrantWriter {
  const { client, embedder, chunker, weighting, upsertPoints, instructions } = options;

  /** Chunk 0 of each document (the document records), for change detection. */
  const documentRecords = async (tenantId: string, documentIds: readonly string[], signal?: AbortSignal): Promise<Map<string, DocumentRecord>> => {
    const records = new Map<string, DocumentRecord>();
    if (documentIds.length === 0) return records;
    const result = await client.scroll(
      "scroll",
      { filter: recordsFilter(tenantId, documentIds), limit: documentIds.length, with_payload: RECORD_FIELDS, with_vector: false },
      signal,
    );
    for (const point of result.points) {
      const record = documentRecord(point.payload ?? {});
      if (record !== null) records.set(record.documentId, record);
    }
    return records;
  };

  const upsertTenantBatch = async (tenantId: string, documents: readonly SourceDocument[], signal?: AbortSignal): Promise<Map<SourceDocument, UpsertOutcome>> => {
    const outcomes = new Map<SourceDocument, UpsertOutcome>();
    const existing = await documentRecords(
      tenantId,
      documents.map((document) => document.id),
      signal,
    );
    const changed: { document: SourceDocument; contentHash: string; chunks: Chunk[]; previous: DocumentRecord | undefined }[] = [];
    for (const document of documents) {
      const contentHash = hashContent(document);
      const record = existing.get(document.id);
      if (record?.contentHash === contentHash && record.payloadVersion === PAYLOAD_VERSION) {
        outcomes.set(document, { documentId: document.id, status: "unchanged", chunkCount: record.chunkCount });
        continue;
      }
      changed.push({ document, contentHash, chunks: chunker.chunk(document), previous: record });
    }
    const vectors = await embedPassages(
      embedder,
      changed.flatMap((item) => item.chunks.map(searchableText)),
      signal,
    );
    let offset = 0;
    const bodies: Schemas["PointStruct"][] = [];
    const markers: Schemas["PointStruct"][] = [];
    const kept = new Map<SourceDocument, string[]>();
    for (const item of changed) {
      const { document, contentHash, chunks } = item;
      const ids: string[] = [];
      const instructionChunks = checkChunks(instructions, document, chunks);
      for (const [i, chunk] of chunks.entries()) {
        const vector = vectors[offset + i] ?? new Float32Array(embedder.dimension);
        const point = chunkPoint(chunk, vector, { chunkCount: chunks.length, contentHash, source: document.source, instructionChunks }, weighting);
        ids.push(String(point.id));
        (chunk.chunkIndex === 0 ? markers : bodies).push(point);
      }
      kept.set(document, ids);
      offset += chunks.length;
    }
    // Chunks first, then the points the new versions no longer have, then chunk 0 (which carries
    // the content hash): an interrupted write leaves the old hash, so the next ingest redoes it.
    for (let i = 0; i < bodies.length; i += upsertPoints) await client.upsert(bodies.slice(i, i + upsertPoints), signal);
    for (const item of changed) {
      if (item.previous === undefined) continue;
      await client.deleteWhere(staleFilter(tenantId, item.document.id, kept.get(item.document) ?? []), signal);
    }
    for (let i = 0; i < markers.length; i += upsertPoints) await client.upsert(markers.slice(i, i + upsertPoints), signal);
    for (const item of changed) {
      outcomes.set(item.document, { documentId: item.document.id, status: item.previous === undefined ? "added" : "replaced", chunkCount: item.chunks.length });
    }
    return outcomes;
  };

  return {
    async upsert(documents, signal) {
      signal?.throwIfAborted();
      const outcomes = new Map<SourceDocument, UpsertOutcome>();
      // Within one call a repeated id is applied in order, as separate calls would be.
      let group: SourceDocument[] = [];
      const keys = new Set<string>();
      const flush = async () => {
        const byTenant = new Map<string, SourceDocument[]>();
        for (const document of group) byTenant.set(document.tenantId, [...(byTenant.get(document.tenantId) ?? []), document]);
        for (const [tenantId, batch] of byTenant) for (const [document, outcome] of await upsertTenantBatch(tenantId, batch, signal)) outcomes.set(document, outcome);
        group = [];
        keys.clear();
      };
      for (const document of documents) {
        if (document.tenantId === "" || document.id === "") throw new RangeError("a document needs a non-empty id and tenantId");
        const key = `${document.tenantId}\u0000${document.id}`;
        if (keys.has(key)) await flush();
        keys.add(key);
        group.push(document);
      }
      await flush();
      return documents.map((document) => outcomes.get(document) ?? { documentId: document.id, status: "unchanged", chunkCount: 0 });
    },

    async remove(tenantId, documentId, signal): Promise<RemoveOutcome> {
      const filter = documentFilter(tenantId, documentId);
      const count = await client.call<Schemas["CountResult"]>("count", (init) => client.api.countPoints({ collection_name: client.collection, filter, exact: true }, init), signal);
      if (count.count === 0) return { kind: "not_found" };
      await client.deleteWhere(filter, signal);
      return { kind: "removed" };
    },
  };
}
