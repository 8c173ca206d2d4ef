import { describe, expect, it } from "vitest";
import { withOwnPages } from "../../src/agent/nodes/retrieve.js";
import type { RetrievalRequest, RetrievedChunk } from "../../src/retrieval/index.js";
import { chunk, fakeRetriever } from "./support.js";

const hit = (chunkId: string, score: number): RetrievedChunk => ({ chunk: chunk(chunkId, chunkId), score, stages: { fusedScore: score }, neighbors: [] });
const request: RetrievalRequest = { query: "فرانشیز صفحه گجت‌گارد", tenantId: "default", topK: 6, documentIds: ["gadget-en", "claims-fa", "payments-fa"] };
const general = [hit("claims-fa#1", 0.29), hit("claims-fa#2", 0.28), hit("payments-fa#1", 0.26), hit("payments-fa#2", 0.25), hit("claims-fa#3", 0.24), hit("gadget-en#9", 0.2)];

describe("a named product's own pages", () => {
  it("keep half the places when general pages outrank them, the lowest general hits giving way", async () => {
    const retriever = fakeRetriever((r) => (r.documentIds?.length === 1 ? [hit("gadget-en#9", 0.2), hit("gadget-en#4", 0.19), hit("gadget-en#5", 0.18)] : []));
    const hits = await withOwnPages(general, new Set(["gadget-en"]), request, { retriever }, undefined);
    expect(retriever.requests[0]).toMatchObject({ documentIds: ["gadget-en"], topK: 3 });
    expect(hits.map((h) => h.chunk.chunkId)).toEqual(["claims-fa#1", "claims-fa#2", "payments-fa#1", "gadget-en#9", "gadget-en#4", "gadget-en#5"]);
  });

  it("are not searched again when they hold their half already", async () => {
    const retriever = fakeRetriever(() => []);
    const own = [hit("gadget-en#1", 0.5), hit("gadget-en#2", 0.4), hit("claims-fa#1", 0.3), hit("gadget-en#3", 0.2)];
    expect(await withOwnPages(own, new Set(["gadget-en"]), request, { retriever }, undefined)).toBe(own);
    expect(retriever.requests).toHaveLength(0);
  });
});
