import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { eraseThroughSaver } from "../erase.js";
import { createInProcessTurnEvents, type FanoutOptions } from "../fanout.js";
import { createInProcessLocks } from "../locks.js";
import { DEFAULT_WATCH } from "../memory.js";
import type { Persistence } from "../ports.js";
import { TurnScopedSaver } from "../turn-scoped-saver.js";
import { openLocalDatabase, truncateWal } from "./database.js";
import { createSqliteProfileStore } from "./profiles.js";

export { openLocalDatabase } from "./database.js";

/** The embedded default: one SQLite file in the data directory, surviving restarts. */
export function createFilePersistence(dataDir: string, watch: FanoutOptions = DEFAULT_WATCH): Persistence {
  const db = openLocalDatabase(dataDir);
  const sqlite = new SqliteSaver(db);
  // SqliteSaver keeps every checkpoint forever; a thread needs only its latest. Its tables exist
  // once it has written (it creates them lazily), which is always before the first prune.
  const prune = async (threadId: string, keep: string) => {
    db.transaction(() => {
      db.prepare("DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id <> ?").run(threadId, keep);
      db.prepare("DELETE FROM writes WHERE thread_id = ? AND checkpoint_id <> ?").run(threadId, keep);
    })();
  };
  const locks = createInProcessLocks();
  const saver = new TurnScopedSaver(sqlite, prune);
  const events = createInProcessTurnEvents(watch);
  return {
    kind: "file",
    saver,
    profiles: createSqliteProfileStore(db),
    locks,
    events,
    async eraseThread(key) {
      const existed = await eraseThroughSaver(saver)(key);
      truncateWal(db);
      return existed;
    },
    async close() {
      await events.close();
      await locks.close();
      db.close();
    },
  };
}

