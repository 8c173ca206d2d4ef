import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * Throwaway PostgreSQL databases for tests, one per test file, on the machine's server
 * (127.0.0.1:5432, trust auth). `.ci/run` exports FRONTDESK_TEST_DATABASE_URL (a database it
 * created for the run) and FRONTDESK_TEST_RUN_ID; without them, `npx vitest` works the same
 * against the postgres maintenance database.
 */
export const ADMIN_URL = process.env["FRONTDESK_TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";

function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  /** A connection of the test's own, for reading tables and injecting faults. */
  admin: pg.Client;
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Ends every other session on this database (what a Postgres restart or a network cut does to them). */
  terminateConnections(applicationNamePrefix?: string): Promise<number>;
  /** Refuses (false) or allows (true) new connections: a database that stays down until allowed. */
  allowConnections(allowed: boolean): Promise<void>;
  drop(): Promise<void>;
}

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const run = (process.env["FRONTDESK_TEST_RUN_ID"] ?? "local").replace(/[^a-z0-9]/giu, "").toLowerCase();
  const name = `frontdesk_test_${run}_${label.replace(/[^a-z0-9]/giu, "").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const maintenance = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await maintenance.connect();
  } catch (err) {
    throw new Error(
      `the PostgreSQL tests need a server at ${ADMIN_URL} (trust auth); start it with ` +
        `"pg_ctlcluster --skip-systemctl-redirect <version> main start" or run .ci/run: ${(err as Error).message}`,
    );
  }
  await maintenance.query(`CREATE DATABASE "${name}"`);
  await maintenance.end();

  const admin = new pg.Client({ connectionString: urlFor(name), application_name: "frontdesk-test-admin" });
  admin.on("error", () => undefined);
  await admin.connect();

  return {
    name,
    url: urlFor(name),
    admin,
    async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      return (await admin.query<R>(sql, params)).rows;
    },
    async terminateConnections(applicationNamePrefix = "") {
      const rows = await admin.query<{ n: string }>(
        `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name LIKE $2 || '%'`,
        [name, applicationNamePrefix],
      );
      return Number(rows.rows[0]?.n ?? 0);
    },
    async allowConnections(allowed) {
      // Not from a session on the database itself: PostgreSQL refuses that.
      const maintenance = new pg.Client({ connectionString: ADMIN_URL });
      await maintenance.connect();
      try {
        await maintenance.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS ${allowed ? "true" : "false"}`);
      } finally {
        await maintenance.end();
      }
    },
    async drop() {
      await admin.end().catch(() => undefined);
      const closer = new pg.Client({ connectionString: ADMIN_URL });
      await closer.connect();
      try {
        await closer.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
        await closer.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await closer.end();
      }
    },
  };
}

/** Rows and bytes kept for one thread key in the checkpointer's tables. */
export async function threadFootprint(db: TestDatabase, threadKey: string): Promise<{ checkpoints: number; blobs: number; writes: number; bytes: number }> {
  const [row] = await db.query<{ checkpoints: string; blobs: string; writes: string; bytes: string }>(
    `SELECT
       (SELECT count(*) FROM checkpoints WHERE thread_id = $1)::text AS checkpoints,
       (SELECT count(*) FROM checkpoint_blobs WHERE thread_id = $1)::text AS blobs,
       (SELECT count(*) FROM checkpoint_writes WHERE thread_id = $1)::text AS writes,
       (COALESCE((SELECT sum(pg_column_size(c.*)) FROM checkpoints c WHERE thread_id = $1), 0)
        + COALESCE((SELECT sum(pg_column_size(b.*)) FROM checkpoint_blobs b WHERE thread_id = $1), 0)
        + COALESCE((SELECT sum(pg_column_size(w.*)) FROM checkpoint_writes w WHERE thread_id = $1), 0))::text AS bytes`,
    [threadKey],
  );
  return { checkpoints: Number(row!.checkpoints), blobs: Number(row!.blobs), writes: Number(row!.writes), bytes: Number(row!.bytes) };
}
