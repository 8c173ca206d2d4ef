import { spawn } from "node:child_process";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/chat.js";
import { main } from "../../src/cli/main.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { ADMIN_URL, createTestDatabase, type TestDatabase } from "../support/postgres.js";

// The test server's address as messages name it (host:port), whichever server the run uses.
const HOST_PORT = (() => {
  const url = new URL(ADMIN_URL);
  return `${url.hostname}:${url.port || "5432"}`;
})();

function run(argv: string[], env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        append(chunk.toString("utf8"));
        done();
      },
    });
  const io: CommandIo = {
    stdin: new PassThrough(),
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    env: { FRONTDESK_LOG_LEVEL: "silent", ...env },
    stdoutIsTTY: false,
  };
  return main(argv, io).then((code) => ({ code, stdout, stderr }));
}

const UNREACHABLE = "postgres://postgres@127.0.0.1:1/frontdesk";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("cli");
});
afterAll(async () => db?.drop());

describe("frontdesk db", () => {
  it("status says not ready on an empty database, migrate creates the schema once, status then says ready", async () => {
    const before = await run(["db", "status"], { DATABASE_URL: db.url });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`not ready: ${HOST_PORT}/${db.name}`);
    expect(before.stdout).toContain("checkpoints tables are missing");

    const first = await run(["db", "migrate"], { DATABASE_URL: db.url });
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(
      new RegExp(`^migrated ${HOST_PORT.replace(/\./gu, "\\.")}\\/\\S+\\n {2}checkpoints {2}v4 \\(was none\\)\\n {2}frontdesk {4}v3 \\(was none\\)\\n$`, "u"),
    );
    const second = await run(["db", "migrate"], { DATABASE_URL: db.url });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already up to date:");
    expect(second.stdout).not.toContain("was");

    const after = await run(["db", "status"], { DATABASE_URL: db.url });
    expect(after.code).toBe(0);
    expect(after.stdout.startsWith(`ready: ${HOST_PORT}/${db.name}`)).toBe(true);
  });

  it("refuses without DATABASE_URL (usage error) and reports an unreachable server without leaking credentials", async () => {
    const missing = await run(["db", "migrate"], {});
    expect(missing).toMatchObject({ code: 2, stderr: "frontdesk db migrate: DATABASE_URL is not set\n" });
    const unreachable = await run(["db", "migrate"], { DATABASE_URL: "postgres://admin:s3cret@127.0.0.1:1/frontdesk" });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^frontdesk db migrate: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/frontdesk \(DATABASE_URL\): .*ECONNREFUSED/u);
    expect(unreachable.stderr).not.toContain("s3cret");
    const unknown = await run(["db", "drop"], { DATABASE_URL: db.url });
    expect(unknown.code).toBe(2);
  });
});

describe("frontdesk serve on PostgreSQL", () => {
  it("fails at start-up, before serving, on a database without the schema when migration on start is off", async () => {
    const empty = await createTestDatabase("cliempty");
    try {
      const result = await run(["serve", "--port", "0"], { DATABASE_URL: empty.url, FRONTDESK_DB_MIGRATE_ON_START: "false" });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`frontdesk serve: failed to start: database ${HOST_PORT}/${empty.name} is not ready for frontdesk`);
      expect(result.stderr).toContain('run "frontdesk db migrate"');
    } finally {
      await empty.drop();
    }
  });

  it("exits non-zero with a clear message when PostgreSQL is unreachable (a real process)", async () => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "serve", "--port", "0"], {
      env: { ...process.env, DATABASE_URL: UNREACHABLE, FRONTDESK_LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/frontdesk serve: failed to start: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/frontdesk \(DATABASE_URL\)/u);
  });
});
