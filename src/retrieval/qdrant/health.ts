/**
 * Readiness of the Qdrant server: GET /readyz, which Qdrant answers 200 once its shards are
 * ready (and exempts from API-key checks; the key is sent anyway, for proxies that want it).
 * Not retried: the readiness checks ask again on their own schedule.
 */
export async function pingQdrant(options: { url: string; apiKey: string | null }, signal: AbortSignal): Promise<void> {
  const response = await fetch(new URL("/readyz", options.url), {
    signal,
    ...(options.apiKey === null ? {} : { headers: { "api-key": options.apiKey } }),
  });
  // The body is small; read it so the connection can be reused.
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`Qdrant /readyz answered ${response.status}`);
}
