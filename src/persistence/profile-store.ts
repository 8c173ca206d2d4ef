import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { UserProfileSchema, type UserProfile } from "../domain/profile.js";

/**
 * Cross-thread user memory, namespaced by tenant and user. Implemented over a LangGraph Store
 * (in memory for tests, Postgres in production) or a local SQLite file (embedded default).
 */
export interface ProfileStore {
  get(tenantId: string, userId: string): Promise<UserProfile>;
  put(tenantId: string, userId: string, profile: UserProfile): Promise<void>;
  delete(tenantId: string, userId: string): Promise<void>;
}

const PROFILE_KEY = "profile";
const namespace = (tenantId: string, userId: string) => ["profiles", tenantId, userId];

/** Stored data is parsed again on read: a profile written by an older version cannot smuggle fields in. */
function parseProfile(value: unknown): UserProfile {
  const parsed = UserProfileSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

export function createBaseStoreProfileStore(store: BaseStore): ProfileStore {
  return {
    async get(tenantId, userId) {
      const item = await store.get(namespace(tenantId, userId), PROFILE_KEY);
      return item === null ? {} : parseProfile(item.value);
    },
    async put(tenantId, userId, profile) {
      await store.put(namespace(tenantId, userId), PROFILE_KEY, profile as Record<string, unknown>);
    },
    async delete(tenantId, userId) {
      await store.delete(namespace(tenantId, userId), PROFILE_KEY);
    },
  };
}

export { parseProfile };
