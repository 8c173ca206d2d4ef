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
  // Deleted rows are overwritten with zeros, not left in free pages: an erased thread (and the
  // checkpoints every turn prunes) cannot be read back from the file. Erasure then truncates the
  // WAL (truncateWal), whose older frames still hold the pages as they were.
  db.pragma("secure_delete = ON");
  return db;
}

/**
 * Copies the WAL into the database file and truncates it to zero bytes, so no frame written
 * before an erasure survives in it. A reader holding an old snapshot makes it stop short (SQLite
 * returns busy); the next erasure tries again.
 */
export function truncateWal(db: Database.Database): void {
  db.pragma("wal_checkpoint(TRUNCATE)");
}
