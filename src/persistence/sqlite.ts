import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { UserProfile } from "../domain/profile.js";
import { parseProfile, type ProfileStore } from "./profile-store.js";

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

export function createSqliteProfileStore(db: Database.Database): ProfileStore {
  db.exec(`CREATE TABLE IF NOT EXISTS user_profiles (
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    profile TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
  )`);
  const select = db.prepare<[string, string], { profile: string }>("SELECT profile FROM user_profiles WHERE tenant_id = ? AND user_id = ?");
  const upsert = db.prepare(
    `INSERT INTO user_profiles (tenant_id, user_id, profile, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (tenant_id, user_id) DO UPDATE SET profile = excluded.profile, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare("DELETE FROM user_profiles WHERE tenant_id = ? AND user_id = ?");
  return {
    async get(tenantId, userId) {
      const row = select.get(tenantId, userId);
      return row === undefined ? {} : parseProfile(JSON.parse(row.profile));
    },
    async put(tenantId, userId, profile: UserProfile) {
      upsert.run(tenantId, userId, JSON.stringify(profile), new Date().toISOString());
    },
    async delete(tenantId, userId) {
      return remove.run(tenantId, userId).changes > 0;
    },
  };
}
