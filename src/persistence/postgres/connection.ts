import { createHash } from "node:crypto";
import { context, SpanKind, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import pg from "pg";
import type { Logger } from "../../domain/logger.js";
import { markFailed, semconv } from "../../telemetry/index.js";

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
export function guardedClientClass(onError: (err: Error) => void, tracer?: Tracer, connectionString?: string): typeof pg.Client {
  const target = tracer === undefined || connectionString === undefined ? null : spanTarget(connectionString);
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on("error", onError);
      if (tracer !== undefined && target !== null) traceQueries(this, tracer, target);
    }
  };
}

interface SpanTarget {
  database: string;
  attributes: Attributes;
}

function spanTarget(connectionString: string): SpanTarget {
  let host = "localhost";
  let port = 5432;
  let database = "postgres";
  try {
    const url = new URL(connectionString);
    host = url.hostname || host;
    port = url.port === "" ? port : Number(url.port);
    database = decodeURIComponent(url.pathname.replace(/^\//u, "")) || database;
  } catch {
    // An unparsable URL fails at connect time with its own error; spans keep the defaults.
  }
  return {
    database,
    attributes: { [semconv.DB_SYSTEM_NAME]: "postgresql", [semconv.DB_NAMESPACE]: database, [semconv.SERVER_ADDRESS]: host, [semconv.SERVER_PORT]: port },
  };
}

/** The statement's first keyword (SELECT, INSERT, WITH, BEGIN …): a bounded operation name. */
function operationOf(text: string): string {
  return /^\s*([A-Za-z]+)/u.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
}

type AnyQuery = (...args: unknown[]) => unknown;

/**
 * A CLIENT span (database conventions) per query made inside a traced request: the statement's
 * operation, the database and server, never the statement's values. Queries outside a request
 * (the LISTEN connection, the idle-thread sweep) are not traced, and neither are cursors and
 * other submittables. The query method is replaced on the instance, which pg allows: it calls
 * it like any other method.
 */
function traceQueries(client: pg.Client, tracer: Tracer, target: SpanTarget): void {
  const query = client.query.bind(client) as AnyQuery;
  const traced: AnyQuery = (...args) => {
    const first = args[0];
    const text = typeof first === "string" ? first : typeof first === "object" && first !== null && "text" in first && !("submit" in first) ? first.text : null;
    const active = context.active();
    if (typeof text !== "string" || trace.getSpan(active) === undefined) return query(...args);
    const operation = operationOf(text);
    const span = tracer.startSpan(
      `${operation} ${target.database}`,
      { kind: SpanKind.CLIENT, attributes: { ...target.attributes, [semconv.DB_OPERATION_NAME]: operation, [semconv.DB_QUERY_SUMMARY]: operation } },
      active,
    );
    const end = (span: Span, error: unknown) => {
      if (error !== null && error !== undefined) markFailed(span, error);
      span.end();
    };
    const last = args.at(-1);
    if (typeof last === "function") {
      // pg-pool's pool.query passes a callback.
      const callback = last as (error: unknown, result: unknown) => void;
      return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
        end(span, error);
        callback(error, result);
      });
    }
    return (query(...args) as Promise<unknown>).then(
      (result) => {
        end(span, null);
        return result;
      },
      (error: unknown) => {
        end(span, error);
        throw error;
      },
    );
  };
  (client as unknown as { query: AnyQuery }).query = traced;
}

/**
 * A pool none of whose connections can take the process down: every client is a GuardedClient,
 * and the pool itself listens for the errors pg-pool forwards from idle clients. The pool drops
 * broken connections and opens new ones on demand.
 */
export function createPool(options: PostgresConnectionOptions, max: number, logger: Logger, name: string, tracer?: Tracer): pg.Pool {
  const lost = (err: unknown) => logger.warn({ err: pgErrorFields(err), pool: name }, "PostgreSQL connection lost");
  const pool = new pg.Pool({ ...clientConfig(options), max, Client: guardedClientClass(lost, tracer, options.connectionString) });
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
