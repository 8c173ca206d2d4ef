import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DependencyError } from "../../../src/dependency/errors.js";
import type { RetryPolicy } from "../../../src/dependency/retry.js";
import { createHttpReranker, scoresFrom } from "../../../src/retrieval/rerank/http.js";
import { createEmbeddedRetriever, createLocalEmbedder, RetrievalUnavailableError } from "../../../src/retrieval/index.js";
import { startFakeHttp, type FakeHttpServer, type RecordedRequest } from "../../support/fake-http.js";
import { chunk, paragraphId } from "../helpers.js";

const FAST_RETRY: RetryPolicy = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };

const candidates = [
  chunk("motor-en", "Third-party cover is compulsory.", { title: "Motor", section: "Cover" }),
  chunk("travel-en", "Lost luggage is paid up to 500 euros.", { title: "Travel", section: "Luggage", chunkIndex: 2 }),
];

describe("createHttpReranker against a fake /rerank service", () => {
  let server: FakeHttpServer;
  beforeAll(async () => {
    server = await startFakeHttp(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  const reset = (handler: (request: RecordedRequest) => { status?: number; body?: unknown; delayMs?: number }) => {
    server.requests.length = 0;
    server.handle(handler);
  };

  it("speaks text-embeddings-inference: {query, texts} in, [{index, score}] in any order out", async () => {
    reset(() => ({
      body: [
        { index: 1, score: 0.93 },
        { index: 0, score: 0.12 },
      ],
    }));
    const reranker = createHttpReranker({ url: `${server.url}/`, retry: FAST_RETRY });
    expect(await reranker.rerank("lost luggage", candidates)).toEqual([0.12, 0.93]);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect([request?.method, request?.url, request?.headers["authorization"]]).toEqual(["POST", "/rerank", undefined]);
    expect(request?.body).toEqual({
      query: "lost luggage",
      texts: ["Motor\nCover\nThird-party cover is compulsory.", "Travel\nLuggage\nLost luggage is paid up to 500 euros."],
      truncate: true,
      raw_scores: false,
      return_text: false,
    });
  });

  it("speaks the Jina/Cohere shape with a model and a bearer key, and cuts long texts", async () => {
    reset(() => ({
      body: {
        model: "m",
        results: [
          { index: 0, relevance_score: 0.4 },
          { index: 1, relevance_score: 1.7 },
        ],
      },
    }));
    const reranker = createHttpReranker({
      url: `${server.url}/v1`,
      protocol: "jina",
      model: "jina-reranker-v2-base-multilingual",
      apiKey: "secret-key",
      maxChars: 10,
      retry: FAST_RETRY,
    });
    // Scores are clamped to 0..1.
    expect(await reranker.rerank("q", candidates)).toEqual([0.4, 1]);
    const [request] = server.requests;
    expect(request?.url).toBe("/v1/rerank");
    expect(request?.headers["authorization"]).toBe("Bearer secret-key");
    expect(request?.body).toEqual({ model: "jina-reranker-v2-base-multilingual", query: "q", documents: ["Motor\nCove", "Travel\nLug"], top_n: 2, return_documents: false });
  });

  it("sends nothing for no candidates", async () => {
    reset(() => ({ body: [] }));
    expect(await createHttpReranker({ url: server.url }).rerank("q", [])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("retries 503 and 429, not 400", async () => {
    let failures = 2;
    reset(() =>
      failures-- > 0
        ? { status: failures === 1 ? 503 : 429 }
        : {
            body: [
              { index: 0, score: 0.5 },
              { index: 1, score: 0.6 },
            ],
          },
    );
    const retried: string[] = [];
    const reranker = createHttpReranker({ url: server.url, retry: FAST_RETRY, onRetry: (error) => retried.push(error.kind) });
    expect(await reranker.rerank("q", candidates)).toEqual([0.5, 0.6]);
    expect(retried).toEqual(["server", "rate_limited"]);

    reset(() => ({ status: 400, body: { error: "bad input" } }));
    const error = await reranker.rerank("q", candidates).catch((e: unknown) => e);
    expect([(error as DependencyError).kind, server.requests.length]).toEqual(["client", 1]);
  });

  it("rejects replies that do not score every candidate exactly once", () => {
    expect(() => scoresFrom([{ index: 0, score: 0.5 }], 2)).toThrow(/no score for index 1/u);
    expect(() =>
      scoresFrom(
        [
          { index: 0, score: 0.5 },
          { index: 0, score: 0.2 },
        ],
        1,
      ),
    ).toThrow(/twice/u);
    expect(() => scoresFrom([{ index: 2, score: 0.5 }], 2)).toThrow(/outside 0..1/u);
    expect(() => scoresFrom([{ index: 0, score: "high" }], 1)).toThrow(/numeric score/u);
    expect(() => scoresFrom({ data: [] }, 1)).toThrow(DependencyError);
  });

  it("times out a stalled service and passes the caller's abort reason through", async () => {
    reset(() => ({ delayMs: 400, body: [] }));
    const reranker = createHttpReranker({ url: server.url, timeoutMs: 50, retry: { ...FAST_RETRY, maxAttempts: 2 } });
    const error = await reranker.rerank("q", candidates).catch((e: unknown) => e);
    expect([(error as DependencyError).kind, server.requests.length]).toEqual(["timeout", 2]);

    const controller = new AbortController();
    const reason = new Error("deadline");
    const pending = createHttpReranker({ url: server.url, timeoutMs: 5_000 }).rerank("q", candidates, {}, controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it("orders the embedded retriever's hits, and its failure makes retrieval unavailable", async () => {
    const embedder = createLocalEmbedder({ dimension: 64 });
    // The service prefers whichever candidate mentions luggage, whatever the lexical match says.
    reset((request) => {
      const texts = (request.body as { texts: string[] }).texts;
      return { body: texts.map((text, index) => ({ index, score: text.includes("luggage") ? 0.9 : 0.1 })) };
    });
    const retriever = createEmbeddedRetriever({ embedder, reranker: createHttpReranker({ url: server.url, retry: FAST_RETRY }), contextWindow: 0 });
    await retriever.add([
      { id: "motor-en", title: "Motor", product: "motor", domain: "motor", lang: "en", tenantId: "acme", body: "Motor cover is compulsory. Motor cover cover cover." },
      { id: "travel-en", title: "Travel", product: "travel", domain: "travel", lang: "en", tenantId: "acme", body: "Lost luggage is paid. Cover applies abroad." },
    ]);
    const { hits } = await retriever.retrieve({ query: "cover", tenantId: "acme", topK: 2 });
    // BM25 ranks motor-en first (four "cover"s); the service's scores decide the final order.
    const explained = await retriever.explain({ query: "cover", tenantId: "acme" }, 10);
    expect(explained.sparse[0]?.chunkId).toBe(paragraphId("motor-en", "Motor cover is compulsory. Motor cover cover cover."));
    expect(hits.map((hit) => [hit.chunk.documentId, hit.score])).toEqual([
      ["travel-en", 0.9],
      ["motor-en", 0.1],
    ]);

    reset(() => ({ status: 503 }));
    await expect(retriever.retrieve({ query: "cover", tenantId: "acme", topK: 2 })).rejects.toBeInstanceOf(RetrievalUnavailableError);
  });
});
