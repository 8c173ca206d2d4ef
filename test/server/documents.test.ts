import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { DocumentSchema, DocumentService, UpsertStatus, type Document } from "../../gen/frontdesk/v1/document_service_pb.js";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import {
  createChunker,
  createEmbeddedRetriever,
  createLocalDocumentIndex,
  createLocalEmbedder,
  createMemoryDocumentStore,
  type DocumentRules,
  type Embedder,
  type EmbeddedRetriever,
  type LocalDocumentIndex,
  type SourceDocument,
} from "../../src/retrieval/index.js";
import { ACME_KEY, bearer, GLOBEX_KEY, startServer, type Running } from "./helpers.js";

const rules: DocumentRules = { chunker: createChunker(), maxChunkChars: 1_500, maxDocumentChars: 5_000 };

const wire = (overrides: MessageInitShape<typeof DocumentSchema> = {}): Document =>
  create(DocumentSchema, {
    id: "glass-en",
    title: "Glass cover",
    product: "motor-glass",
    domain: "motor",
    lang: "en",
    body: "Windshield repair is covered once a year.\n\n## Deductible\n\nThe glass deductible is 5 percent.",
    ...overrides,
  });

const bundled: SourceDocument = {
  id: "bundled-en",
  title: "Bundled",
  product: "p",
  domain: "motor",
  lang: "en",
  body: "From the corpus directory.",
  tenantId: "acme",
};

interface Harness {
  server: Running;
  retriever: EmbeddedRetriever;
  index: LocalDocumentIndex;
  client(key?: string | null): Client<typeof DocumentService>;
  /** Makes the embedder fail (or work again). */
  breakEmbedder(broken: boolean): void;
}

async function start(): Promise<Harness> {
  let broken = false;
  const inner = createLocalEmbedder({ dimension: 64 });
  const embedder: Embedder = {
    id: inner.id,
    dimension: inner.dimension,
    embed: (texts, signal) => (broken ? Promise.reject(new Error("embedding service down")) : inner.embed(texts, signal)),
  };
  const retriever = createEmbeddedRetriever({ embedder });
  const index = createLocalDocumentIndex({ retriever, store: createMemoryDocumentStore() });
  await index.load([bundled]);
  const server = await startServer({ documents: { index, rules }, env: { FRONTDESK_UPSERT_MAX_DOCUMENTS: "3", FRONTDESK_LIST_PAGE_SIZE: "2" } });
  return {
    server,
    retriever,
    index,
    client: (key = ACME_KEY) => createClient(DocumentService, server.transport(key)),
    breakEmbedder: (value) => (broken = value),
  };
}

async function errorOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("expected the call to fail");
}

describe("DocumentService", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.server.close());

  test("needs an API key, and it is served next to AgentService with health", async () => {
    expect(await errorOf(h.client(null).listDocuments({}))).toMatchObject({ code: Code.Unauthenticated, rawMessage: "missing or invalid API key" });
    expect(await errorOf(h.client("not-a-key-0123456789").getChunk({ chunkId: "x#0" }))).toMatchObject({ code: Code.Unauthenticated });
    const health = createClient(Health, h.server.transport(null));
    expect((await health.check({ service: "frontdesk.v1.DocumentService" })).status).toBe(Status.SERVING);
  });

  test("upserts: added, then unchanged or replaced, with chunk counts; citations resolve; retrieval sees it", async () => {
    const first = await h.client().upsertDocuments({ documents: [wire(), wire({ id: "travel-en", domain: "travel", body: "Lost luggage is paid up to 500 euros." })] });
    expect(first.results.map((r) => [r.documentId, r.status, r.chunkCount])).toEqual([
      ["glass-en", UpsertStatus.ADDED, 2],
      ["travel-en", UpsertStatus.ADDED, 1],
    ]);
    const again = await h.client().upsertDocuments({ documents: [wire(), wire({ id: "travel-en", domain: "travel", body: "Lost luggage is paid up to 800 euros." })] });
    expect(again.results.map((r) => [r.documentId, r.status])).toEqual([
      ["glass-en", UpsertStatus.UNCHANGED],
      ["travel-en", UpsertStatus.REPLACED],
    ]);

    const { chunk } = await h.client().getChunk({ chunkId: "glass-en#1" });
    expect(chunk).toMatchObject({ chunkId: "glass-en#1", documentId: "glass-en", chunkIndex: 1, section: "Deductible", text: "The glass deductible is 5 percent.", lang: "en", domain: "motor" });
    const { hits } = await h.retriever.retrieve({ query: "lost luggage euros", tenantId: "acme", topK: 1 });
    expect(hits[0]?.chunk.text).toContain("800 euros");
  });

  test("keeps tenants apart: another tenant can neither see, read nor delete a document", async () => {
    await h.client().upsertDocuments({ documents: [wire({ id: "acme-only" })] });
    expect((await h.client(GLOBEX_KEY).listDocuments({})).documents).toEqual([]);
    expect(await errorOf(h.client(GLOBEX_KEY).getChunk({ chunkId: "acme-only#0" }))).toMatchObject({ code: Code.NotFound, rawMessage: "chunk_id: no such chunk" });
    expect(await errorOf(h.client(GLOBEX_KEY).deleteDocument({ documentId: "acme-only" }))).toMatchObject({ code: Code.NotFound });
    // The same id in another tenant is another document.
    const theirs = await h.client(GLOBEX_KEY).upsertDocuments({ documents: [wire({ id: "acme-only", body: "Globex text." })] });
    expect(theirs.results[0]?.status).toBe(UpsertStatus.ADDED);
    expect((await h.client().getChunk({ chunkId: "acme-only#0" })).chunk?.text).not.toContain("Globex");
  });

  test.each([
    ["no documents", {}, "documents: required"],
    ["too many", { documents: [wire({ id: "a" }), wire({ id: "b" }), wire({ id: "c" }), wire({ id: "d" })] }, "documents: at most 3 documents per call (got 4)"],
    ["a missing title", { documents: [wire({ id: "ok-1" }), wire({ id: "x", title: "" })] }, "documents[1].title: missing field(s): title"],
    ["an unknown language", { documents: [wire({ lang: "de" })] }, 'documents[0].lang: unsupported lang "de" (expected fa or en)'],
    ["a domain that is not a slug", { documents: [wire({ domain: "Pets!" })] }, 'documents[0].domain: invalid domain "Pets!" (a slug: lower-case letters, digits, dashes)'],
    ["an unsafe id", { documents: [wire({ id: "a b" })] }, 'documents[0].id: invalid id "a b" (letters, digits, . _ - only)'],
    ["an empty body", { documents: [wire({ body: " \n " })] }, "documents[0].body: empty body"],
    ["a repeated id", { documents: [wire({ id: "twice" }), wire({ id: "twice" })] }, 'documents[1].id: "twice" is also documents[0]'],
    ["a body over the limit", { documents: [wire({ body: "word ".repeat(1_200) })] }, "documents[0].body: body of 5999 characters is over the limit of 5000"],
    ["an unbroken run", { documents: [wire({ body: `x${"y".repeat(800)}` })] }, "documents[0].body: chunk over the size limit: an unbroken run of 801 characters cannot fit in a chunk of 700"],
    ["a long source", { documents: [wire({ source: "s".repeat(1_025) })] }, "documents[0].source: must be at most 1024 characters"],
  ])("refuses %s with INVALID_ARGUMENT naming the field, and writes nothing", async (_name, request, message) => {
    const before = (await h.client().listDocuments({ pageSize: 1000 })).documents.map((d) => `${d.id}:${d.contentHash}`);
    expect(await errorOf(h.client().upsertDocuments(request))).toMatchObject({ code: Code.InvalidArgument, rawMessage: message });
    const after = (await h.client().listDocuments({ pageSize: 1000 })).documents.map((d) => `${d.id}:${d.contentHash}`);
    expect(after).toEqual(before);
  });

  test("deletes a document and its chunks; unknown is NOT_FOUND; a start-up corpus document is FAILED_PRECONDITION", async () => {
    await h.client().upsertDocuments({ documents: [wire({ id: "to-delete" })] });
    await h.client().deleteDocument({ documentId: "to-delete" });
    expect(await errorOf(h.client().getChunk({ chunkId: "to-delete#0" }))).toMatchObject({ code: Code.NotFound });
    expect(await errorOf(h.client().deleteDocument({ documentId: "to-delete" }))).toMatchObject({ code: Code.NotFound, rawMessage: "document_id: no such document" });
    expect(await errorOf(h.client().deleteDocument({ documentId: "bundled-en" }))).toMatchObject({
      code: Code.FailedPrecondition,
      rawMessage: "document_id: the document comes from the start-up corpus directory; remove its file instead",
    });
    expect(await errorOf(h.client().deleteDocument({ documentId: "" }))).toMatchObject({ code: Code.InvalidArgument, rawMessage: "document_id: required" });
    expect(await errorOf(h.client().deleteDocument({ documentId: "../etc" }))).toMatchObject({ code: Code.InvalidArgument });
  });

  test("lists a page at a time (default page size from config), by domain, refusing bad tokens", async () => {
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await h.client().listDocuments({ pageToken });
      expect(page.documents.length).toBeLessThanOrEqual(2);
      seen.push(...page.documents.map((d) => d.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(["bundled-en", "glass-en", "travel-en"]));
    const travel = await h.client().listDocuments({ domain: "travel", pageSize: 10 });
    expect(travel.documents.map((d) => [d.id, d.domain, d.chunkCount])).toEqual([["travel-en", "travel", 1]]);
    expect(travel.documents[0]?.contentHash).toMatch(/^[0-9a-f]{64}$/u);
    expect(await errorOf(h.client().listDocuments({ pageSize: 1001 }))).toMatchObject({ code: Code.InvalidArgument, rawMessage: "page_size: must be at most 1000" });
    // Domains are the documents' own: one no document has lists nothing; a malformed one is refused.
    expect((await h.client().listDocuments({ domain: "pets" })).documents).toEqual([]);
    expect(await errorOf(h.client().listDocuments({ domain: "Pets!" }))).toMatchObject({ code: Code.InvalidArgument, rawMessage: "domain: must be a slug: lower-case letters, digits and dashes, at most 64" });
    expect(await errorOf(h.client().listDocuments({ pageToken: "bm90LWpzb24" }))).toMatchObject({ code: Code.InvalidArgument, rawMessage: "page_token: not a token this service issued" });
  });

  test("GetChunk refuses malformed ids", async () => {
    for (const chunkId of ["", "glass-en", "glass-en#01", "glass-en#-1", "#0"]) {
      expect(await errorOf(h.client().getChunk({ chunkId })), chunkId).toMatchObject({ code: Code.InvalidArgument });
    }
  });

  test("a failing embedder is UNAVAILABLE, and the call changed nothing", async () => {
    h.breakEmbedder(true);
    try {
      const error = await errorOf(h.client().upsertDocuments({ documents: [wire({ id: "glass-en", body: "A new version." })] }));
      expect(error).toMatchObject({ code: Code.Unavailable, rawMessage: "retrieval unavailable (embedder or vector store), retry later" });
      expect(error.message).not.toContain("embedding service down");
    } finally {
      h.breakEmbedder(false);
    }
    expect((await h.client().getChunk({ chunkId: "glass-en#1" })).chunk?.text).toBe("The glass deductible is 5 percent.");
  });

  test("works over plain gRPC too", async () => {
    const grpc = createClient(
      DocumentService,
      createGrpcTransport({
        baseUrl: h.server.baseUrl,
        interceptors: [
          (next) => (req) => {
            req.header.set("authorization", bearer(ACME_KEY).authorization ?? "");
            return next(req);
          },
        ],
      }),
    );
    expect((await grpc.getChunk({ chunkId: "bundled-en#0" })).chunk?.text).toBe("Bundled\n\nFrom the corpus directory.");
  });
});

describe("without a document index", () => {
  test("the server does not offer DocumentService", async () => {
    const server = await startServer();
    try {
      const error = await errorOf(createClient(DocumentService, server.transport(ACME_KEY)).listDocuments({}));
      expect(error.code).toBe(Code.Unimplemented);
    } finally {
      await server.close();
    }
  });
});
