import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChunker, loadCorpusDir, type Retriever, type SourceDocument } from "../../src/retrieval/index.js";

export const FIXTURE_CORPUS = join(import.meta.dirname, "fixtures", "corpus");

/** A retriever under test and how to load documents into it (ingestion differs per backend). */
export interface RetrieverHarness {
  retriever: Retriever;
  add(documents: readonly SourceDocument[]): Promise<void>;
}

/**
 * What a backend reports per hit. "per-stage": the sparse and dense ranks of each hit (the
 * embedded index ranks each stage itself). "fused-only": the fused score only (Qdrant fuses on the
 * server in one call and returns no per-prefetch ranks).
 */
export type StageReporting = "per-stage" | "fused-only";

/**
 * The contract every Retriever backend must meet (embedded, Qdrant), over the fixture corpus
 * loaded for tenant "acme" plus one decoy document for tenant "rival".
 */
export function describeRetrieverConformance(
  name: string,
  createHarness: () => Promise<RetrieverHarness>,
  options: { stages?: StageReporting; dispose?: () => Promise<void> } = {},
): void {
  const stages = options.stages ?? "per-stage";
  describe(`Retriever conformance: ${name}`, () => {
    let harness: RetrieverHarness;
    // Chunk ids derive from content: the n-th chunk of a document, as the default chunker cuts it.
    const chunkIds = new Map<string, string[]>();
    const id = (documentId: string, index: number, tenant = "acme"): string => {
      const found = chunkIds.get(`${tenant}/${documentId}`)?.[index];
      if (found === undefined) throw new Error(`no chunk ${index} of ${documentId}`);
      return found;
    };
    // The decoy repeats the query words many times: it would be the best match for anyone.
    const decoy: SourceDocument = {
      id: "rival-glass",
      title: "Windshield glass deductible",
      product: "rival-motor",
      domain: "motor",
      lang: "en",
      body: "## Windshield deductible\n\nWindshield glass deductible: windshield glass deductible is zero for windshield glass.",
      tenantId: "rival",
    };

    // A tenant of its own, so its table does not move the other tests' rankings.
    const tables: SourceDocument = {
      id: "travel-prices",
      title: "Travel prices",
      product: "travel",
      domain: "travel",
      lang: "en",
      body: [
        "Prices depend on the plan and the length of the trip.",
        "",
        "## Premiums",
        "",
        "**Premium for one adult, in thousand rials**",
        "",
        "| Plan | Up to 7 days | 8 to 15 days |",
        "| --- | --- | --- |",
        "| Plan A | 29 | 41 |",
        "| Plan B | 35 | 49 |",
        "| Plan C | 45 | 63 |",
        "",
        "Children pay half.",
      ].join("\n"),
      tenantId: "tables",
    };

    afterAll(async () => {
      await options.dispose?.();
    });

    beforeAll(async () => {
      harness = await createHarness();
      const { documents, problems } = await loadCorpusDir(FIXTURE_CORPUS, { tenantId: "acme" });
      expect(problems).toEqual([]);
      // The rival also has a document with an id that acme uses: ids are per tenant.
      const rivalSameId: SourceDocument = { ...decoy, id: "motor-tp-en", title: "Rival motor", body: "## Claims\n\nRival claims are handled by phone only." };
      const all = [...documents, decoy, rivalSameId, tables];
      for (const document of all)
        chunkIds.set(
          `${document.tenantId}/${document.id}`,
          createChunker()
            .chunk(document)
            .map((chunk) => chunk.chunkId),
        );
      await harness.add(all);
    });

    it("finds the section that answers the question, first, in both languages", async () => {
      const en = await harness.retriever.retrieve({ query: "deductible for hospital claims", tenantId: "acme", topK: 3 });
      expect(en.hits[0]?.chunk.chunkId).toBe(id("health-supp-en", 1));
      const fa = await harness.retriever.retrieve({ query: "فرانشيز بیمارستان", tenantId: "acme", topK: 3 });
      expect(fa.hits[0]?.chunk.chunkId).toBe(id("health-supp-fa", 1));
    });

    it("never returns another tenant's chunks, even when they are the best match", async () => {
      const query = "windshield glass deductible";
      const rival = await harness.retriever.retrieve({ query, tenantId: "rival", topK: 5 });
      expect(rival.hits[0]?.chunk.documentId).toBe("rival-glass");
      const acme = await harness.retriever.retrieve({ query, tenantId: "acme", topK: 50 });
      expect(acme.hits.length).toBeGreaterThan(0);
      expect(acme.hits.every((hit) => hit.chunk.tenantId === "acme")).toBe(true);
      expect(acme.hits.flatMap((hit) => hit.neighbors).every((n) => n.tenantId === "acme")).toBe(true);
      // Same document id in two tenants: each sees its own.
      const sameId = await harness.retriever.retrieve({ query: "how are claims handled", tenantId: "acme", topK: 10 });
      expect(sameId.hits.some((hit) => hit.chunk.text.includes("Rival"))).toBe(false);
      const rivalSameId = await harness.retriever.retrieve({ query: "how are claims handled", tenantId: "rival", topK: 1 });
      expect(rivalSameId.hits[0]?.chunk.chunkId).toBe(id("motor-tp-en", 0, "rival"));
      expect(rivalSameId.hits[0]?.chunk.text).toContain("Rival claims");
      const none = await harness.retriever.retrieve({ query, tenantId: "nobody", topK: 5 });
      expect(none.hits).toEqual([]);
    });

    it("applies the domain filter", async () => {
      const result = await harness.retriever.retrieve({ query: "deductible", tenantId: "acme", domain: "motor", topK: 10 });
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits.every((hit) => hit.chunk.domain === "motor")).toBe(true);
      const unfiltered = await harness.retriever.retrieve({ query: "deductible", tenantId: "acme", topK: 10 });
      expect(unfiltered.hits.some((hit) => hit.chunk.domain === "health")).toBe(true);
    });

    it("applies the documentIds filter", async () => {
      const unfiltered = await harness.retriever.retrieve({ query: "claim", tenantId: "acme", topK: 10 });
      expect(unfiltered.hits[0]?.chunk.documentId).toBe("motor-tp-en");
      const allowed = ["travel-en", "motor-tp-fa"];
      const result = await harness.retriever.retrieve({ query: "claim", tenantId: "acme", documentIds: allowed, topK: 10 });
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits.every((hit) => allowed.includes(hit.chunk.documentId))).toBe(true);
      const empty = await harness.retriever.retrieve({ query: "claim", tenantId: "acme", documentIds: [], topK: 10 });
      expect(empty.hits).toEqual([]);
    });

    it("returns at most topK hits, best first, with scores in 0..1 and stages filled", async () => {
      const result = await harness.retriever.retrieve({ query: "lost luggage compensation", tenantId: "acme", topK: 2 });
      expect(result.hits).toHaveLength(2);
      expect(result.hits[0]?.chunk.chunkId).toBe(id("travel-en", 2));
      const scores = result.hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
      if (stages === "per-stage") {
        expect(result.hits[0]?.stages.sparseRank).toBe(1);
        expect(result.hits[0]?.stages.denseRank).toBe(1);
      }
      expect(result.hits[0]?.stages.fusedScore).toBeGreaterThan(0);
      expect(result.hits[0]?.stages.rerankScore).toBe(result.hits[0]?.score);
    });

    it("expands each hit with its neighbouring chunks of the same document, in order", async () => {
      const result = await harness.retriever.retrieve({ query: "coverage limits bodily injury", tenantId: "acme", topK: 1 });
      const hit = result.hits[0];
      expect(hit?.chunk.chunkId).toBe(id("motor-tp-en", 1));
      expect(hit?.neighbors.map((n) => n.chunkId)).toEqual([id("motor-tp-en", 0), id("motor-tp-en", 2)]);
      const first = await harness.retriever.retrieve({ query: "compulsory for every vehicle", tenantId: "acme", topK: 1 });
      expect(first.hits[0]?.chunk.chunkId).toBe(id("motor-tp-en", 0));
      expect(first.hits[0]?.neighbors.map((n) => n.chunkId)).toEqual([id("motor-tp-en", 1)]);
    });

    it("returns a table row as a unit with its structure, and the other rows of its table as its neighbours", async () => {
      const result = await harness.retriever.retrieve({ query: "premium 35 and 49", tenantId: "tables", topK: 1 });
      const hit = result.hits[0];
      expect(hit?.chunk).toMatchObject({
        chunkId: id("travel-prices", 2, "tables"),
        text: "Premium for one adult, in thousand rials — Plan B — Up to 7 days: 35; 8 to 15 days: 49",
        section: "Premiums",
        sectionPath: ["Premiums"],
        unit: {
          kind: "row",
          table: "travel-prices:t1",
          caption: "Premium for one adult, in thousand rials",
          rowLabel: "Plan B",
          cells: [
            { header: "Plan", value: "Plan B" },
            { header: "Up to 7 days", value: "35" },
            { header: "8 to 15 days", value: "49" },
          ],
          rowHeaderColumn: 0,
        },
      });
      // The whole table, not the paragraphs around it.
      expect(hit?.neighbors.map((n) => n.chunkId)).toEqual([id("travel-prices", 1, "tables"), id("travel-prices", 3, "tables")]);
      // A paragraph whose window reaches into the table brings the whole table: one row alone cannot be read.
      const paragraph = await harness.retriever.retrieve({ query: "children pay half", tenantId: "tables", topK: 1 });
      expect(paragraph.hits[0]?.neighbors.map((n) => n.chunkId)).toEqual([id("travel-prices", 1, "tables"), id("travel-prices", 2, "tables"), id("travel-prices", 3, "tables")]);
    });

    it("rejects with the abort reason when the signal is already aborted", async () => {
      const controller = new AbortController();
      const reason = new Error("client went away");
      controller.abort(reason);
      await expect(harness.retriever.retrieve({ query: "deductible", tenantId: "acme", topK: 3 }, controller.signal)).rejects.toBe(reason);
    });
  });
}
