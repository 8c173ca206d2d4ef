import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openLocalDatabase } from "../../../src/persistence/sqlite/database.js";
import { createCachedEmbedder } from "../../../src/retrieval/embedding/cache.js";
import { createEmbeddedRetriever, createGeminiEmbedder, createLocalEmbedder, type Embedder } from "../../../src/retrieval/index.js";
import { startFakeHttp } from "../../support/fake-http.js";

function counting(inner: Embedder = createLocalEmbedder({ dimension: 16 })): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: inner.id,
    dimension: inner.dimension,
    calls,
    embed(texts, signal) {
      calls.push([...texts]);
      return inner.embed(texts, signal);
    },
    embedQuery: async (query, signal) => (await inner.embed([query], signal))[0] ?? new Float32Array(inner.dimension),
  };
}

describe("createCachedEmbedder", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-embcache-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("embeds only texts it has not seen for this embedder, across reopenings of the file", async () => {
    const inner = counting();
    const first = openLocalDatabase(dataDir);
    const expected = await createLocalEmbedder({ dimension: 16 }).embed(["a", "b", "c"]);
    try {
      const cached = createCachedEmbedder(inner, first);
      expect(await cached.embed(["a", "b"])).toEqual(expected.slice(0, 2));
      expect(await cached.embed(["b", "c", "a"])).toEqual([expected[1], expected[2], expected[0]]);
      expect(inner.calls).toEqual([["a", "b"], ["c"]]);
    } finally {
      first.close();
    }
    const second = openLocalDatabase(dataDir);
    try {
      const cached = createCachedEmbedder(inner, second);
      expect(await cached.embed(["c", "a"])).toEqual([expected[2], expected[0]]);
      expect(inner.calls).toHaveLength(2);
      // Queries are never cached.
      await cached.embedQuery!("a");
      await cached.embedQuery!("a");
      // Another model (another id) never sees these vectors.
      const other = counting(createLocalEmbedder({ dimension: 16, ngramWeight: 0.2 }));
      await createCachedEmbedder(other, second).embed(["a"]);
      expect(other.calls).toEqual([["a"]]);
    } finally {
      second.close();
    }
  });

  it("does not keep vectors of the wrong size", async () => {
    const db = openLocalDatabase(dataDir, "wrong.sqlite");
    try {
      let calls = 0;
      const broken: Embedder = {
        id: "broken",
        dimension: 8,
        embed: async (texts) => {
          calls++;
          return texts.map(() => new Float32Array(4));
        },
      };
      const cached = createCachedEmbedder(broken, db);
      expect((await cached.embed(["x"]))[0]).toHaveLength(4);
      await cached.embed(["x"]);
      expect(calls).toBe(2);
      // The retriever still rejects them.
      await expect(
        createEmbeddedRetriever({ embedder: cached }).add([{ id: "d", title: "T", product: "p", domain: "motor", lang: "en", body: "x", tenantId: "t" }]),
      ).rejects.toThrow(/dimension 8/u);
    } finally {
      db.close();
    }
  });

  it("spares Gemini calls when an embedded index is rebuilt at start-up", async () => {
    const server = await startFakeHttp((request) => {
      const requests = (request.body as { requests: unknown[] }).requests;
      return { body: { embeddings: requests.map((_, i) => ({ values: [1, i + 1, 0, 0] })) } };
    });
    const db = openLocalDatabase(dataDir, "gemini.sqlite");
    try {
      const gemini = () => createGeminiEmbedder({ apiKey: "k", dimension: 4, baseUrl: server.url, retry: { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0, jitter: 0 } });
      const document = { id: "d", title: "T", product: "p", domain: "motor", lang: "en" as const, body: "One.\n\n## Two\n\nTwo.", tenantId: "t" };
      await createEmbeddedRetriever({ embedder: createCachedEmbedder(gemini(), db) }).add([document]);
      expect(server.requests).toHaveLength(1);
      const restarted = createEmbeddedRetriever({ embedder: createCachedEmbedder(gemini(), db) });
      await restarted.add([document]);
      expect(server.requests).toHaveLength(1);
      expect(restarted.size).toBe(2);
    } finally {
      db.close();
      await server.close();
    }
  });
});
