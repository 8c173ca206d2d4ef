import type pg from "pg";
import type { Logger } from "../../domain/logger.js";
import { StorageUnavailableError } from "../errors.js";
import type { Lease, ThreadLocks } from "../ports.js";
import { advisoryKey } from "./connection.js";
import { guarded } from "./errors.js";

/**
 * One turn at a time per thread across every process sharing the database: a session-level
 * pg_try_advisory_lock on a connection held for the whole turn. The lock lives exactly as long
 * as that session, so a process that dies (kill -9, lost network) frees its threads at once.
 */
export interface PostgresThreadLocks extends ThreadLocks {
  /**
   * The connection that holds `threadKey`'s lock in this process. Commits run on it: if the
   * connection (and with it the lock) was lost, the commit fails instead of racing another writer.
   */
  connectionFor(threadKey: string): pg.PoolClient;
}

interface Held {
  client: pg.PoolClient;
  lost: Error | null;
}

export function createPostgresLocks(pool: pg.Pool, logger: Logger): PostgresThreadLocks {
  const held = new Map<string, Held>();

  return {
    tryAcquire(threadKey) {
      // Retried once on a stale pooled connection, like every other idempotent operation.
      return guarded("locking a thread", () => attempt(threadKey));
    },

    connectionFor(threadKey) {
      const entry = held.get(threadKey);
      if (entry === undefined) throw new Error(`no lock held on thread ${threadKey} in this process`);
      if (entry.lost !== null) throw new StorageUnavailableError("PostgreSQL connection lease lost while the turn ran", { cause: entry.lost });
      return entry.client;
    },

    async close() {
      // Running turns release their own leases; anything left is ended with the pool.
      held.clear();
    },
  };

  async function attempt(threadKey: string): Promise<Lease | null> {
    const key = advisoryKey(`thread:${threadKey}`);
    const client = await pool.connect();
    const entry: Held = { client, lost: null };
    // A checked-out client that loses its connection emits "error"; unheard, that crashes the process.
    const onError = (err: Error) => {
      entry.lost = err;
      logger.warn({ err, thread: threadKey }, "the connection holding a thread lock was lost");
    };
    client.on("error", onError);
    let acquired: boolean;
    try {
      const result = await client.query<{ acquired: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS acquired", [key]);
      acquired = result.rows[0]?.acquired === true;
    } catch (err) {
      client.off("error", onError);
      client.release(err instanceof Error ? err : true);
      throw err;
    }
    if (!acquired) {
      client.off("error", onError);
      client.release();
      return null;
    }
    held.set(threadKey, entry);
    let released = false;
    const lease: Lease = {
      async release() {
        if (released) return;
        released = true;
        held.delete(threadKey);
        client.off("error", onError);
        if (entry.lost !== null) {
          client.release(entry.lost);
          return;
        }
        try {
          await client.query("SELECT pg_advisory_unlock($1::bigint)", [key]);
          client.release();
        } catch (err) {
          // Destroying the connection ends the session, and the session's locks with it.
          client.release(err instanceof Error ? err : true);
        }
      },
    };
    return lease;
  }
}
