import type { Tracer } from "@opentelemetry/api";
import type pg from "pg";
import type { PoolStats } from "../../telemetry/index.js";
import type { Config, PostgresSettings } from "../../config/config.js";
import type { Logger } from "../../domain/logger.js";
import type { Persistence } from "../ports.js";
import { advisoryKey, createPool, describeDatabase, type PostgresConnectionOptions } from "./connection.js";
import { asStorageError, guarded } from "./errors.js";
import { createPostgresLocks } from "./locks.js";
import { FrontdeskPostgresSaver } from "./saver.js";
import { assertSchemaReady, migrateSchema, type MigrationReport } from "./schema.js";
import { createPostgresTurnEvents, type PostgresTurnEvents } from "./watch.js";
import { createPostgresProfileStore } from "./profiles.js";
import { createPostgresDocumentStore } from "./documents.js";
import type { SharedDocumentStore } from "../../domain/documents.js";
import { TurnScopedSaver } from "../turn-scoped-saver.js";

export interface PostgresPersistenceOptions {
  databaseUrl: string;
  settings: PostgresSettings;
  watch: Config["watch"];
  logger: Logger;
  /** Default true: sweep idle threads every settings.sweepIntervalSeconds (tests call sweepIdleThreads themselves). */
  sweepInBackground?: boolean;
  /** Spans of the queries made inside traced requests; default none. */
  tracer?: Tracer;
}

export interface PostgresPersistence extends Persistence {
  kind: "postgres";
  events: PostgresTurnEvents;
  /** Deletes threads idle longer than the TTL (skipping any with a turn running). Returns how many. */
  sweepIdleThreads(): Promise<number>;
}

/** PostgreSQL could not be reached when the service started: the process should exit. */
export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
}

const SWEEP_LOCK = advisoryKey("sweep");
/** Connections of the readiness probe's pool: probes are one `SELECT 1` each, one at a time. */
const HEALTH_CONNECTIONS = 1;
// Idle threads are looked up in pages of this size (keyset pagination); a sweep goes through all.
const SWEEP_PAGE = 500;

function connectionOptions(options: Pick<PostgresPersistenceOptions, "databaseUrl" | "settings">, applicationName: string): PostgresConnectionOptions {
  return {
    connectionString: options.databaseUrl,
    connectTimeoutMs: options.settings.connectTimeoutMs,
    statementTimeoutMs: options.settings.statementTimeoutMs,
    applicationName,
  };
}

async function probe(pool: pg.Pool, databaseUrl: string): Promise<void> {
  try {
    await pool.query("SELECT 1");
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new DatabaseUnreachableError(`cannot connect to PostgreSQL at ${describeDatabase(databaseUrl)} (DATABASE_URL): ${reason}`, { cause: err });
  }
}

/** Runs the idempotent schema migration (the `frontdesk db migrate` command). */
export async function migrateDatabase(databaseUrl: string, settings: PostgresSettings, logger: Logger): Promise<MigrationReport> {
  const connection: PostgresConnectionOptions = {
    connectionString: databaseUrl,
    connectTimeoutMs: settings.connectTimeoutMs,
    // DDL may wait for locks held by running servers; give it longer than a turn's statement.
    statementTimeoutMs: Math.max(settings.statementTimeoutMs, 60_000),
    applicationName: "frontdesk-migrate",
  };
  const pool = createPool(connection, 2, logger, "migrate");
  try {
    await probe(pool, databaseUrl);
    return await migrateSchema({ connection, saver: new FrontdeskPostgresSaver(pool) });
  } finally {
    await pool.end();
  }
}

/**
 * The shared document store on its own pool (FRONTDESK_DB_POOL_MAX connections at most, idle
 * ones closed) and LISTEN connection: the retrieval backend opens it before the rest of
 * persistence, and tests may run it beside a memory checkpointer. Migrates first like
 * createPostgresPersistence (under the same advisory lock, so the second run finds nothing to do).
 */
export async function openPostgresDocumentStore(options: Pick<PostgresPersistenceOptions, "databaseUrl" | "settings" | "logger" | "tracer">): Promise<SharedDocumentStore> {
  const { settings, logger, databaseUrl } = options;
  if (settings.migrateOnStart) await migrateDatabase(databaseUrl, settings, logger);
  const pool = createPool(connectionOptions(options, "frontdesk-documents"), settings.poolMax, logger, "documents", options.tracer);
  try {
    await probe(pool, databaseUrl);
    await assertSchemaReady(pool, databaseUrl);
    return await createPostgresDocumentStore({ pool, connection: connectionOptions(options, "frontdesk-documents-listen"), logger, ownsPool: true });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}

/**
 * The production persistence: checkpoints (PostgresSaver), user memory (its own table),
 * per-thread advisory locks, turn events over LISTEN/NOTIFY, and the idle-thread sweep, all on
 * one database shared by every replica. Fails at once, with a message naming the database, when
 * it is unreachable or (with migration on start disabled) not migrated.
 */
export async function createPostgresPersistence(options: PostgresPersistenceOptions): Promise<PostgresPersistence> {
  const { settings, logger, databaseUrl } = options;
  if (settings.migrateOnStart) {
    await migrateDatabase(databaseUrl, settings, logger);
  }
  const pool = createPool(connectionOptions(options, "frontdesk"), settings.poolMax, logger, "main", options.tracer);
  const lockPool = createPool(connectionOptions(options, "frontdesk-locks"), settings.lockConnections, logger, "locks", options.tracer);
  const stats = (name: string, p: pg.Pool, max: number): PoolStats => ({ pool: name, inUse: p.totalCount - p.idleCount, idle: p.idleCount, waiting: p.waitingCount, max });
  // Readiness probes get a connection of their own: a pool busy with turns is not a database that is away.
  const healthPool = createPool(connectionOptions(options, "frontdesk-health"), HEALTH_CONNECTIONS, logger, "health");
  const ends: Array<() => Promise<void>> = [() => healthPool.end(), () => lockPool.end(), () => pool.end()];
  const endAll = async () => {
    for (const end of ends) await end().catch(() => undefined);
  };

  let events: PostgresTurnEvents;
  try {
    await probe(pool, databaseUrl);
    await assertSchemaReady(pool, databaseUrl);
    events = await createPostgresTurnEvents({
      ...options.watch,
      connection: connectionOptions(options, "frontdesk-listen"),
      pool,
      logger,
      payloadRetentionSeconds: settings.payloadRetentionSeconds,
    });
  } catch (err) {
    await endAll();
    throw err;
  }

  const saver = new FrontdeskPostgresSaver(pool);
  const locks = createPostgresLocks(lockPool, logger);
  const turnSaver = new TurnScopedSaver(saver, null, (threadKey, writes) => saver.commitTurn(locks.connectionFor(threadKey), threadKey, writes));

  async function sweepIdleThreads(): Promise<number> {
    if (settings.threadTtlHours <= 0) return 0;
    const client = await guarded("sweeping idle threads", () => pool.connect());
    let failure: unknown = null;
    try {
      // One sweeper at a time across replicas; the others skip this round.
      const lock = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [SWEEP_LOCK]);
      if (lock.rows[0]?.ok !== true) return 0;
      try {
        const swept = await sweepLocked(client);
        if (swept > 0) logger.info({ swept, ttlHours: settings.threadTtlHours }, "idle threads deleted");
        return swept;
      } finally {
        await client.query("SELECT pg_advisory_unlock($1::bigint)", [SWEEP_LOCK]);
      }
    } catch (err) {
      failure = err;
      throw asStorageError(err, "sweeping idle threads");
    } finally {
      client.release(failure instanceof Error ? failure : undefined);
    }
  }

  async function sweepLocked(client: pg.PoolClient): Promise<number> {
    const ttlSeconds = settings.threadTtlHours * 3_600;
    let swept = 0;
    let after = "";
    for (;;) {
      const page = await client.query<{ thread_key: string }>(
        `SELECT thread_key FROM frontdesk_threads
         WHERE last_turn_at < now() - make_interval(secs => $1) AND thread_key > $2
         ORDER BY thread_key LIMIT $3`,
        [ttlSeconds, after, SWEEP_PAGE],
      );
      for (const { thread_key: key } of page.rows) {
        const lease = await locks.tryAcquire(key);
        if (lease === null) continue; // a turn is running: the thread is not idle
        try {
          // Still idle? A turn may have committed between the query and the lock.
          const still = await client.query("SELECT 1 FROM frontdesk_threads WHERE thread_key = $1 AND last_turn_at < now() - make_interval(secs => $2)", [key, ttlSeconds]);
          if (still.rowCount === 1 && (await saver.eraseThread(key))) swept++;
        } finally {
          await lease.release();
        }
      }
      if (page.rows.length < SWEEP_PAGE) break;
      after = page.rows.at(-1)!.thread_key;
    }
    await client.query("DELETE FROM frontdesk_event_payloads WHERE created_at < now() - make_interval(secs => $1)", [settings.payloadRetentionSeconds]);
    return swept;
  }

  let sweepTimer: NodeJS.Timeout | null = null;
  if ((options.sweepInBackground ?? true) && settings.threadTtlHours > 0) {
    sweepTimer = setInterval(() => {
      sweepIdleThreads().catch((err: unknown) => logger.warn({ err }, "idle thread sweep failed; retrying next interval"));
    }, settings.sweepIntervalSeconds * 1_000);
    sweepTimer.unref();
  }

  return {
    kind: "postgres",
    saver: turnSaver,
    profiles: createPostgresProfileStore(pool),
    locks,
    events,
    eraseThread: (key) => saver.eraseThread(key),
    poolStats: () => [stats("main", pool, settings.poolMax), stats("locks", lockPool, settings.lockConnections)],
    sweepIdleThreads,
    async ping(signal) {
      const client = await healthPool.connect();
      // A query the network swallowed would hold the probe's only connection until query_timeout:
      // given up, the connection is dropped instead, and the next probe opens a fresh one.
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        signal.removeEventListener("abort", giveUp);
        client.release(err);
      };
      const giveUp = () => release(new Error("readiness probe gave up"));
      signal.addEventListener("abort", giveUp, { once: true });
      if (signal.aborted) giveUp();
      try {
        await client.query("SELECT 1");
        release();
      } catch (err) {
        // A failed connection is not handed out again.
        release(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
    },
    async close() {
      if (sweepTimer !== null) clearInterval(sweepTimer);
      await events.close();
      await locks.close();
      await endAll();
    },
  };
}
