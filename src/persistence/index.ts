import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Config } from "../config/config.js";
import { ConfigError } from "../config/config.js";
import { createInProcessLocks, type ThreadLocks } from "./locks.js";
import { createBaseStoreProfileStore, type ProfileStore } from "./profile-store.js";
import { createSqliteProfileStore, openLocalDatabase } from "./sqlite.js";
import { TurnScopedSaver } from "./turn-scoped-saver.js";

export { StorageUnavailableError } from "./errors.js";
export type { Lease, ThreadLocks } from "./locks.js";
export type { ProfileStore } from "./profile-store.js";
export { TurnScopedSaver, type TurnTransaction } from "./turn-scoped-saver.js";

/** Everything that keeps threads and memory, chosen by configuration. */
export interface Persistence {
  kind: Config["persistence"]["checkpointer"];
  saver: TurnScopedSaver;
  profiles: ProfileStore;
  locks: ThreadLocks;
  close(): Promise<void>;
}

export function createMemoryPersistence(): Persistence {
  return {
    kind: "memory",
    saver: new TurnScopedSaver(new MemorySaver()),
    profiles: createBaseStoreProfileStore(new InMemoryStore()),
    locks: createInProcessLocks(),
    async close() {},
  };
}

/** The embedded default: one SQLite file in the data directory, surviving restarts. */
export function createFilePersistence(dataDir: string): Persistence {
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
  return {
    kind: "file",
    saver: new TurnScopedSaver(sqlite, prune),
    profiles: createSqliteProfileStore(db),
    locks,
    async close() {
      await locks.close();
      db.close();
    },
  };
}

export async function createPersistence(config: Config): Promise<Persistence> {
  const kind = config.persistence.checkpointer;
  switch (kind) {
    case "memory":
      return createMemoryPersistence();
    case "file":
      return createFilePersistence(config.persistence.dataDir);
    case "postgres":
      throw new ConfigError("FRONTDESK_CHECKPOINTER=postgres is not available in this build yet; use file or memory");
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown checkpointer ${String(unreachable)}`);
    }
  }
}
