import { eraseThroughSaver } from "../erase.js";
import { createInProcessTurnEvents, type FanoutOptions } from "../fanout.js";
import { createInProcessLocks } from "../locks.js";
import { DEFAULT_WATCH } from "../memory.js";
import type { Persistence } from "../ports.js";
import { openLocalDatabase, truncateWal } from "./database.js";
import { createSqliteProfileStore } from "./profiles.js";
import { createFileSaver } from "./saver.js";

export { openLocalDatabase } from "./database.js";

/** The embedded default: one SQLite file in the data directory, surviving restarts. */
export function createFilePersistence(dataDir: string, watch: FanoutOptions = DEFAULT_WATCH): Persistence {
  const db = openLocalDatabase(dataDir);
  const locks = createInProcessLocks();
  const saver = createFileSaver(db);
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
