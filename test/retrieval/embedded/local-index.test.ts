import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openLocalDatabase } from "../../../src/persistence/sqlite/database.js";
import { createMemoryDocumentStore, createSqliteDocumentStore, type DocumentStore } from "../../../src/retrieval/embedded/document-store.js";
import { createLocalDocumentIndex } from "../../../src/retrieval/embedded/local-index.js";
import { createEmbeddedRetriever, createLocalEmbedder, InvalidPageTokenError, RetrievalUnavailableError, type Embedder } from "../../../src/retrieval/index.js";
import { paragraphId, sourceDocument } from "../helpers.js";

const doc = sourceDocument;

const newIndex = (store: DocumentStore = createMemoryDocumentStore(), embedder: Embedder = createLocalEmbedder({ dimension: 64 })) => {
  const retriever = createEmbeddedRetriever({ embedder });
  return { retriever, store, index: createLocalDocumentIndex({ retriever, store }) };
};

describe("createLocalDocumentIndex", () => {
  it("layers ingested documents over the start-up corpus", async () => {
    const { index, retriever, store } = newIndex();
    store.put([doc({ id: "bundled", body: "Ingested version." })]);
    const report = await index.load([doc({ id: "bundled", body: "Corpus version." }), doc({ id: "other" })]);
    expect(report).toEqual({ corpus: 1, stored: 1 });
    expect(retriever.getChunk("acme", paragraphId("bundled", "Ingested version."))?.text).toBe("Ingested version.");
    expect(retriever.getChunk("acme", paragraphId("bundled", "Corpus version."))).toBeUndefined();

    // Deleting the ingested version brings the corpus version back; the corpus one is read-only.
    expect(await index.remove("acme", "bundled")).toEqual({ kind: "removed" });
    expect(retriever.getChunk("acme", paragraphId("bundled", "Corpus version."))?.text).toBe("Corpus version.");
    expect(retriever.getChunk("acme", paragraphId("bundled", "Ingested version."))).toBeUndefined();
    expect(store.has("acme", "bundled")).toBe(false);
    expect(await index.remove("acme", "bundled")).toEqual({ kind: "read_only", reason: "the document comes from the start-up corpus directory; remove its file instead" });
    expect(await index.remove("acme", "missing")).toEqual({ kind: "not_found" });
    expect(await index.remove("rival", "other")).toEqual({ kind: "not_found" });
  });

  it("reports each upsert's status and chunk count, and stores what it indexed", async () => {
    const { index, store } = newIndex();
    expect(await index.upsert([doc(), doc({ id: "short", body: "One line." })])).toEqual([
      { documentId: "glass-en", status: "added", chunkCount: 2 },
      { documentId: "short", status: "added", chunkCount: 1 },
    ]);
    expect(await index.upsert([doc(), doc({ id: "short", body: "Two\n\n## Lines\n\nNow." })])).toEqual([
      { documentId: "glass-en", status: "unchanged", chunkCount: 2 },
      { documentId: "short", status: "replaced", chunkCount: 2 },
    ]);
    expect(store.all().map((d) => [d.id, d.body])).toEqual([
      ["glass-en", doc().body],
      ["short", "Two\n\n## Lines\n\nNow."],
    ]);
    expect((await index.getChunk("acme", paragraphId("short", "Now.")))?.section).toBe("Lines");
    expect(await index.getChunk("acme", paragraphId("short", "One line."))).toBeUndefined();
    expect(await index.getChunk("rival", paragraphId("short", "Now."))).toBeUndefined();
  });

  it("stores nothing when embedding fails", async () => {
    const failing: Embedder = { id: "x", dimension: 8, embed: async () => Promise.reject(new Error("503")) };
    const { index, store } = newIndex(createMemoryDocumentStore(), failing);
    await expect(index.upsert([doc()])).rejects.toBeInstanceOf(RetrievalUnavailableError);
    expect(store.count()).toBe(0);
  });

  it("lists a tenant's documents by id, a page at a time, optionally by domain", async () => {
    const { index } = newIndex();
    await index.upsert(["d", "a", "c", "b", "e"].map((id) => doc({ id, domain: id === "c" ? "health" : "motor" })));
    await index.upsert([doc({ id: "z", tenantId: "rival" })]);
    const first = await index.listDocuments("acme", { pageSize: 2 });
    expect(first.documents.map((d) => d.id)).toEqual(["a", "b"]);
    const second = await index.listDocuments("acme", { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.documents.map((d) => d.id)).toEqual(["c", "d"]);
    const last = await index.listDocuments("acme", { pageSize: 2, pageToken: second.nextPageToken });
    expect([last.documents.map((d) => d.id), last.nextPageToken]).toEqual([["e"], ""]);
    const motor = await index.listDocuments("acme", { pageSize: 10, domain: "motor" });
    expect(motor.documents.map((d) => d.id)).toEqual(["a", "b", "d", "e"]);
    expect(motor.documents[0]).toMatchObject({ tenantId: "acme", title: "Glass cover", chunkCount: 2 });
    await expect(index.listDocuments("acme", { pageSize: 2, pageToken: "garbage!" })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });
});

describe("the SQLite document store", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-docs-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("serves ingested documents after a restart, and forgets deleted ones", async () => {
    const firstDb = openLocalDatabase(dataDir);
    const first = newIndex(createSqliteDocumentStore(firstDb));
    await first.index.load([]);
    await first.index.upsert([doc(), doc({ id: "fa-doc", lang: "fa", title: "بیمه شیشه", body: "شکستن شیشه جلو پوشش دارد.", source: "in/fa.md" }), doc({ id: "gone" })]);
    expect(await first.index.remove("acme", "gone")).toEqual({ kind: "removed" });
    firstDb.close();

    const secondDb = openLocalDatabase(dataDir);
    try {
      const second = newIndex(createSqliteDocumentStore(secondDb));
      expect(await second.index.load([])).toEqual({ corpus: 0, stored: 2 });
      const { hits } = await second.retriever.retrieve({ query: "شیشه جلو", tenantId: "acme", topK: 1 });
      expect(hits[0]?.chunk.documentId).toBe("fa-doc");
      expect(second.retriever.listDocuments("acme").map((d) => [d.id, d.source])).toEqual([
        ["fa-doc", "in/fa.md"],
        ["glass-en", undefined],
      ]);
      expect(await second.index.getChunk("acme", paragraphId("gone", "Windshield repair is covered."))).toBeUndefined();
      expect((await second.index.getChunk("acme", paragraphId("glass-en", "The deductible is 5 percent.")))?.sectionPath).toEqual(["Deductible"]);
      // The table sits next to the checkpointer's in the same file.
      expect(secondDb.prepare("SELECT count(*) AS n FROM documents").get()).toEqual({ n: 2 });
    } finally {
      secondDb.close();
    }
  });

  it("reports what each put did", () => {
    const db = openLocalDatabase(dataDir, "changes.sqlite");
    try {
      const store = createSqliteDocumentStore(db);
      expect(store.put([doc({ id: "x" }), doc({ id: "y" })])).toEqual(["added", "added"]);
      expect(store.put([doc({ id: "x" }), doc({ id: "y", body: "new" })])).toEqual(["unchanged", "replaced"]);
      expect([store.count(), store.has("acme", "x"), store.has("rival", "x"), store.delete("acme", "x"), store.delete("acme", "x")]).toEqual([2, true, false, true, false]);
    } finally {
      db.close();
    }
  });
});
