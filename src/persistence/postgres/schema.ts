import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { advisoryKey, createGuardedClient, describeDatabase, type PostgresConnectionOptions } from "./connection.js";

/**
 * The schema frontdesk needs: the LangGraph checkpointer's tables and frontdesk's own (thread
 * registry for TTL sweeps and tenant-scoped erasure; large watch events; user memory; ingested
 * documents). Each part keeps its own migration table; the highest version each part should be at
 * is pinned here, so a server never starts against a schema it does not know.
 */
export interface SchemaVersions {
  /** checkpoint_migrations: @langchain/langgraph-checkpoint-postgres's saver. */
  checkpoints: number | null;
  /** frontdesk_migrations. */
  frontdesk: number | null;
}

/**
 * The versions this build migrates to. The package's counts are its migration lists' lengths
 * minus one (1.0.5: five checkpoint migrations); a test runs the real migrations and checks
 * these, so a package upgrade that adds one fails loudly.
 */
export const EXPECTED_VERSIONS: { [K in keyof SchemaVersions]: number } = { checkpoints: 4, frontdesk: 3 };

const FRONTDESK_MIGRATIONS: readonly string[] = [
  // v0: one row per thread, written in the same transaction as its checkpoint. Keyed like the
  // checkpoints (tenant/thread) and carrying the parts, so erasure and sweeps never parse keys.
  `CREATE TABLE IF NOT EXISTS frontdesk_threads (
     thread_key TEXT PRIMARY KEY,
     tenant_id TEXT NOT NULL,
     thread_id TEXT NOT NULL,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     last_turn_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE INDEX IF NOT EXISTS frontdesk_threads_last_turn_at ON frontdesk_threads (last_turn_at);
   CREATE INDEX IF NOT EXISTS frontdesk_threads_tenant ON frontdesk_threads (tenant_id, thread_id);`,
  // v1: watch events too large for a NOTIFY payload (8000 bytes): NOTIFY carries the id.
  `CREATE TABLE IF NOT EXISTS frontdesk_event_payloads (
     id BIGSERIAL PRIMARY KEY,
     tenant_id TEXT NOT NULL,
     thread_id TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE INDEX IF NOT EXISTS frontdesk_event_payloads_created_at ON frontdesk_event_payloads (created_at);
   CREATE INDEX IF NOT EXISTS frontdesk_event_payloads_thread ON frontdesk_event_payloads (tenant_id, thread_id);`,
  // v2: user memory in a table of frontdesk's own, keyed by the real ids. Profiles written by
  // earlier versions through LangGraph's PostgresStore ("store" table, namespace
  // profiles:<tenant label>:<user label>, labels escaping bytes as ~hh) are copied over.
  `CREATE TABLE IF NOT EXISTS frontdesk_user_memory (
     tenant_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     profile JSONB NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     PRIMARY KEY (tenant_id, user_id)
   );
   CREATE FUNCTION pg_temp.frontdesk_unlabel(label TEXT) RETURNS TEXT LANGUAGE plpgsql AS $f$
   DECLARE
     out BYTEA := ''::bytea;
     i INTEGER := 1;
   BEGIN
     WHILE i <= length(label) LOOP
       IF substr(label, i, 1) = '~' THEN
         out := out || decode(substr(label, i + 1, 2), 'hex');
         i := i + 3;
       ELSE
         out := out || convert_to(substr(label, i, 1), 'UTF8');
         i := i + 1;
       END IF;
     END LOOP;
     RETURN convert_from(out, 'UTF8');
   END $f$;
   DO $d$ BEGIN
     IF to_regclass('public.store') IS NOT NULL THEN
       INSERT INTO frontdesk_user_memory (tenant_id, user_id, profile, updated_at)
       SELECT pg_temp.frontdesk_unlabel(split_part(namespace_path, ':', 2)), pg_temp.frontdesk_unlabel(split_part(namespace_path, ':', 3)), value, updated_at
       FROM public.store WHERE namespace_path LIKE 'profiles:%:%' AND key = 'profile'
       ON CONFLICT DO NOTHING;
     END IF;
   END $d$;
   DROP FUNCTION pg_temp.frontdesk_unlabel(TEXT);`,
  // v3: ingested documents shared by every replica's embedded index. Each write takes the next
  // version (under a transaction lock, so versions commit in order); a delete leaves a tombstone
  // (body cleared) for replicas still catching up.
  `CREATE SEQUENCE IF NOT EXISTS frontdesk_document_versions;
   CREATE TABLE IF NOT EXISTS frontdesk_documents (
     tenant_id TEXT NOT NULL,
     document_id TEXT NOT NULL,
     version BIGINT NOT NULL,
     deleted BOOLEAN NOT NULL DEFAULT false,
     title TEXT NOT NULL,
     product TEXT NOT NULL,
     domain TEXT NOT NULL,
     lang TEXT NOT NULL,
     body TEXT NOT NULL,
     source TEXT,
     content_hash TEXT NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     PRIMARY KEY (tenant_id, document_id)
   );
   CREATE UNIQUE INDEX IF NOT EXISTS frontdesk_documents_version ON frontdesk_documents (version);`,
];

const MIGRATION_LOCK = advisoryKey("migrate");

async function versionOf(client: pg.ClientBase, table: string): Promise<number | null> {
  const exists = await client.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [`public.${table}`]);
  if (exists.rows[0]?.found === null || exists.rows[0]?.found === undefined) return null;
  const result = await client.query<{ v: number | null }>(`SELECT max(v) AS v FROM public.${table}`);
  return result.rows[0]?.v ?? null;
}

export async function readSchemaVersions(client: pg.ClientBase): Promise<SchemaVersions> {
  return {
    checkpoints: await versionOf(client, "checkpoint_migrations"),
    frontdesk: await versionOf(client, "frontdesk_migrations"),
  };
}

/** What is missing or outdated, one line each; empty when the schema is ready. */
export function schemaProblems(versions: SchemaVersions): string[] {
  const problems: string[] = [];
  for (const part of Object.keys(EXPECTED_VERSIONS) as Array<keyof SchemaVersions>) {
    const have = versions[part];
    const want = EXPECTED_VERSIONS[part];
    if (have === null) problems.push(`${part} tables are missing`);
    else if (have < want) problems.push(`${part} tables are at version ${have}, this build needs ${want}`);
  }
  return problems;
}

export class SchemaNotReadyError extends Error {
  override readonly name = "SchemaNotReadyError";
  constructor(
    readonly database: string,
    readonly problems: string[],
  ) {
    super(
      `database ${database} is not ready for frontdesk (${problems.join("; ")}): run "frontdesk db migrate" with the same DATABASE_URL, ` +
        `or start with FRONTDESK_DB_MIGRATE_ON_START=true`,
    );
  }
}

export interface MigrationParts {
  connection: PostgresConnectionOptions;
  saver: PostgresSaver;
}

export interface MigrationReport {
  before: SchemaVersions;
  after: SchemaVersions;
}

/**
 * Brings the schema to EXPECTED_VERSIONS. Idempotent, and safe when several replicas start at
 * once: a session advisory lock (on a connection of its own, so the package's setup call can use
 * its pool meanwhile) lets one migrate while the others wait, then find nothing to do.
 */
export async function migrateSchema(parts: MigrationParts): Promise<MigrationReport> {
  // A lost connection surfaces as the failing query's error.
  const client = createGuardedClient({ ...parts.connection, applicationName: "frontdesk-migrate" }, () => undefined);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1::bigint)", [MIGRATION_LOCK]);
    const before = await readSchemaVersions(client);
    await parts.saver.setup();
    await client.query("CREATE TABLE IF NOT EXISTS frontdesk_migrations (v INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    const current = await versionOf(client, "frontdesk_migrations");
    for (let v = (current ?? -1) + 1; v < FRONTDESK_MIGRATIONS.length; v++) {
      await client.query("BEGIN");
      try {
        await client.query(FRONTDESK_MIGRATIONS[v]!);
        await client.query("INSERT INTO frontdesk_migrations (v) VALUES ($1)", [v]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      }
    }
    const after = await readSchemaVersions(client);
    await client.query("SELECT pg_advisory_unlock($1::bigint)", [MIGRATION_LOCK]);
    return { before, after };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Throws SchemaNotReadyError when the schema is missing or older than this build needs. */
export async function assertSchemaReady(pool: pg.Pool, connectionString: string): Promise<void> {
  const client = await pool.connect();
  try {
    const problems = schemaProblems(await readSchemaVersions(client));
    if (problems.length > 0) throw new SchemaNotReadyError(describeDatabase(connectionString), problems);
  } finally {
    client.release();
  }
}
