import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.js";
import type { SharedDocumentStore } from "../../../src/domain/documents.js";
import { silentLogger } from "../../../src/domain/logger.js";
import { createPool } from "../../../src/persistence/postgres/connection.js";
import { createPostgresDocumentStore } from "../../../src/persistence/postgres/documents.js";
import { migrateDatabase } from "../../../src/persistence/postgres/index.js";
import { createFollowingDocumentIndex, type FollowingDocumentIndex } from "../../../src/retrieval/embedded/followed-index.js";
import { createChunker, createEmbeddedRetriever, createLocalEmbedder, type EmbeddedRetriever, type Embedder, type SourceDocument } from "../../../src/retrieval/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { paragraphId, sourceDocument } from "../helpers.js";

// Two replicas' embedded indexes following one PostgreSQL document store, in one process.

let db: TestDatabase;
const closers: Array<() => Promise<void>> = [];
const chunker = createChunker({});

interface Replica {
  name: string;
  store: SharedDocumentStore;
  retriever: EmbeddedRetriever;
  index: FollowingDocumentIndex;
}

async function replica(name: string, options: { corpus?: SourceDocument[]; pollMs?: number; embedder?: Embedder; notified?: boolean } = {}): Promise<Replica> {
  const connection = { connectionString: db.url, connectTimeoutMs: 1_500, statementTimeoutMs: 5_000, applicationName: `frontdesk-follow-${name}` };
  const real = await createPostgresDocumentStore({
    pool: createPool(connection, 4, silentLogger, name),
    connection: { ...connection, applicationName: `frontdesk-follow-listen-${name}` },
    logger: silentLogger,
    reconnectDelayMs: 50,
    ownsPool: true,
  });
  // notified: false — a store whose notifications never arrive, so only the poll can bring changes.
  const store: SharedDocumentStore = options.notified === false ? Object.assign(Object.create(real) as SharedDocumentStore, { listen: () => () => undefined }) : real;
  const retriever = createEmbeddedRetriever({ embedder: options.embedder ?? createLocalEmbedder({ dimension: 64 }), chunker });
  // An hour unless asked: what a replica sees sooner came by notification or by a read's check.
  const index = createFollowingDocumentIndex({ retriever, store, chunker, pageSize: 2, pollMs: options.pollMs ?? 3_600_000, logger: silentLogger });
  await index.load(options.corpus ?? []);
  closers.push(async () => {
    await index.close();
    await real.close();
  });
  return { name, store, retriever, index };
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const searchIds = async (r: Replica, tenantId: string, query: string) => (await r.retriever.retrieve({ tenantId, query, topK: 5 })).hits.map((hit) => hit.chunk.documentId);

beforeAll(async () => {
  db = await createTestDatabase("follow");
  await migrateDatabase(db.url, loadConfig({}).persistence.postgres, silentLogger);
});
afterAll(async () => {
  for (const close of closers) await close();
  await db?.drop();
});

describe("embedded indexes following the shared document store", () => {
  it("serves a document upserted through one replica on the other: GetChunk at once, search when notified", async () => {
    const [a, b] = await Promise.all([replica("a1"), replica("b1")]);
    const bicycle = sourceDocument({ tenantId: "t-up", id: "bicycle-en", body: "Bicycle theft is covered when the bicycle was locked." });
    expect(await a.index.upsert([bicycle])).toEqual([{ documentId: "bicycle-en", status: "added", chunkCount: 1 }]);
    // A reads its own write.
    const id = paragraphId("bicycle-en", "Bicycle theft is covered when the bicycle was locked.");
    expect(a.retriever.getChunk("t-up", id)?.text).toBe("Bicycle theft is covered when the bicycle was locked.");
    // B resolves A's citation without waiting: a read checks the store's version first.
    expect((await b.index.getChunk("t-up", id))?.text).toBe("Bicycle theft is covered when the bicycle was locked.");
    expect((await b.index.listDocuments("t-up", { pageSize: 10 })).documents.map((d) => [d.id, d.chunkCount])).toEqual([["bicycle-en", 1]]);

    // Without any read on C, its searches find the document once the notification arrives.
    const c = await replica("c1");
    const other = sourceDocument({ tenantId: "t-up", id: "scooter-en", body: "Scooter theft is covered at night." });
    await a.index.upsert([other]);
    await waitFor(async () => (await searchIds(c, "t-up", "scooter theft night")).includes("scooter-en"));
    expect(c.index.version).toBe(await a.store.currentVersion());
  });

  it("loads what is stored at start, over the corpus; a delete on one replica is NOT_FOUND on the other and brings back the corpus version", async () => {
    const corpus = [
      sourceDocument({ tenantId: "t-del", id: "glass-en", body: "Corpus: glass is covered." }),
      sourceDocument({ tenantId: "t-del", id: "fixed", body: "Corpus only." }),
    ];
    const a = await replica("a2", { corpus });
    expect(await a.index.upsert([sourceDocument({ tenantId: "t-del", id: "glass-en", body: "Ingested: glass is covered twice." })])).toMatchObject([{ status: "replaced" }]);
    expect(await a.index.upsert([sourceDocument({ tenantId: "t-del", id: "fixed", body: "Corpus only." })])).toMatchObject([{ status: "unchanged" }]);
    await a.index.upsert([sourceDocument({ tenantId: "t-del", id: "own", body: "An ingested document of its own." })]);

    // B starts after the writes: it loads them, the ingested glass over the corpus one.
    const b = await replica("b2", { corpus });
    const ingested = paragraphId("glass-en", "Ingested: glass is covered twice.");
    expect((await b.index.getChunk("t-del", ingested))?.text).toBe("Ingested: glass is covered twice.");
    expect(b.retriever.getChunk("t-del", paragraphId("glass-en", "Corpus: glass is covered."))).toBeUndefined();

    const own = paragraphId("own", "An ingested document of its own.");
    expect(await b.index.getChunk("t-del", own)).toBeDefined();
    expect(await a.index.remove("t-del", "own")).toEqual({ kind: "removed" });
    expect(await b.index.getChunk("t-del", own)).toBeUndefined();
    expect(await b.index.remove("t-del", "own")).toEqual({ kind: "not_found" });

    expect(await a.index.remove("t-del", "glass-en")).toEqual({ kind: "removed" });
    expect(await b.index.getChunk("t-del", ingested)).toBeUndefined();
    expect((await b.index.getChunk("t-del", paragraphId("glass-en", "Corpus: glass is covered.")))?.text).toBe("Corpus: glass is covered.");
    // Now only the corpus version is left, on either replica: read-only.
    expect(await b.index.remove("t-del", "glass-en")).toMatchObject({ kind: "read_only" });
    expect(await a.index.remove("t-del", "fixed")).toMatchObject({ kind: "removed" });
    expect(await a.index.remove("t-del", "fixed")).toMatchObject({ kind: "read_only" });
    // Tenants stay apart.
    expect(await b.index.getChunk("t-other", paragraphId("glass-en", "Corpus: glass is covered."))).toBeUndefined();
  });

  it("catches up after its LISTEN connection is cut, changes made meanwhile included", async () => {
    const [a, b] = await Promise.all([replica("a3"), replica("b3")]);
    await db.terminateConnections("frontdesk-follow-listen-b3");
    await a.index.upsert([sourceDocument({ tenantId: "t-drop", id: "meanwhile", body: "Written while the replica was not listening." })]);
    await waitFor(async () => (await searchIds(b, "t-drop", "written while not listening")).includes("meanwhile"));
    expect(b.store.listening).toBe(true);
  });

  it("catches up by polling when notifications never arrive", async () => {
    const a = await replica("a4");
    const b = await replica("b4", { notified: false, pollMs: 150 });
    await a.index.upsert([sourceDocument({ tenantId: "t-poll", id: "polled", body: "Only the poll brings this document." })]);
    await waitFor(async () => (await searchIds(b, "t-poll", "only the poll brings")).includes("polled"));
    await a.index.remove("t-poll", "polled");
    await waitFor(async () => !(await searchIds(b, "t-poll", "only the poll brings")).includes("polled"));
  });

  it("retries a change its embedder failed to index, and never loses it", async () => {
    const local = createLocalEmbedder({ dimension: 64 });
    let failing = false;
    const flaky: Embedder = {
      id: local.id,
      dimension: local.dimension,
      embed: (texts, signal) => (failing ? Promise.reject(new Error("embedder down")) : local.embed(texts, signal)),
    };
    const a = await replica("a5");
    const b = await replica("b5", { embedder: flaky, pollMs: 150 });
    failing = true;
    await a.index.upsert([sourceDocument({ tenantId: "t-flaky", id: "late", body: "Indexed once the embedder is back." })]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(b.retriever.getDocument("t-flaky", "late")).toBeUndefined();
    expect(b.index.version).toBeLessThan(await a.store.currentVersion());
    failing = false;
    await waitFor(() => b.retriever.getDocument("t-flaky", "late") !== undefined);
    expect(b.index.version).toBe(await a.store.currentVersion());
  });

  it("pages through more changes than one round reads, in order", async () => {
    const [a, b] = await Promise.all([replica("a6"), replica("b6", { notified: false })]);
    const docs = Array.from({ length: 7 }, (_, i) => sourceDocument({ tenantId: "t-page", id: `p-${i}`, body: `Paged document number ${i}.` }));
    await a.index.upsert(docs.slice(0, 4));
    await a.index.upsert(docs.slice(4));
    await a.index.upsert([sourceDocument({ tenantId: "t-page", id: "p-0", body: "Paged document zero, replaced." })]);
    await b.index.catchUp();
    expect(b.retriever.listDocuments("t-page").map((d) => d.id)).toEqual(docs.map((d) => d.id));
    expect(b.retriever.getChunk("t-page", paragraphId("p-0", "Paged document zero, replaced."))).toBeDefined();
  });
});
