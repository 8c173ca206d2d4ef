import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** Opens (creating if needed) the local SQLite file the embedded default keeps its data in. */
export function openLocalDatabase(dataDir: string, file = "frontdesk.sqlite"): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, file));
  // WAL: readers never block the single writer; NORMAL sync is durable across process crashes.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  return db;
}
