import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Config } from "../config/config.js";
import { ConfigError } from "../config/config.js";
import { silentLogger, type Logger } from "../domain/logger.js";
import { createInProcessLocks, type ThreadLocks } from "./locks.js";
import { createPostgresPersistence } from "./postgres.js";
import { createBaseStoreProfileStore, type ProfileStore } from "./profile-store.js";
import { createSqliteProfileStore, openLocalDatabase } from "./sqlite.js";
import { TurnScopedSaver } from "./turn-scoped-saver.js";
import { createInProcessTurnEvents, type FanoutOptions, type TurnEvents } from "./watch.js";

export { StorageUnavailableError } from "./errors.js";
export type { Lease, ThreadLocks } from "./locks.js";
export type { ProfileStore } from "./profile-store.js";
export { threadKey, parseThreadKey } from "./thread-key.js";
export { TurnScopedSaver, type TurnTransaction } from "./turn-scoped-saver.js";
export { WatchLimitError, type FellBehindReason, type TurnEvents, type Watch, type WatchFilter, type WatchMessage } from "./watch.js";

/** Everything that keeps threads and memory, chosen by configuration. */
export interface Persistence {
  kind: Config["persistence"]["checkpointer"];
  saver: TurnScopedSaver;
  profiles: ProfileStore;
  locks: ThreadLocks;
  /** Progress and results of running turns, for watchers (across processes with Postgres). */
  events: TurnEvents;
  /** Deletes everything kept for a thread (call it holding the thread's lease). True when something was deleted. */
  eraseThread(threadKey: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Watch limits when the caller has no configuration (tests, embedding programs). */
export const DEFAULT_WATCH: FanoutOptions = { bufferEvents: 256, maxWatchers: 1_000 };

/** Erasure through the saver, for backends whose saver holds everything kept for a thread. */
function eraseThroughSaver(saver: TurnScopedSaver) {
  return async (key: string): Promise<boolean> => {
    const existed = (await saver.getTuple({ configurable: { thread_id: key } })) !== undefined;
    await saver.deleteThread(key);
    return existed;
  };
}

export function createMemoryPersistence(watch: FanoutOptions = DEFAULT_WATCH): Persistence {
  const saver = new TurnScopedSaver(new MemorySaver());
  const events = createInProcessTurnEvents(watch);
  return {
    kind: "memory",
    saver,
    profiles: createBaseStoreProfileStore(new InMemoryStore()),
    locks: createInProcessLocks(),
    events,
    eraseThread: eraseThroughSaver(saver),
    async close() {
      await events.close();
    },
  };
}

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
    eraseThread: eraseThroughSaver(saver),
    async close() {
      await events.close();
      await locks.close();
      db.close();
    },
  };
}

export async function createPersistence(config: Config, logger: Logger = silentLogger): Promise<Persistence> {
  const kind = config.persistence.checkpointer;
  switch (kind) {
    case "memory":
      return createMemoryPersistence(config.watch);
    case "file":
      return createFilePersistence(config.persistence.dataDir, config.watch);
    case "postgres": {
      const databaseUrl = config.persistence.databaseUrl;
      if (databaseUrl === null) throw new ConfigError("FRONTDESK_CHECKPOINTER=postgres needs DATABASE_URL");
      return createPostgresPersistence({ databaseUrl, settings: config.persistence.postgres, watch: config.watch, logger });
    }
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown checkpointer ${String(unreachable)}`);
    }
  }
}
