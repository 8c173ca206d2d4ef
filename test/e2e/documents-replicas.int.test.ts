import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentService } from "../../gen/frontdesk/v1/document_service_pb.js";
import { TurnRequestSchema, type TurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { spawnReplica, type Replica } from "../support/replica.js";

// Two `frontdesk serve` processes on one database with the embedded retriever: documents
// ingested through one replica's DocumentService are searched and resolved on the other.

let db: TestDatabase;
let a: Replica;
let b: Replica;
let docsA: Client<typeof DocumentService>;
let docsB: Client<typeof DocumentService>;

const documentsOf = (replica: Replica) => createClient(DocumentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${replica.port}` }));
const turn = (threadId: string, text: string) => create(TurnRequestSchema, { threadId, userId: "u-1", text });

async function answer(replica: Replica, threadId: string, text: string): Promise<Extract<TurnResult["outcome"], { case: "answer" }>["value"]> {
  const result = (await replica.client.turn(turn(threadId, text))).result!;
  if (result.outcome.case !== "answer") throw new Error(`expected an answer, got ${result.outcome.case}: ${JSON.stringify(result.outcome.value)}`);
  return result.outcome.value;
}

async function refusal(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("expected the call to fail");
}

const bicycle = {
  id: "bicycle-en",
  title: "Bicycle Insurance",
  product: "bicycle",
  domain: "general",
  lang: "en",
  body: "Bicycle insurance from Arman Insurance covers theft of a locked bicycle.\n\n## Bicycle theft deductible\n\nThe bicycle theft deductible is 15% of the bicycle's value.",
};

const kayak = {
  id: "kayak-en",
  title: "Kayak Insurance",
  product: "kayak",
  domain: "general",
  lang: "en",
  body: "Kayak insurance from Arman Insurance covers a kayak on the water.\n\n## Kayak theft deductible\n\nThe kayak theft deductible is 9% of the kayak's value.",
};

beforeAll(async () => {
  db = await createTestDatabase("docreplicas");
  // Polling an hour apart: what B sees, it was notified of or checked for on a read.
  const env = { FRONTDESK_DOCUMENT_POLL_MS: "3600000" };
  [a, b] = await Promise.all([spawnReplica(db.url, "a", env), spawnReplica(db.url, "b", env)]);
  docsA = documentsOf(a);
  docsB = documentsOf(b);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

describe("documents on every replica (embedded retriever, PostgreSQL document store)", () => {
  it("an upsert through A is searched on B, and a citation from either resolves on the other to the same text", async () => {
    const upserted = await docsA.upsertDocuments({ documents: [bicycle] });
    expect(upserted.results.map((r) => [r.documentId, r.chunkCount])).toEqual([["bicycle-en", 2]]);

    const fromA = await answer(a, "dr-a", "What is the deductible for bicycle theft?");
    const cited = fromA.citations.find((c) => c.documentId === "bicycle-en");
    expect(cited, JSON.stringify(fromA.citations)).toBeDefined();
    const onA = (await docsA.getChunk({ chunkId: cited!.chunkId })).chunk!;
    const onB = (await docsB.getChunk({ chunkId: cited!.chunkId })).chunk!;
    expect(onB).toEqual(onA);
    expect(onB.text).toContain("15%");

    // B's own search finds the document, and its citation resolves on A.
    const fromB = await answer(b, "dr-b", "What is the deductible for bicycle theft?");
    expect(fromB.text).toContain("15%");
    const citedByB = fromB.citations.find((c) => c.documentId === "bicycle-en")!;
    expect((await docsA.getChunk({ chunkId: citedByB.chunkId })).chunk?.text).toBe((await docsB.getChunk({ chunkId: citedByB.chunkId })).chunk?.text);
    expect((await docsB.listDocuments({ pageSize: 1000 })).documents.find((d) => d.id === "bicycle-en")?.chunkCount).toBe(2);
  });

  it("B's searches follow A's writes without a read on B (NOTIFY)", async () => {
    await docsA.upsertDocuments({ documents: [kayak] });
    const deadline = Date.now() + 10_000;
    for (let i = 0; ; i++) {
      const fromB = (await b.client.turn(turn(`dr-kayak-${i}`, "What is the deductible for kayak theft?"))).result!;
      if (fromB.outcome.case === "answer" && fromB.outcome.value.citations.some((c) => c.documentId === "kayak-en")) break;
      if (Date.now() > deadline) throw new Error("B never searched the kayak document");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it("a delete through A is NOT_FOUND on B at once, and the document leaves B's listing and searches", async () => {
    const fromB = await answer(b, "dr-del", "What is the deductible for bicycle theft?");
    const chunkId = fromB.citations.find((c) => c.documentId === "bicycle-en")!.chunkId;
    await docsA.deleteDocument({ documentId: "bicycle-en" });
    const gone = await refusal(docsB.getChunk({ chunkId }));
    expect([gone.code, gone.rawMessage]).toEqual([Code.NotFound, "chunk_id: no such chunk"]);
    expect((await docsB.listDocuments({ pageSize: 1000 })).documents.map((d) => d.id)).not.toContain("bicycle-en");
    const again = await refusal(docsB.deleteDocument({ documentId: "bicycle-en" }));
    expect(again.code).toBe(Code.NotFound);
    const after = (await b.client.turn(turn("dr-del-2", "What is the deductible for bicycle theft?"))).result!;
    const citations = after.outcome.case === "answer" ? after.outcome.value.citations : [];
    expect(citations.map((c) => c.documentId)).not.toContain("bicycle-en");
  });

  it("refuses bad input with INVALID_ARGUMENT naming the field, writing nothing of the call", async () => {
    const before = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM frontdesk_documents");
    const bad = await refusal(
      docsA.upsertDocuments({
        documents: [
          { ...bicycle, id: "half-written" },
          { ...kayak, id: "half-written-2", lang: "de" },
        ],
      }),
    );
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.rawMessage).toMatch(/^documents\[1\]\.lang: /u);
    expect(await db.query<{ n: string }>("SELECT count(*)::text AS n FROM frontdesk_documents")).toEqual(before);
    expect((await docsB.listDocuments({ pageSize: 1000 })).documents.map((d) => d.id)).not.toContain("half-written");

    // U+0000 passes no check of the wire format, but PostgreSQL cannot store it: refused as bad input, not INTERNAL.
    const nul = await refusal(
      docsA.upsertDocuments({
        documents: [
          { ...kayak, id: "nul-ok" },
          { ...kayak, id: "nul-body", body: "Kayak\u0000 theft." },
        ],
      }),
    );
    expect([nul.code, nul.rawMessage]).toEqual([Code.InvalidArgument, "documents[1].body: must not contain U+0000 (at character 6)"]);
    expect(await db.query<{ n: string }>("SELECT count(*)::text AS n FROM frontdesk_documents")).toEqual(before);

    const badId = await refusal(docsB.deleteDocument({ documentId: "../etc" }));
    expect([badId.code, badId.rawMessage.split(":")[0]]).toEqual([Code.InvalidArgument, "document_id"]);
    const badChunk = await refusal(docsB.getChunk({ chunkId: "kayak-en" }));
    expect([badChunk.code, badChunk.rawMessage.split(":")[0]]).toEqual([Code.InvalidArgument, "chunk_id"]);
  });

  it("a replica started later loads every stored document, and a corpus document stays read-only on every replica", async () => {
    const c = await spawnReplica(db.url, "c", { FRONTDESK_DOCUMENT_POLL_MS: "3600000" });
    try {
      const docsC = documentsOf(c);
      const ids = (await docsC.listDocuments({ pageSize: 1000 })).documents.map((d) => d.id);
      expect(ids).toContain("kayak-en");
      expect(ids).not.toContain("bicycle-en");
      const corpusId = ids.find((id) => id !== "kayak-en")!;
      const readOnly = await refusal(docsC.deleteDocument({ documentId: corpusId }));
      expect(readOnly.code).toBe(Code.FailedPrecondition);
    } finally {
      await c.stop();
    }
  }, 60_000);
});
