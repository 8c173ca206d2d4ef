import { createHash } from "node:crypto";
import pg from "pg";
import type { Logger } from "../domain/logger.js";

/** How frontdesk connects to PostgreSQL: one set of options for its pools and dedicated clients. */
export interface PostgresConnectionOptions {
  connectionString: string;
  /** Waiting longer than this for a connection fails (UNAVAILABLE) instead of hanging the turn. */
  connectTimeoutMs: number;
  /** Server-side statement_timeout and the client's own read timeout. */
  statementTimeoutMs: number;
  /** Shown in pg_stat_activity, so operators (and tests) can tell frontdesk's connections apart. */
  applicationName?: string;
}

export function clientConfig(options: PostgresConnectionOptions): pg.ClientConfig {
  return {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    // A little longer than the server's own timeout, so the server's clearer error usually wins.
    query_timeout: options.statementTimeoutMs + 1_000,
    application_name: options.applicationName ?? "frontdesk",
  };
}

/**
 * A pool whose idle connections may die (pg_terminate_backend, a restarted server) without
 * taking the process down: pg emits "error" on the pool for them, which crashes the process
 * when nobody listens. The pool drops such connections and opens new ones on demand.
 */
export function createPool(options: PostgresConnectionOptions, max: number, logger: Logger, name: string): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(options), max });
  pool.on("error", (err) => logger.warn({ err, pool: name }, "idle PostgreSQL connection lost"));
  return pool;
}

/** host:port/database of a connection string, for messages: never the user or password. */
export function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const database = url.pathname.replace(/^\//u, "") || "(default database)";
    return `${url.hostname || "localhost"}:${url.port || "5432"}/${database}`;
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}

/**
 * A stable signed 64-bit key for pg_advisory_lock: the first 8 bytes of SHA-256 over a
 * frontdesk-specific prefix and the name, so it is the same in every process and release and
 * does not collide with other applications' small integer keys in practice. Returned as a
 * decimal string (bind as $1::bigint).
 */
export function advisoryKey(name: string): string {
  const digest = createHash("sha256").update(`frontdesk:${name}`, "utf8").digest();
  return digest.readBigInt64BE(0).toString();
}
