import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CommandIo } from "../../src/cli/chat.js";
import { main } from "../../src/cli/main.js";
import { startRealServer, type RealServer } from "../e2e/support.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { paragraphId } from "../retrieval/helpers.js";

// `frontdesk ingest` with the embedded retriever on PostgreSQL writes the shared store, and a
// running server serves the documents at once: no restart, unlike the file store.

function io(env: Record<string, string>): { io: CommandIo; stdout: () => string; stderr: () => string } {
  const texts = { out: "", err: "" };
  const sink = (key: "out" | "err") =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        texts[key] += chunk.toString("utf8");
        done();
      },
    });
  return { io: { stdin: new PassThrough(), stdout: sink("out"), stderr: sink("err"), env, stdoutIsTTY: false }, stdout: () => texts.out, stderr: () => texts.err };
}

let db: TestDatabase;
let server: RealServer;
let dir = "";

beforeAll(async () => {
  db = await createTestDatabase("ingestpg");
  dir = await mkdtemp(path.join(tmpdir(), "frontdesk-ingest-pg-"));
  // A memory checkpointer beside the shared document store: each is chosen on its own.
  server = await startRealServer({ DATABASE_URL: db.url, FRONTDESK_DOCUMENT_STORE: "postgres", FRONTDESK_DOCUMENT_POLL_MS: "3600000" });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("frontdesk ingest into the shared document store", () => {
  test("writes PostgreSQL, and the running server serves the documents without a restart", async () => {
    const file = path.join(dir, "bicycle-en.md");
    await writeFile(
      file,
      "---\nid: bicycle-en\ntitle: Bicycle Insurance\nproduct: bicycle\ndomain: general\nlang: en\n---\nBicycle insurance covers theft of a locked bicycle.\n\n## Bicycle theft deductible\n\nThe bicycle theft deductible is 15%.\n",
    );
    const run = io({ DATABASE_URL: db.url, FRONTDESK_DATA_DIR: path.join(dir, "unused") });
    expect(await main(["ingest", file], run.io), run.stderr()).toBe(0);
    expect(run.stdout()).toBe(
      "ingested 1 document(s) into the shared document store in PostgreSQL for tenant default: 1 added, 0 replaced, 0 unchanged (2 chunks written); 0 failed\n",
    );
    expect(await db.query("SELECT tenant_id, document_id, deleted FROM frontdesk_documents")).toEqual([{ tenant_id: "default", document_id: "bicycle-en", deleted: false }]);

    const { chunk } = await server.documents.getChunk({ chunkId: paragraphId("bicycle-en", "The bicycle theft deductible is 15%.") });
    expect(chunk?.text).toBe("The bicycle theft deductible is 15%.");
    const result = (await server.client.turn({ threadId: "ingest-pg", userId: "u", text: "What is the deductible for bicycle theft?" })).result!;
    expect(result.outcome.case === "answer" ? result.outcome.value.citations.map((c) => c.documentId) : []).toContain("bicycle-en");

    const again = io({ DATABASE_URL: db.url });
    expect(await main(["ingest", file], again.io)).toBe(0);
    expect(again.stdout()).toContain("0 added, 0 replaced, 1 unchanged");
  });
});
