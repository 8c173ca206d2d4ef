/**
 * The storage key of a thread: `${tenantId}/${threadId}`. Tenant and thread ids cannot contain
 * "/" (both are validated against a charset without it), so one tenant's thread can never
 * address another's, whatever ids it sends.
 */
export const threadKey = (tenantId: string, threadId: string): string => `${tenantId}/${threadId}`;

/** The parts of a key frontdesk made; null for any other id (tests, tools and LangGraph's own conformance suite use plain ids). */
export function splitThreadKey(key: string): { tenantId: string; threadId: string } | null {
  const slash = key.indexOf("/");
  if (slash <= 0 || slash === key.length - 1) return null;
  return { tenantId: key.slice(0, slash), threadId: key.slice(slash + 1) };
}

export function parseThreadKey(key: string): { tenantId: string; threadId: string } {
  const parts = splitThreadKey(key);
  if (parts === null) throw new Error(`not a thread key: ${key}`);
  return parts;
}
