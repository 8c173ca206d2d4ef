import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { openLocalDatabase } from "../../src/persistence/sqlite/database.js";
import { createIngestTarget, createLocalEmbedder, createQdrantIndex, createRetrievalBackend } from "../../src/retrieval/index.js";
import { startFakeHttp, type FakeHttpServer } from "../support/fake-http.js";
import { startFakeQdrant, type FakeQdrant } from "../support/fake-qdrant.js";
import { paragraphId } from "./helpers.js";
import { FIXTURE_CORPUS } from "./retriever.conformance.js";

describe("createRetrievalBackend", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-backend-"));
  let fake: FakeQdrant;
  let reranker: FakeHttpServer;
  beforeAll(async () => {
    fake = await startFakeQdrant();
    reranker = await startFakeHttp((request) => {
      const texts = (request.body as { texts: string[] }).texts;
      return { body: texts.map((_, index) => ({ index, score: index === texts.length - 1 ? 0.99 : 0.01 })) };
    });
  });
  afterAll(async () => {
    await fake.close();
    await reranker.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const options = (config: ReturnType<typeof loadConfig>) => ({
    logger: silentLogger,
    tenants: ["acme"],
    openDatabase: () => openLocalDatabase(config.persistence.dataDir),
  });

  it("embedded: loads the start-up corpus and the stored documents, with the configured reranker", async () => {
    const config = loadConfig({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_CORPUS_DIR: FIXTURE_CORPUS, FRONTDESK_RERANKER: "http", FRONTDESK_RERANKER_URL: reranker.url });
    const backend = await createRetrievalBackend(config, options(config));
    try {
      const { hits } = await backend.retriever.retrieve({ query: "deductible", tenantId: "acme", topK: 3 });
      expect(hits[0]?.score).toBe(0.99);
      expect(reranker.requests.length).toBeGreaterThan(0);
      const page = await backend.documents.listDocuments("acme", { pageSize: 100 });
      expect(page.documents).toHaveLength(6);
      expect(backend.embedder.id).toBe(createLocalEmbedder().id);
    } finally {
      await backend.close();
    }
  });

  it("embedded with Gemini embeddings: vectors are cached in the data directory, so a restart embeds nothing again", async () => {
    const gemini = await startFakeHttp((request) => {
      const body = request.body as { requests?: unknown[] };
      const vector = (i: number) => [1, (i % 7) + 1, 0.5, 0, 0, 0, 0, 0];
      if (body.requests !== undefined) return { body: { embeddings: body.requests.map((_, i) => ({ values: vector(i) })) } };
      return { body: { embedding: { values: vector(0) } } };
    });
    const geminiDir = mkdtempSync(path.join(tmpdir(), "frontdesk-backend-gemini-"));
    try {
      const env = {
        FRONTDESK_DATA_DIR: geminiDir,
        FRONTDESK_CORPUS_DIR: FIXTURE_CORPUS,
        FRONTDESK_EMBEDDER: "gemini",
        FRONTDESK_EMBEDDING_DIMENSION: "8",
        GOOGLE_API_KEY: "test-key",
        FRONTDESK_GEMINI_BASE_URL: gemini.url,
      };
      const config = loadConfig(env);
      const first = await createRetrievalBackend(config, options(config));
      await first.close();
      const batches = gemini.requests.filter((r) => r.url.endsWith(":batchEmbedContents")).length;
      expect(batches).toBeGreaterThan(0);
      expect(first.embedder.id).toBe("gemini:gemini-embedding-001:d8");

      const second = await createRetrievalBackend(config, options(config));
      try {
        expect(gemini.requests.filter((r) => r.url.endsWith(":batchEmbedContents"))).toHaveLength(batches);
        const { hits } = await second.retriever.retrieve({ query: "lost luggage", tenantId: "acme", topK: 1 });
        expect(hits[0]?.chunk.documentId).toBe("travel-en");
        // The query itself went to the API, as RETRIEVAL_QUERY.
        expect(gemini.requests.at(-1)?.url).toBe("/v1beta/models/gemini-embedding-001:embedContent");
      } finally {
        await second.close();
      }
    } finally {
      await gemini.close();
      rmSync(geminiDir, { recursive: true, force: true });
    }
  });

  it("embedded: an unreadable or empty corpus directory is a ConfigError", async () => {
    const config = loadConfig({ FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_CORPUS_DIR: path.join(dataDir, "nope") });
    await expect(createRetrievalBackend(config, options(config))).rejects.toThrow(ConfigError);
  });

  it("qdrant: creates the collection, upserts the corpus only when asked, and refuses a collection of another dimension", async () => {
    const env = { QDRANT_URL: fake.url, FRONTDESK_QDRANT_COLLECTION: "backend", FRONTDESK_CORPUS_DIR: FIXTURE_CORPUS };
    const plain = loadConfig(env);
    const first = await createRetrievalBackend(plain, options(plain));
    expect(fake.collections.get("backend")?.points.size).toBe(0);
    await first.close();

    const seeded = loadConfig({ ...env, FRONTDESK_LOAD_CORPUS: "true" });
    const second = await createRetrievalBackend(seeded, options(seeded));
    expect(fake.collections.get("backend")?.points.size).toBeGreaterThan(0);
    const { hits } = await second.retriever.retrieve({ query: "lost luggage compensation", tenantId: "acme", topK: 1 });
    expect(hits[0]?.chunk.documentId).toBe("travel-en");

    const other = loadConfig({ ...env, FRONTDESK_EMBEDDING_DIMENSION: "128" });
    const error = await createRetrievalBackend(other, options(other)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Qdrant collection backend stores 384-dimensional vectors, but the configured embedder \(local-hash-v1:d128/u);
  });

  it("ingest target: the document store for the embedded default, the collection for Qdrant", async () => {
    const embedded = loadConfig({ FRONTDESK_DATA_DIR: dataDir });
    const store = await createIngestTarget(embedded, options(embedded));
    expect(store.description).toBe(`the document store in ${dataDir}`);
    await store.close();
    await expect(createIngestTarget(loadConfig({ FRONTDESK_CHECKPOINTER: "memory" }), options(embedded))).rejects.toThrow(/FRONTDESK_DOCUMENT_STORE=memory/u);

    const qdrant = loadConfig({ QDRANT_URL: fake.url, FRONTDESK_QDRANT_COLLECTION: "ingest-target" });
    const target = await createIngestTarget(qdrant, options(qdrant));
    await target.documents.upsert([{ id: "d", title: "T", product: "p", domain: "motor", lang: "en", body: "Body text.", tenantId: "acme" }]);
    const index = createQdrantIndex({ url: fake.url, collection: "ingest-target", embedder: createLocalEmbedder() });
    expect((await index.getChunk("acme", paragraphId("d", "Body text.")))?.text).toBe("Body text.");
  });
});
