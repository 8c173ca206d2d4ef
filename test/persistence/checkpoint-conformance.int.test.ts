import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createPostgresPersistence, migrateDatabase, type PostgresPersistence } from "../../src/persistence/postgres/index.js";
import { FrontdeskPostgresSaver } from "../../src/persistence/postgres/saver.js";
import { conformance, OneTurnPerWrite } from "../support/checkpoint-conformance.js";
import { PRUNED_HISTORY_CASES } from "../support/checkpoint-conformance-cases.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

// LangGraph's conformance suite against the Postgres backend's savers, with the stock
// PostgresSaver as the control (memory and file: checkpoint-conformance.test.ts). Skipped cases,
// with their reasons: test/support/checkpoint-conformance-cases.ts.

const settings = { ...loadConfig({}).persistence.postgres, connectTimeoutMs: 5_000 };
const watch = { bufferEvents: 256, maxWatchers: 100, publishQueue: 1_000 };

// One fresh database per run; the suite wants each checkpointer it creates to start empty, so
// createCheckpointer empties the tables (cheaper than a database per case).
async function empty(db: TestDatabase, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.query(`DELETE FROM ${table}`);
}
const CHECKPOINT_TABLES = ["checkpoint_writes", "checkpoint_blobs", "checkpoints"];
const FRONTDESK_TABLES = [...CHECKPOINT_TABLES, "frontdesk_threads", "frontdesk_event_payloads"];

{
  let db: TestDatabase;
  let pool: pg.Pool;
  conformance({
    checkpointerName: "stock PostgresSaver",
    beforeAllTimeout: 30_000,
    async beforeAll() {
      db = await createTestDatabase("conformance_stock");
      pool = new pg.Pool({ connectionString: db.url, max: 4 });
      await new PostgresSaver(pool).setup();
    },
    async afterAll() {
      await pool?.end();
      await db?.drop();
    },
    async createCheckpointer() {
      await empty(db, CHECKPOINT_TABLES);
      return new PostgresSaver(pool);
    },
  });
}

// FrontdeskPostgresSaver used as a plain LangGraph checkpointer: PostgresSaver's writes, frontdesk's deleteThread.
{
  let db: TestDatabase;
  let pool: pg.Pool;
  conformance({
    checkpointerName: "postgres, bare FrontdeskPostgresSaver",
    beforeAllTimeout: 30_000,
    async beforeAll() {
      db = await createTestDatabase("conformance_bare");
      await migrateDatabase(db.url, settings, silentLogger);
      pool = new pg.Pool({ connectionString: db.url, max: 4 });
    },
    async afterAll() {
      await pool?.end();
      await db?.drop();
    },
    async createCheckpointer() {
      await empty(db, FRONTDESK_TABLES);
      return new FrontdeskPostgresSaver(pool);
    },
  });
}

// What FRONTDESK_CHECKPOINTER=postgres runs: TurnScopedSaver over FrontdeskPostgresSaver, each
// turn committed by commitTurn on the connection holding the thread's advisory lock.
{
  let db: TestDatabase;
  let persistence: PostgresPersistence;
  conformance({
    checkpointerName: "postgres, one checkpoint per turn",
    beforeAllTimeout: 30_000,
    async beforeAll() {
      db = await createTestDatabase("conformance_turns");
      persistence = await createPostgresPersistence({ databaseUrl: db.url, settings, watch, logger: silentLogger, sweepInBackground: false });
    },
    async afterAll() {
      await persistence?.close();
      await db?.drop();
    },
    async createCheckpointer() {
      await empty(db, FRONTDESK_TABLES);
      return new OneTurnPerWrite(persistence.saver, persistence.locks);
    },
    skips: PRUNED_HISTORY_CASES,
  });
}
