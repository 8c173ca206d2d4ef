import { describe, expect, it } from "vitest";
import { createEmbeddedRetriever } from "../../../src/retrieval/embedded/retriever.js";
import { parseConceptLexicon } from "../../../src/text/concepts.js";
import { createLocalEmbedder, RetrievalUnavailableError, type Embedder, type Reranker } from "../../../src/retrieval/index.js";
import { describeRetrieverConformance } from "../retriever.conformance.js";
import { paragraphId, sourceDocument } from "../helpers.js";

// The two chunks of sourceDocument(): its intro and its "Deductible" paragraph.
const INTRO = paragraphId("glass-en", "Windshield repair is covered.");
const DEDUCTIBLE = paragraphId("glass-en", "The deductible is 5 percent.");

describeRetrieverConformance("embedded", async () => {
  const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
  return { retriever, add: async (documents) => void (await retriever.add(documents)) };
});

const doc = sourceDocument;

/** Counts texts embedded, to prove what add() did. */
function countingEmbedder(): Embedder & { texts: string[] } {
  const inner = createLocalEmbedder({ dimension: 64 });
  const texts: string[] = [];
  return {
    id: inner.id,
    dimension: inner.dimension,
    texts,
    embed(batch, signal) {
      texts.push(...batch);
      return inner.embed(batch, signal);
    },
  };
}

describe("createEmbeddedRetriever", () => {
  it("indexes documents, lists them and resolves chunk ids per tenant", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    expect(await retriever.add([doc(), doc({ tenantId: "other" })])).toEqual({ statuses: ["added", "added"], added: ["glass-en", "glass-en"], replaced: [], unchanged: [] });
    expect(retriever.size).toBe(4);
    expect(retriever.listDocuments("acme")).toEqual([
      expect.objectContaining({ id: "glass-en", tenantId: "acme", title: "Glass cover", chunkCount: 2, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(retriever.getChunk("acme", DEDUCTIBLE)).toMatchObject({ chunkIndex: 1, section: "Deductible", sectionPath: ["Deductible"], unit: { kind: "paragraph" } });
    // The index owns its chunks: callers get them frozen, structure included.
    const frozen = retriever.getChunk("acme", DEDUCTIBLE);
    expect([Object.isFrozen(frozen), Object.isFrozen(frozen?.sectionPath), Object.isFrozen(frozen?.unit)]).toEqual([true, true, true]);
    expect(retriever.getChunk("acme", `${DEDUCTIBLE}-2`)).toBeUndefined();
    expect(retriever.getChunk("acme", "glass-en#1")).toBeUndefined();
    expect(retriever.getChunk("acme", DEDUCTIBLE.toUpperCase())).toBeUndefined();
    expect(retriever.getChunk("nobody", DEDUCTIBLE)).toBeUndefined();
    expect(retriever.listDocuments("nobody")).toEqual([]);
  });

  it("is a no-op when a document is re-added unchanged, and replaces its chunks when it changed", async () => {
    const embedder = countingEmbedder();
    const retriever = createEmbeddedRetriever({ embedder });
    await retriever.add([doc()]);
    expect(embedder.texts).toHaveLength(2);
    expect(await retriever.add([doc({ source: "moved/glass.md" })])).toEqual({ statuses: ["unchanged"], added: [], replaced: [], unchanged: ["glass-en"] });
    expect(embedder.texts).toHaveLength(2);
    expect(retriever.listDocuments("acme")[0]?.source).toBe("moved/glass.md");

    const changed = doc({ body: "Windshield repair is covered twice a year." });
    expect(await retriever.add([changed])).toEqual({ statuses: ["replaced"], added: [], replaced: ["glass-en"], unchanged: [] });
    expect(retriever.size).toBe(1);
    expect(retriever.getChunk("acme", DEDUCTIBLE)).toBeUndefined();
    expect(retriever.getChunk("acme", INTRO)).toBeUndefined();
    const old = await retriever.retrieve({ query: "deductible percent", tenantId: "acme", topK: 5 });
    expect(old.hits.every((hit) => !hit.chunk.text.includes("5 percent"))).toBe(true);
    const fresh = await retriever.retrieve({ query: "twice a year", tenantId: "acme", topK: 5 });
    expect(fresh.hits[0]?.chunk.text).toContain("twice a year");
  });

  it("removes a document of one tenant only", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    await retriever.add([doc(), doc({ tenantId: "other" })]);
    expect(retriever.remove("acme", "glass-en")).toBe(true);
    expect(retriever.remove("acme", "glass-en")).toBe(false);
    expect((await retriever.retrieve({ query: "windshield", tenantId: "acme", topK: 5 })).hits).toEqual([]);
    expect((await retriever.retrieve({ query: "windshield", tenantId: "other", topK: 5 })).hits).toHaveLength(1);
  });

  it("embeds a call's new chunks in one embedder call, and applies a repeated id in order", async () => {
    const embedder = countingEmbedder();
    const calls: number[] = [];
    const retriever = createEmbeddedRetriever({
      embedder: {
        ...embedder,
        embed: (texts, signal) => {
          calls.push(texts.length);
          return embedder.embed(texts, signal);
        },
      },
    });
    await retriever.add([doc(), doc({ id: "b" }), doc({ id: "c" })]);
    expect(calls).toEqual([6]);
    const report = await retriever.add([doc({ id: "d" }), doc(), doc({ id: "d", body: "Changed." })]);
    expect(report.statuses).toEqual(["added", "unchanged", "replaced"]);
    expect(calls).toEqual([6, 2, 1]);
    expect(retriever.getChunk("acme", paragraphId("d", "Changed."))?.text).toBe("Changed.");
    expect(retriever.getChunk("acme", paragraphId("d", "Windshield repair is covered."))).toBeUndefined();
  });

  it("applies concurrent adds in call order", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    await Promise.all([retriever.add([doc({ body: "First version." })]), retriever.add([doc({ body: "Second version." })])]);
    expect(retriever.getChunk("acme", paragraphId("glass-en", "Second version."))?.text).toBe("Second version.");
    expect(retriever.getChunk("acme", paragraphId("glass-en", "First version."))).toBeUndefined();
  });

  it("stops between stages with the abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("deadline");
    let reranked = false;
    const base = createLocalEmbedder();
    // The signal fires while the query is being embedded: retrieval must not go on to rerank.
    const embedder: Embedder = {
      id: base.id,
      dimension: base.dimension,
      async embed(texts, signal) {
        const vectors = await base.embed(texts, signal);
        if (texts.length === 1 && texts[0] === "windshield") controller.abort(reason);
        return vectors;
      },
    };
    const reranker: Reranker = {
      async rerank(_query, candidates) {
        reranked = true;
        return candidates.map(() => 1);
      },
    };
    const retriever = createEmbeddedRetriever({ embedder, reranker });
    await retriever.add([doc()]);
    await expect(retriever.retrieve({ query: "windshield", tenantId: "acme", topK: 1 }, controller.signal)).rejects.toBe(reason);
    expect(reranked).toBe(false);
  });

  it("reports a failing embedder or reranker as RetrievalUnavailableError with the cause", async () => {
    const cause = new Error("503 from embedding service");
    const failing: Embedder = { id: "x", dimension: 8, embed: async () => Promise.reject(cause) };
    const retriever = createEmbeddedRetriever({ embedder: failing });
    const error = await retriever.add([doc()]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetrievalUnavailableError);
    expect((error as Error).cause).toBe(cause);

    // Wrong-sized vectors are rejected before any index changes.
    const wrongSize: Embedder = { id: "y", dimension: 8, embed: async (texts) => texts.map(() => new Float32Array(4)) };
    const sized = createEmbeddedRetriever({ embedder: wrongSize });
    await expect(sized.add([doc()])).rejects.toBeInstanceOf(RetrievalUnavailableError);
    expect([sized.size, sized.listDocuments("acme")]).toEqual([0, []]);

    const brokenReranker: Reranker = { rerank: async () => Promise.reject(cause) };
    const withBrokenReranker = createEmbeddedRetriever({ embedder: createLocalEmbedder(), reranker: brokenReranker });
    await withBrokenReranker.add([doc()]);
    await expect(withBrokenReranker.retrieve({ query: "windshield", tenantId: "acme", topK: 1 })).rejects.toBeInstanceOf(RetrievalUnavailableError);
  });

  it("uses the custom reranker's scores as final scores and drops hits under minScore", async () => {
    const reranker: Reranker = { rerank: async (_q, candidates) => candidates.map((c) => (c.chunkIndex === 1 ? 0.9 : 0.2)) };
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder(), reranker, minScore: 0.5, contextWindow: 0 });
    await retriever.add([doc()]);
    const result = await retriever.retrieve({ query: "windshield deductible", tenantId: "acme", topK: 5 });
    expect(result.hits.map((hit) => [hit.chunk.chunkId, hit.score, hit.neighbors])).toEqual([[DEDUCTIBLE, 0.9, []]]);
  });

  it("reranks the other rows of a candidate's table, so the row whose range holds the asked number is found", async () => {
    const bands = Array.from({ length: 12 }, (_, i) => `| ${i * 10 + 1}–${i * 10 + 10} | ${(i + 1) * 100} |`);
    const body = `## Premiums\n\n**Annual premium by age**\n\n| Age | Premium |\n|---|---|\n${bands.join("\n")}\n\n## Other\n\nThe premium is paid yearly.`;
    const query = { query: "premium for age 95", tenantId: "acme", language: "en" as const, topK: 3 };
    const row95 = (hits: Array<{ chunk: { text: string } }>) => hits.some((h) => h.chunk.text.includes("91–100"));
    // With room for two candidates, the first stages alone cannot tell the rows apart.
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder(), candidates: 2, contextWindow: 0 });
    await retriever.add([doc({ id: "ages-en", body })]);
    expect(row95((await retriever.retrieve(query)).hits)).toBe(true);
    // Without the table's rows in the rerank, it is not found.
    const narrow = createEmbeddedRetriever({ embedder: createLocalEmbedder(), candidates: 2, contextWindow: 0, tableContextRows: 0 });
    await narrow.add([doc({ id: "ages-en", body })]);
    expect(row95((await narrow.retrieve(query)).hits)).toBe(false);
  });

  it("validates the request", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    await expect(retriever.retrieve({ query: "x", tenantId: "", topK: 1 })).rejects.toThrow("tenantId is required");
    await expect(retriever.retrieve({ query: "x", tenantId: "acme", topK: 0 })).rejects.toThrow(RangeError);
  });
});

describe("concepts beside terms (a lexicon)", () => {
  const lexicon = parseConceptLexicon("theft\tstolen | theft\tسرقت | دزدی\nexcess\texcess | deductible\tفرانشیز");
  const documents = [
    doc({ id: "device-fa", title: "بیمه گوشی", product: "gadget-cover", domain: "device", lang: "fa", body: "در صورت سرقت گوشی، فرانشیز ۱۵ درصد است." }),
    doc({ id: "home-en", title: "Home cover", product: "home", domain: "home", body: "Flood and fire are covered." }),
  ];

  it("finds a passage that says it in the other language, and only through the lexicon", async () => {
    const withLexicon = createEmbeddedRetriever({ embedder: createLocalEmbedder(), lexicon });
    await withLexicon.add(documents);
    const hits = (await withLexicon.retrieve({ query: "stolen phone deductible", tenantId: "acme", topK: 1 })).hits;
    expect(hits.map((h) => h.chunk.documentId)).toEqual(["device-fa"]);
    expect(hits[0]!.score).toBeGreaterThan(0);

    const without = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    await without.add(documents);
    const plain = (await without.retrieve({ query: "stolen phone deductible", tenantId: "acme", topK: 2 })).hits;
    expect(plain.find((h) => h.chunk.documentId === "device-fa")?.score ?? 0).toBeLessThan(hits[0]!.score);
  });

  it("matches a product by its slug's words: the tenant's Latin name of a product documented in Persian", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder(), lexicon });
    await retriever.add(documents);
    const hits = (await retriever.retrieve({ query: "gadget cover", tenantId: "acme", topK: 1 })).hits;
    expect(hits.map((h) => h.chunk.documentId)).toEqual(["device-fa"]);
  });
});
