/**
 * The storage key of a thread: `${tenantId}/${threadId}`. Tenant and thread ids cannot contain
 * "/" (both are validated against a charset without it), so one tenant's thread can never
 * address another's, whatever ids it sends.
 */
export const threadKey = (tenantId: string, threadId: string): string => `${tenantId}/${threadId}`;

export function parseThreadKey(key: string): { tenantId: string; threadId: string } {
  const slash = key.indexOf("/");
  if (slash <= 0 || slash === key.length - 1) throw new Error(`not a thread key: ${key}`);
  return { tenantId: key.slice(0, slash), threadId: key.slice(slash + 1) };
}
