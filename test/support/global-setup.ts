import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { probePostgres, startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";

/**
 * Once per vitest run, before any test file:
 *
 * 1. dist/ is brought up to date (incremental tsc): the CLI and server tests spawn
 *    bin/frontdesk.js, which runs the compiled service, so they must not run a stale build.
 * 2. The PostgreSQL tests get a server. The configured one (FRONTDESK_TEST_DATABASE_URL, as
 *    .ci/run sets it, else postgres://postgres@127.0.0.1:5432/postgres) when it answers; when no
 *    server answers there, a real PostgreSQL from the embedded-postgres package on a free port
 *    (the configured one if it is local and free) in a temporary directory, stopped and deleted
 *    afterwards. Test files read the URL from
 *    FRONTDESK_TEST_DATABASE_URL (test/support/postgres.ts), which workers inherit from here.
 *    One line says which server is used.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", path.join(PACKAGE_ROOT, "tsconfig.build.json")], { cwd: PACKAGE_ROOT, stdio: "inherit" });
  console.log(`Node for tests: ${process.version} (${process.execPath})`);

  const configured = process.env["FRONTDESK_TEST_DATABASE_URL"];
  const url = configured ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const probe = await probePostgres(url);
  if (probe.ok) {
    console.log(`PostgreSQL for tests: the server at ${url}${configured === undefined ? " (the default URL)" : " (FRONTDESK_TEST_DATABASE_URL)"}`);
    return async () => undefined;
  }
  // A server that answers but refuses a URL that was set on purpose is a configuration error to
  // see, not to paper over; at the default URL (a laptop's own PostgreSQL with passwords), the
  // embedded server stands in.
  if (probe.answered && configured !== undefined) {
    console.log(`PostgreSQL for tests: the server at ${url} refused the connection (${probe.reason}); the PostgreSQL tests will fail`);
    return async () => undefined;
  }
  const why = probe.answered ? `the server at ${url} refused the connection (${probe.reason})` : `no server answered at ${url} (${probe.reason})`;
  let embedded: EmbeddedServer;
  try {
    // On the configured port when that is a free local one (5432 by default), else on any free port.
    const target = new URL(url);
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(target.hostname);
    embedded = await startEmbeddedPostgres(local ? Number(target.port || 5432) : undefined);
  } catch (err) {
    console.log(`PostgreSQL for tests: ${why}, and embedded-postgres did not start; the PostgreSQL tests will fail: ${(err as Error).message}`);
    return async () => undefined;
  }
  process.env["FRONTDESK_TEST_DATABASE_URL"] = embedded.url;
  console.log(`PostgreSQL for tests: embedded-postgres ${embedded.version} at ${embedded.url} (data in ${embedded.dataDir}), as ${why}`);
  return async () => {
    await embedded.stop();
    if (configured === undefined) delete process.env["FRONTDESK_TEST_DATABASE_URL"];
    else process.env["FRONTDESK_TEST_DATABASE_URL"] = configured;
  };
}
