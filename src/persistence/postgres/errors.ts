import { StorageUnavailableError } from "../errors.js";

/** SQLSTATE classes and codes that mean "the database cannot serve us right now", not "our query is wrong". */
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, server stopping
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, shutting down
  "57014", // query_canceled: statement_timeout
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "55000", // object_not_in_prerequisite_state: "database is not currently accepting connections"
  "3D000", // invalid_catalog_name: the database is gone
  "25006", // read_only_sql_transaction: a failover left us on a standby
]);

const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

// node-postgres reports lost connections and pool timeouts as plain Errors without a code.
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "not queryable",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Cannot use a pool after calling end",
  "connection lease lost",
];

function codeOf(err: object): string | null {
  return "code" in err && typeof err.code === "string" ? err.code : null;
}

/** True when `err` (from pg) means the database is unreachable or dropped us, so a retry later can succeed. */
export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof StorageUnavailableError) return true;
  if (typeof err !== "object" || err === null) return false;
  if (err instanceof AggregateError && err.errors.some(isConnectionFailure)) return true;
  const code = codeOf(err);
  // Class 08 is "connection exception", except 08P01 (protocol_violation): that one is our bug.
  if (code !== null && ((code.startsWith("08") && code !== "08P01") || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  const message = err instanceof Error ? err.message : "";
  return UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

/** Rethrows connection failures as StorageUnavailableError (UNAVAILABLE on the wire); anything else unchanged. */
export function asStorageError(err: unknown, what: string): unknown {
  if (err instanceof StorageUnavailableError) return err;
  if (isConnectionFailure(err)) return new StorageUnavailableError(`PostgreSQL unavailable while ${what}`, { cause: err });
  return err;
}

/**
 * A pooled connection that the server ended while it sat idle (a restart, pg_terminate_backend):
 * the pool may hand it out before it notices. Unlike a refused connection, trying again at once
 * on a fresh connection is likely to work.
 */
export function isStaleConnection(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = codeOf(err);
  if (code === "57P01" || code === "57P02") return true;
  const message = err instanceof Error ? err.message : "";
  return message.includes("Connection terminated") || message.includes("not queryable");
}

/**
 * Runs one storage operation, classifying its failure. Operations are idempotent (reads,
 * upserts, deletes, lock attempts), so one that failed on a stale connection is tried once more.
 */
export async function guarded<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (!isStaleConnection(err)) throw asStorageError(err, what);
  }
  try {
    return await operation();
  } catch (err) {
    throw asStorageError(err, what);
  }
}
