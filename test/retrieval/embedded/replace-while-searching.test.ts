import { describe, expect, it } from "vitest";
import { createEmbeddedRetriever, createLocalEmbedder, type Embedder } from "../../../src/retrieval/index.js";
import { sourceDocument } from "../helpers.js";

// A replica following the shared store replaces documents while turns search: each search must
// see a document wholly in one version — never fail on, or mix, the chunks of two.

const local = createLocalEmbedder({ dimension: 64 });
/** Query vectors arrive after a timer, as a remote embedder's do: replacements land meanwhile. */
const slowQueries: Embedder = {
  id: local.id,
  dimension: local.dimension,
  embed: (texts, signal) => local.embed(texts, signal),
  async embedQuery(query, signal) {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
    const [vector] = await local.embed([query], signal);
    return vector!;
  },
};

const version = (n: number) =>
  sourceDocument({
    id: "glass-en",
    body: `Windshield repair is covered, version ${n}.\n\n## Deductible\n\nThe windshield deductible is ${n} percent, version ${n}.\n\n## Claims\n\nWindshield claims are paid in ${n} days, version ${n}.`,
  });

describe("the embedded retriever under concurrent replacement", () => {
  it("answers every search from one version of a document while it is replaced again and again", async () => {
    const retriever = createEmbeddedRetriever({ embedder: slowQueries, contextWindow: 1 });
    await retriever.add([version(0)]);
    const searches: Promise<void>[] = [];
    for (let n = 1; n <= 40; n++) {
      for (let i = 0; i < 5; i++) {
        searches.push(
          retriever.retrieve({ tenantId: "acme", query: "windshield deductible claims version", topK: 3 }).then((result) => {
            expect(result.hits.length).toBeGreaterThan(0);
            const versions = new Set(result.hits.flatMap((hit) => [hit.chunk, ...hit.neighbors].map((c) => /version (\d+)/u.exec(c.text)?.[1])));
            expect(versions.size, [...versions].join(",")).toBe(1);
          }),
        );
      }
      await retriever.add([version(n)]);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(searches);
    expect(retriever.listDocuments("acme").map((d) => d.chunkCount)).toEqual([3]);
  });
});
