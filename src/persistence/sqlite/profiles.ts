import type Database from "better-sqlite3";
import type { UserProfile } from "../../domain/profile.js";
import type { ProfileStore } from "../ports.js";
import { parseProfile } from "../profile-store.js";
import { truncateWal } from "./database.js";

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
      const existed = remove.run(tenantId, userId).changes > 0;
      // Erasure for real: the row's old versions leave the WAL too (secure_delete zeroes the page).
      truncateWal(db);
      return existed;
    },
  };
}
