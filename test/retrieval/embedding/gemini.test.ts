import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DependencyError } from "../../../src/dependency/errors.js";
import type { RetryPolicy } from "../../../src/dependency/retry.js";
import { createGeminiEmbedder } from "../../../src/retrieval/embedding/gemini.js";
import { startFakeHttp, type FakeHttpServer, type RecordedRequest } from "../../support/fake-http.js";

const FAST_RETRY: RetryPolicy = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };

interface EmbedRequest {
  model?: string;
  content: { parts: { text: string }[] };
  taskType: string;
  outputDimensionality: number;
}

/** A deterministic vector per text: [length, first char code, 0, ...] scaled, so tests can check order. */
function vectorFor(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  vector[0] = text.length;
  vector[1] = text.charCodeAt(0);
  return vector;
}

function batchRequests(request: RecordedRequest): EmbedRequest[] {
  return (request.body as { requests: EmbedRequest[] }).requests;
}

describe("createGeminiEmbedder against a fake Gemini API", () => {
  let server: FakeHttpServer;
  beforeAll(async () => {
    server = await startFakeHttp(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  const embedder = (overrides: Partial<Parameters<typeof createGeminiEmbedder>[0]> = {}) =>
    createGeminiEmbedder({ apiKey: "test-key", dimension: 4, batchSize: 2, retry: FAST_RETRY, baseUrl: server.url, timeoutMs: 2_000, ...overrides });

  /** Answers batch and single requests with `vectorFor` of each text. */
  const working =
    (dimension = 4) =>
    (request: RecordedRequest) => {
      if (request.url.endsWith(":batchEmbedContents")) {
        return { body: { embeddings: batchRequests(request).map((r) => ({ values: vectorFor(r.content.parts[0]?.text ?? "", dimension) })) } };
      }
      const single = request.body as EmbedRequest;
      return { body: { embedding: { values: vectorFor(single.content.parts[0]?.text ?? "", dimension) } } };
    };

  it("embeds passages in batches as RETRIEVAL_DOCUMENT, keeps newlines and order, and normalises", async () => {
    server.requests.length = 0;
    server.handle(working());
    const texts = ["Title\nDeductible\nIt is 5%.", "b", "cc", "ddd", "eeee"];
    const vectors = await embedder().embed(texts);

    expect(server.requests.map((r) => [r.method, r.url])).toEqual([
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents"],
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents"],
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents"],
    ]);
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("test-key");
    const sent = server.requests.flatMap(batchRequests);
    expect(sent.map((r) => r.content.parts[0]?.text)).toEqual(texts);
    expect(sent.every((r) => r.taskType === "RETRIEVAL_DOCUMENT" && r.outputDimensionality === 4 && r.model === "models/gemini-embedding-001")).toBe(true);

    expect(vectors).toHaveLength(5);
    for (const [i, vector] of vectors.entries()) {
      const raw = vectorFor(texts[i] ?? "", 4);
      const norm = Math.hypot(...raw);
      expect(Array.from(vector)).toEqual(raw.map((value) => Math.fround(value / norm)));
    }
  });

  it("embeds a query as RETRIEVAL_QUERY through embedContent", async () => {
    server.requests.length = 0;
    server.handle(working());
    const vector = await embedder().embedQuery!("what is the deductible?");
    expect(server.requests.map((r) => r.url)).toEqual(["/v1beta/models/gemini-embedding-001:embedContent"]);
    expect((server.requests[0]?.body as EmbedRequest | undefined)?.taskType).toBe("RETRIEVAL_QUERY");
    expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
  });

  it("retries a failed batch with the retry policy and reports each retry", async () => {
    server.requests.length = 0;
    let failures = 1;
    server.handle((request) => (failures-- > 0 ? { status: 503, body: { error: { code: 503, message: "overloaded" } } } : working()(request)));
    const retries: [string, number][] = [];
    const vectors = await embedder({ onRetry: (error, attempt) => retries.push([error.kind, attempt]) }).embed(["a", "b"]);
    expect(vectors).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([["server", 1]]);
  });

  it("gives up after the last attempt with a DependencyError", async () => {
    server.requests.length = 0;
    server.handle(() => ({ status: 503, body: { error: { code: 503, message: "overloaded" } } }));
    const error = await embedder()
      .embed(["a"])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as DependencyError).kind).toBe("server");
    expect(server.requests).toHaveLength(FAST_RETRY.maxAttempts);
  });

  it("classifies query failures by status: 429 is retried, 400 is not", async () => {
    server.requests.length = 0;
    let limited = 1;
    server.handle((request) => (limited-- > 0 ? { status: 429, body: { error: { code: 429, message: "slow down" } } } : working()(request)));
    await expect(embedder().embedQuery!("q")).resolves.toHaveLength(4);
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    server.handle(() => ({ status: 400, body: { error: { code: 400, message: "API key not valid" } } }));
    const error = await embedder().embedQuery!("q").catch((e: unknown) => e);
    expect((error as DependencyError).kind).toBe("client");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses vectors of another dimension at once, naming the setting", async () => {
    server.requests.length = 0;
    server.handle(working(8));
    const error = await embedder()
      .embed(["a"])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as DependencyError).kind).toBe("configuration");
    expect((error as Error).message).toMatch(/8-dimensional.*configured dimension is 4.*FRONTDESK_EMBEDDING_DIMENSION/u);
    expect(server.requests).toHaveLength(1);
  });

  it("times out a stalled request, and rejects with the caller's reason on abort", async () => {
    server.requests.length = 0;
    server.handle(() => ({ delayMs: 500, body: { embeddings: [] } }));
    const error = await embedder({ timeoutMs: 50, retry: { ...FAST_RETRY, maxAttempts: 2 } })
      .embed(["a"])
      .catch((e: unknown) => e);
    expect((error as DependencyError).kind).toBe("timeout");
    expect(server.requests).toHaveLength(2);

    const controller = new AbortController();
    const reason = new Error("client left");
    const pending = embedder().embed(["a"], controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });
});
