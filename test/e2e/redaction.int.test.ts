import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadKey } from "../../src/persistence/index.js";
import { leakedValues } from "../support/pii.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { capturedLogger, expectCleanLogs, expectMaskedResults, expectMaskedThread, holdConversation, PROOF_ENV } from "./redaction.js";
import { startRealServer, type RealServer } from "./support.js";

/** Every table that holds a thread's or a user's data, as the rows' bytes (bytea as is, the rest as text). */
const TABLES = {
  checkpoints: "SELECT thread_id, checkpoint::text AS checkpoint, metadata::text AS metadata FROM checkpoints",
  checkpoint_blobs: "SELECT thread_id, channel, blob FROM checkpoint_blobs",
  checkpoint_writes: "SELECT thread_id, channel, blob FROM checkpoint_writes",
  frontdesk_event_payloads: "SELECT thread_id, payload FROM frontdesk_event_payloads",
  frontdesk_user_memory: "SELECT user_id, profile::text AS profile FROM frontdesk_user_memory",
  frontdesk_threads: "SELECT thread_key, thread_id FROM frontdesk_threads",
} as const;

async function tableBytes(db: TestDatabase): Promise<Record<keyof typeof TABLES, { rows: number; bytes: Buffer }>> {
  const out = {} as Record<keyof typeof TABLES, { rows: number; bytes: Buffer }>;
  for (const [table, sql] of Object.entries(TABLES) as Array<[keyof typeof TABLES, string]>) {
    const rows = await db.query<Record<string, unknown>>(sql);
    const parts = rows.flatMap((row) => Object.values(row).map((v) => (Buffer.isBuffer(v) ? v : Buffer.from(v === null ? "" : String(v), "utf8"))));
    out[table] = { rows: rows.length, bytes: Buffer.concat(parts) };
  }
  return out;
}

describe("personal data on PostgreSQL (the real service over gRPC)", () => {
  const { lines, logger } = capturedLogger();
  const threadId = "redaction-pg-41c9";
  const key = threadKey("default", threadId);
  let db: TestDatabase;
  let server: RealServer;

  beforeAll(async () => {
    db = await createTestDatabase("redaction");
    // Few connections: the PostgreSQL suites run two files at a time on one server.
    server = await startRealServer(
      { ...PROOF_ENV, DATABASE_URL: db.url, FRONTDESK_CHECKPOINTER: "postgres", FRONTDESK_DB_POOL_MAX: "2", FRONTDESK_DB_LOCK_CONNECTIONS: "2" },
      {},
      { logger },
    );
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("masks every value in the results, GetThread, every table and the logs; DeleteThread and DeleteUserMemory leave no row", async () => {
    const results = await holdConversation(server, threadId, "redaction-user");
    expectMaskedResults(results);
    await expectMaskedThread(server, threadId);

    const tables = await tableBytes(db);
    for (const [table, { bytes }] of Object.entries(tables)) expect(leakedValues(bytes), table).toEqual([]);
    expect(tables.checkpoints.rows).toBe(1);
    // The handoff's result was too large for NOTIFY, so it went through the payload table.
    expect(tables.frontdesk_event_payloads.rows).toBeGreaterThan(0);
    expect(tables.frontdesk_event_payloads.bytes.toString("utf8")).toContain("[mobile ••••۴۵۶۷]");
    // Masked, not missing: the channel values hold the thread with its values replaced.
    const state = tables.checkpoint_blobs.bytes.toString("utf8") + tables.checkpoints.bytes.toString("utf8");
    for (const mask of ["[national-id]", "[mobile ••••4567]", "[mobile ••••۲۲۳۳]", "[card]", "[iban]", "[email]"]) expect(state).toContain(mask);
    expect(tables.frontdesk_user_memory.bytes.toString("utf8")).toContain("Peugeot 206");

    expect((await server.client.deleteThread({ threadId })).existed).toBe(true);
    expect((await server.client.deleteUserMemory({ userId: "redaction-user" })).existed).toBe(true);

    for (const [table, column] of [
      ["checkpoints", "thread_id"],
      ["checkpoint_blobs", "thread_id"],
      ["checkpoint_writes", "thread_id"],
      ["frontdesk_threads", "thread_key"],
    ] as const) {
      expect(await db.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [key]), table).toEqual([]);
    }
    expect(await db.query("SELECT 1 FROM frontdesk_event_payloads WHERE tenant_id = 'default' AND thread_id = $1", [threadId])).toEqual([]);
    expect(await db.query("SELECT 1 FROM frontdesk_user_memory WHERE user_id = 'redaction-user'")).toEqual([]);
    const after = await tableBytes(db);
    for (const [table, { rows }] of Object.entries(after)) expect(rows, table).toBe(0);
    await expect(server.client.getThread({ threadId })).rejects.toMatchObject({ code: Code.NotFound });

    expectCleanLogs(lines);
  });
});
