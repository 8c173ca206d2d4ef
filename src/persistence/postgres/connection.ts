import { createHash } from "node:crypto";
import pg from "pg";
import type { Logger } from "../../domain/logger.js";

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

/** What a log line keeps of a pg error: never the client object pg-pool attaches to it. */
export function pgErrorFields(err: unknown): { message: string; code?: string } {
  if (!(err instanceof Error)) return { message: String(err) };
  const code = "code" in err && typeof err.code === "string" ? err.code : undefined;
  return code === undefined ? { message: err.message } : { message: err.message, code };
}

/**
 * A pg.Client that listens for "error" from construction to its end. pg-pool only listens while
 * a client sits idle: between hand-out and release, and in the instant it is handed out, a
 * connection the server ends (pg_terminate_backend, a restart, a cut network) emits "error" on
 * a client nobody listens to, and that kills the process. With this listener the error is
 * logged and the client is merely broken: its next query fails, and that failure is classified
 * (UNAVAILABLE) by whoever made it.
 */
export function guardedClientClass(onError: (err: Error) => void): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on("error", onError);
    }
  };
}

/**
 * A pool none of whose connections can take the process down: every client is a GuardedClient,
 * and the pool itself listens for the errors pg-pool forwards from idle clients. The pool drops
 * broken connections and opens new ones on demand.
 */
export function createPool(options: PostgresConnectionOptions, max: number, logger: Logger, name: string): pg.Pool {
  const lost = (err: unknown) => logger.warn({ err: pgErrorFields(err), pool: name }, "PostgreSQL connection lost");
  const pool = new pg.Pool({ ...clientConfig(options), max, Client: guardedClientClass(lost) });
  pool.on("error", lost);
  return pool;
}

/** A single connection (LISTEN, migrations, the CLI) with the same guard as pooled ones. */
export function createGuardedClient(options: PostgresConnectionOptions, onError: (err: Error) => void): pg.Client {
  const Client = guardedClientClass(onError);
  return new Client(clientConfig(options));
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
