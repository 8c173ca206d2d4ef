import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createPostgresPersistence } from "../../src/persistence/postgres/index.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { turnSaverSpec } from "../support/turn-saver-spec.js";

const settings = { ...loadConfig({}).persistence.postgres, connectTimeoutMs: 5_000 };
const watch = { bufferEvents: 256, maxWatchers: 100, publishQueue: 1_000 };

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
