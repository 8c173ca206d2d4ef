import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leakedValues } from "../support/pii.js";
import { capturedLogger, expectCleanLogs, expectMaskedResults, expectMaskedThread, holdConversation, PROOF_ENV } from "./redaction.js";
import { startRealServer, type RealServer } from "./support.js";

/** Every file of the data directory (the database, its WAL and shared-memory index), as bytes. */
function dataFiles(dir: string): Array<{ file: string; bytes: Buffer }> {
  return readdirSync(dir).map((file) => ({ file, bytes: readFileSync(path.join(dir, file)) }));
}

describe("personal data on the embedded SQLite file (the real service over gRPC)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-redaction-"));
  const { lines, logger } = capturedLogger();
  const threadId = "redaction-sqlite-7f3a";
  let server: RealServer;

  beforeAll(async () => {
    server = await startRealServer({ ...PROOF_ENV, FRONTDESK_CHECKPOINTER: "file", FRONTDESK_DATA_DIR: dir }, {}, { logger });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("masks every value in the results, GetThread, the file and its WAL, and the logs; DeleteThread and DeleteUserMemory leave nothing", async () => {
    const results = await holdConversation(server, threadId, "redaction-user");
    expectMaskedResults(results);
    await expectMaskedThread(server, threadId);

    // The bytes on disk, read while the service runs: the database file and its WAL.
    const files = dataFiles(dir);
    expect(files.map((f) => f.file).sort()).toEqual(["frontdesk.sqlite", "frontdesk.sqlite-shm", "frontdesk.sqlite-wal"]);
    for (const { file, bytes } of files) expect(leakedValues(bytes), file).toEqual([]);
    const stored = Buffer.concat(files.map((f) => f.bytes)).toString("utf8");
    // Masked, not missing: the thread is there, its values replaced by their masks.
    for (const mask of ["[national-id]", "[mobile ••••4567]", "[mobile ••••۲۲۳۳]", "[card]", "[iban]", "[email]"]) expect(stored).toContain(mask);
    expect(stored).toContain(threadId);
    // Long-term memory kept the durable fact and nothing else of the message.
    expect(stored).toContain("Peugeot 206");

    expect((await server.client.deleteThread({ threadId })).existed).toBe(true);
    expect((await server.client.deleteUserMemory({ userId: "redaction-user" })).existed).toBe(true);

    // Deleted rows are zeroed in the file (secure_delete) and the WAL is truncated, so no page of
    // the thread survives anywhere on disk: not its id, its words, its masks, nor the memory.
    const after = Buffer.concat(dataFiles(dir).map((f) => f.bytes)).toString("utf8");
    expect(readFileSync(path.join(dir, "frontdesk.sqlite-wal")).byteLength).toBe(0);
    for (const trace of [threadId, "Which e-mail address do I use for support", "کارشناس صحبت", "[national-id]", "[mobile ••••4567]", "Peugeot 206"]) {
      expect(after.includes(trace), trace).toBe(false);
    }
    expect(leakedValues(after)).toEqual([]);
    await expect(server.client.getThread({ threadId })).rejects.toMatchObject({ code: Code.NotFound });

    expectCleanLogs(lines);
  });
});
