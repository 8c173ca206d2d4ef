import type pg from "pg";
import type { UserProfile } from "../../domain/profile.js";
import { guarded } from "./errors.js";
import { parseProfile } from "../profile-store.js";
import type { ProfileStore } from "../ports.js";

/**
 * Cross-thread user memory in frontdesk's own table, on the main pool: one JSON profile per
 * tenant and user. (It replaced LangGraph's PostgresStore, whose private pool could not be given
 * an error listener without reaching into the library; migration v2 copied its rows.)
 * Every operation is idempotent, so a stale pooled connection is retried once.
 */
export function createPostgresProfileStore(pool: pg.Pool): ProfileStore {
  return {
    get: (tenantId, userId) =>
      guarded("reading user memory", async () => {
        const result = await pool.query<{ profile: unknown }>("SELECT profile FROM frontdesk_user_memory WHERE tenant_id = $1 AND user_id = $2", [tenantId, userId]);
        const row = result.rows[0];
        return row === undefined ? {} : parseProfile(row.profile);
      }),
    put: (tenantId, userId, profile: UserProfile) =>
      guarded("writing user memory", async () => {
        await pool.query(
          `INSERT INTO frontdesk_user_memory (tenant_id, user_id, profile, updated_at) VALUES ($1, $2, $3::jsonb, now())
           ON CONFLICT (tenant_id, user_id) DO UPDATE SET profile = excluded.profile, updated_at = excluded.updated_at`,
          [tenantId, userId, JSON.stringify(profile)],
        );
      }),
    delete: (tenantId, userId) =>
      guarded("erasing user memory", async () => {
        const result = await pool.query("DELETE FROM frontdesk_user_memory WHERE tenant_id = $1 AND user_id = $2", [tenantId, userId]);
        return (result.rowCount ?? 0) > 0;
      }),
  };
}
