import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type Database from "better-sqlite3";
import { PlainJsonSerializer } from "../serde.js";
import { TurnScopedSaver } from "../turn-scoped-saver.js";

/**
 * The file backend's saver: SqliteSaver on `db`, one checkpoint per turn. SqliteSaver keeps every
 * checkpoint forever; a thread needs only the latest of each namespace, so each commit deletes
 * the namespace's older checkpoints and their pending writes. Its tables exist once it has
 * written (it creates them lazily), which is always before the first prune.
 */
export function createFileSaver(db: Database.Database): TurnScopedSaver {
  const sqlite = new SqliteSaver(db, new PlainJsonSerializer());
  const prune = async (threadId: string, checkpointNs: string, keep: string) => {
    db.transaction(() => {
      db.prepare("DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id <> ?").run(threadId, checkpointNs, keep);
      db.prepare("DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id <> ?").run(threadId, checkpointNs, keep);
    })();
  };
  return new TurnScopedSaver(sqlite, prune);
}
