import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { UserProfileSchema, type UserProfile } from "../domain/profile.js";
import type { ProfileStore } from "./ports.js";

const PROFILE_KEY = "profile";

/**
 * One namespace label per id, injective and safe for every store: LangGraph stores refuse
 * labels with ".", and PostgresStore also "%", "_" and "\\", and joins labels with ":" — ids
 * may contain all of those but "%" and "\\". Every character outside [A-Za-z0-9-] becomes "~"
 * and its UTF-8 bytes in hex, so "acme.x" and "acme", "x" can never meet.
 */
export function namespaceLabel(id: string): string {
  let out = "";
  for (const char of id) {
    if (/^[A-Za-z0-9-]$/u.test(char)) out += char;
    else for (const byte of Buffer.from(char, "utf8")) out += `~${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

export const profileNamespace = (tenantId: string, userId: string) => ["profiles", namespaceLabel(tenantId), namespaceLabel(userId)];

/** Stored data is parsed again on read: a profile written by an older version cannot smuggle fields in. */
function parseProfile(value: unknown): UserProfile {
  const parsed = UserProfileSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

export function createBaseStoreProfileStore(store: BaseStore): ProfileStore {
  return {
    async get(tenantId, userId) {
      const item = await store.get(profileNamespace(tenantId, userId), PROFILE_KEY);
      return item === null ? {} : parseProfile(item.value);
    },
    async put(tenantId, userId, profile) {
      await store.put(profileNamespace(tenantId, userId), PROFILE_KEY, profile as Record<string, unknown>);
    },
    async delete(tenantId, userId) {
      const existed = (await store.get(profileNamespace(tenantId, userId), PROFILE_KEY)) !== null;
      await store.delete(profileNamespace(tenantId, userId), PROFILE_KEY);
      return existed;
    },
  };
}

export { parseProfile };
