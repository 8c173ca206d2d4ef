import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createEmbeddedRetriever, createLocalEmbedder, createQdrantIndex, loadCorpusDir, type QdrantIndex } from "../../../src/retrieval/index.js";
import { describeRetrieverConformance, FIXTURE_CORPUS } from "../retriever.conformance.js";

/**
 * The Qdrant adapter against a real Qdrant server, when QDRANT_URL is set (QDRANT_API_KEY too if
 * the server needs one). Each run works in a fresh collection and deletes it afterwards. Without
 * QDRANT_URL the suite is skipped, and says so.
 */
const url = process.env["QDRANT_URL"];
const apiKey = process.env["QDRANT_API_KEY"];
const SKIP_REASON = "QDRANT_URL is not set, so the Qdrant suite against a real server is skipped (the adapter is still tested against fake servers in qdrant.test.ts)";

const created: string[] = [];
async function dropCollections(): Promise<void> {
  if (url === undefined) return;
  for (const name of created) {
    await fetch(`${url.replace(/\/+$/u, "")}/collections/${name}`, { method: "DELETE", headers: apiKey === undefined ? {} : { "api-key": apiKey } });
  }
}

function newIndex(embedderDimension = 384): { index: QdrantIndex; collection: string } {
  if (url === undefined) throw new Error(SKIP_REASON);
  const collection = `frontdesk_test_${randomUUID().replace(/-/gu, "")}`;
  created.push(collection);
  const index = createQdrantIndex({ url, ...(apiKey === undefined ? {} : { apiKey }), collection, embedder: createLocalEmbedder({ dimension: embedderDimension }) });
  return { index, collection };
}

if (url === undefined) {
  console.warn(`[qdrant.int.test] ${SKIP_REASON}`);
  describe("Qdrant against a real server", () => {
    it.skip(SKIP_REASON, () => undefined);
  });
} else {
  describeRetrieverConformance(
    `qdrant at ${url}`,
    async () => {
      const { index } = newIndex();
      await index.ensureCollection();
      return { retriever: index, add: async (documents) => void (await index.upsert(documents)) };
    },
    { stages: "fused-only" },
  );

  describe(`Qdrant at ${url}`, () => {
    afterAll(dropCollections);

    it("creates a collection once and verifies it afterwards; refuses another dimension", async () => {
      const { index, collection } = newIndex();
      expect(await index.ensureCollection()).toBe("created");
      expect(await index.ensureCollection()).toBe("verified");
      const other = createQdrantIndex({ url, ...(apiKey === undefined ? {} : { apiKey }), collection, embedder: createLocalEmbedder({ dimension: 128 }) });
      await expect(other.ensureCollection()).rejects.toThrow(/stores 384-dimensional vectors/u);
    });

    it("gives the same top results as the embedded index on the same corpus with the same embedding", async () => {
      const { documents } = await loadCorpusDir(FIXTURE_CORPUS, { tenantId: "acme" });
      const embedded = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
      await embedded.add(documents);
      const { index } = newIndex();
      await index.ensureCollection();
      await index.upsert(documents);
      for (const query of ["deductible for hospital claims", "فرانشيز بیمارستان", "lost luggage compensation", "coverage limits bodily injury"]) {
        const [mine, theirs] = await Promise.all([index.retrieve({ query, tenantId: "acme", topK: 1 }), embedded.retrieve({ query, tenantId: "acme", topK: 1 })]);
        expect(mine.hits[0]?.chunk.chunkId, query).toBe(theirs.hits[0]?.chunk.chunkId);
      }
    });
  });
}
