import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import { createFilePersistence } from "../../src/persistence/sqlite/index.js";
import { turnSaverSpec } from "../support/turn-saver-spec.js";

// The Postgres backend runs the same spec in turn-saver.int.test.ts.
turnSaverSpec("memory", async () => {
  const persistence = createMemoryPersistence();
  return { saver: persistence.saver, locks: persistence.locks, prunes: false, close: () => persistence.close() };
});

turnSaverSpec("file", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-turn-saver-"));
  const persistence = createFilePersistence(dir);
  return {
    saver: persistence.saver,
    locks: persistence.locks,
    prunes: true,
    async close() {
      await persistence.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
