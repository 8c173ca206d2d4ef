import { parseArgs } from "node:util";
import pg from "pg";
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import { silentLogger } from "../domain/logger.js";
import { clientConfig, describeDatabase } from "../persistence/postgres/connection.js";
import { migrateDatabase } from "../persistence/postgres/index.js";
import { EXPECTED_VERSIONS, readSchemaVersions, schemaProblems, type SchemaVersions } from "../persistence/postgres/schema.js";
import type { CommandIo } from "./chat.js";
import { oneLine } from "./serve.js";

export const DB_HELP = `Usage: frontdesk db <command>

Commands:
  migrate   create or upgrade frontdesk's schema in DATABASE_URL (idempotent; safe while
            other replicas start or run). "frontdesk serve" also runs it at start-up unless
            FRONTDESK_DB_MIGRATE_ON_START=false.
  status    print the schema versions; exit 1 when the schema is missing or outdated

Environment:
  DATABASE_URL                      postgres://user@host:5432/database (required)
  FRONTDESK_DB_CONNECT_TIMEOUT_MS   default 3000
`;

const show = (v: number | null) => (v === null ? "none" : `v${v}`);

function describeVersions(versions: SchemaVersions, before?: SchemaVersions): string {
  return (Object.keys(EXPECTED_VERSIONS) as Array<keyof SchemaVersions>)
    .map((part) => {
      const was = before !== undefined && before[part] !== versions[part] ? ` (was ${show(before[part])})` : "";
      return `  ${part.padEnd(12)} ${show(versions[part])}${was}`;
    })
    .join("\n");
}

/** `frontdesk db migrate | status`. Exit codes: 0 done/ready, 1 database problem, 2 usage or configuration. */
export async function dbCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  const [sub, ...extra] = positionals;
  if (values.help === true || sub === undefined) {
    io.stdout.write(DB_HELP);
    return sub === undefined && values.help !== true ? 2 : 0;
  }
  if (extra.length > 0 || (sub !== "migrate" && sub !== "status")) {
    io.stderr.write(`frontdesk db: unknown command "${positionals.join(" ")}"\n\n${DB_HELP}`);
    return 2;
  }
  let databaseUrl: string;
  let config: Config;
  try {
    config = loadConfig(io.env);
    if (config.persistence.databaseUrl === null) throw new ConfigError("DATABASE_URL is not set");
    databaseUrl = config.persistence.databaseUrl;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr.write(`frontdesk db ${sub}: ${oneLine(err.message)}\n`);
    return 2;
  }
  const where = describeDatabase(databaseUrl);
  const settings = config.persistence.postgres;
  try {
    if (sub === "migrate") {
      const { before, after } = await migrateDatabase(databaseUrl, settings, silentLogger);
      const changed = JSON.stringify(before) !== JSON.stringify(after);
      io.stdout.write(`${changed ? "migrated" : "already up to date:"} ${where}\n${describeVersions(after, before)}\n`);
      return 0;
    }
    const client = new pg.Client(clientConfig({ connectionString: databaseUrl, connectTimeoutMs: settings.connectTimeoutMs, statementTimeoutMs: settings.statementTimeoutMs }));
    client.on("error", () => undefined);
    await client.connect().catch((err: unknown) => {
      throw new Error(`cannot connect to PostgreSQL at ${where} (DATABASE_URL): ${err instanceof Error ? err.message : String(err)}`);
    });
    try {
      const versions = await readSchemaVersions(client);
      const problems = schemaProblems(versions);
      io.stdout.write(`${problems.length === 0 ? "ready" : "not ready"}: ${where}\n${describeVersions(versions)}\n`);
      for (const problem of problems) io.stdout.write(`  - ${problem}\n`);
      return problems.length === 0 ? 0 : 1;
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (err) {
    io.stderr.write(`frontdesk db ${sub}: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
}
