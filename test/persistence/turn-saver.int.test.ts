import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { StorageUnavailableError } from "../../src/persistence/errors.js";
import { createPool } from "../../src/persistence/postgres/connection.js";
import { createPostgresPersistence, migrateDatabase, type PostgresPersistence } from "../../src/persistence/postgres/index.js";
import { FrontdeskPostgresSaver } from "../../src/persistence/postgres/saver.js";
import { createTestDatabase, threadFootprint, type TestDatabase } from "../support/postgres.js";
import { checkpoint, inTurn, turnSaverSpec } from "../support/turn-saver-spec.js";

const settings = { ...loadConfig({}).persistence.postgres, connectTimeoutMs: 1_000 };
const watch = { bufferEvents: 256, maxWatchers: 100, publishQueue: 1_000 };
const meta = { source: "loop" as const, step: 0, parents: {} };

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("turnsaver");
});
afterAll(async () => {
  await db?.drop();
});

const open = () => createPostgresPersistence({ databaseUrl: db.url, settings, watch, logger: silentLogger, sweepInBackground: false });

// The memory and file backends run the same spec in turn-saver.test.ts.
turnSaverSpec("postgres", async () => {
  const persistence = await open();
  return { saver: persistence.saver, locks: persistence.locks, prunes: true, close: () => persistence.close() };
});

describe("postgres: threads whose id has no tenant", () => {
  let p: PostgresPersistence;
  beforeAll(async () => {
    p = await open();
  });
  afterAll(async () => p?.close());

  it("commits them under the empty tenant, so the idle sweep and erasure reach them, and erases every row", async () => {
    const values = checkpoint({ question: "deductible?" });
    await inTurn(p, "plain-id", async () => {
      await p.saver.put({ configurable: { thread_id: "plain-id" } }, values, meta, values.channel_versions);
    });
    expect(await db.query("SELECT tenant_id, thread_id FROM frontdesk_threads WHERE thread_key = 'plain-id'")).toEqual([{ tenant_id: "", thread_id: "plain-id" }]);
    expect(await threadFootprint(db, "plain-id")).toMatchObject({ checkpoints: 1, blobs: 1 });

    expect(await p.eraseThread("plain-id")).toBe(true);
    expect(await threadFootprint(db, "plain-id")).toMatchObject({ checkpoints: 0, blobs: 0, writes: 0 });
    expect(await db.query("SELECT 1 FROM frontdesk_threads WHERE thread_key = 'plain-id'")).toEqual([]);
    expect(await p.eraseThread("plain-id")).toBe(false);
  });

  it("deleteThread on the bare saver too, with a lost database reported as StorageUnavailableError like any storage failure", async () => {
    await migrateDatabase(db.url, settings, silentLogger);
    const pool = createPool({ connectionString: db.url, connectTimeoutMs: 1_000, statementTimeoutMs: 5_000 }, 2, silentLogger, "bare");
    const saver = new FrontdeskPostgresSaver(pool);
    try {
      const values = checkpoint({ question: "deductible?" });
      await saver.put({ configurable: { thread_id: "plain-bare", checkpoint_ns: "" } }, values, meta, values.channel_versions);
      await saver.deleteThread("plain-bare");
      expect(await saver.getTuple({ configurable: { thread_id: "plain-bare" } })).toBeUndefined();

      await db.allowConnections(false);
      await db.terminateConnections();
      await expect(saver.deleteThread("plain-bare")).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(p.saver.deleteThread("plain-id")).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await db.allowConnections(true);
      await pool.end();
    }
  });
});
