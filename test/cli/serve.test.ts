import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp as createRealApp } from "../../src/app/index.js";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { main } from "../../src/cli/main.js";
import { APP_CLOSE_TIMEOUT_MS, oneLine, serveCommand, serveEnv, type CreateAppFn, type ServeApp } from "../../src/cli/serve.js";
import type { CommandIo } from "../../src/cli/chat.js";
import { PACKAGE_ROOT, type Config } from "../../src/config/config.js";
import { FakeTurnService, waitFor } from "../server/helpers.js";

function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, text: () => text };
}

function io(env: Record<string, string | undefined>) {
  const stdout = capture();
  const stderr = capture();
  const value: CommandIo = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env, stdoutIsTTY: false };
  return { io: value, stdout, stderr };
}

/** A fake createApp that records the config it got and whether it was closed. */
function fakeApp() {
  const seen: { config?: Config; closed: boolean } = { closed: false };
  const fake = new FakeTurnService();
  const createApp: CreateAppFn = async (config) => {
    seen.config = config;
    const app: ServeApp = {
      turnService: fake,
      close: async () => {
        seen.closed = true;
      },
    };
    return app;
  };
  return { seen, fake, createApp };
}

describe("serveEnv", () => {
  test("flags override their environment variables; other variables pass through", () => {
    const env = { FRONTDESK_HOST: "0.0.0.0", FRONTDESK_PORT: "9000", FRONTDESK_CORPUS_DIR: "/env/corpus", FRONTDESK_LOG_LEVEL: "warn" };
    expect(serveEnv({ host: "127.0.0.1", port: "0", corpus: "/flag/corpus" }, env)).toEqual({
      FRONTDESK_HOST: "127.0.0.1",
      FRONTDESK_PORT: "0",
      FRONTDESK_CORPUS_DIR: "/flag/corpus",
      FRONTDESK_LOG_LEVEL: "warn",
    });
    expect(serveEnv({}, env)).toEqual(env);
  });

  test("oneLine joins loadConfig's multi-line messages", () => {
    expect(oneLine("invalid configuration:\n  FRONTDESK_PORT: bad\n  FRONTDESK_TOP_K: bad")).toBe("invalid configuration: FRONTDESK_PORT: bad; FRONTDESK_TOP_K: bad");
  });
});

describe("frontdesk serve", () => {
  test("flags beat env, one listening line, the app is served, and stop closes server then app", async () => {
    const { seen, fake, createApp } = fakeApp();
    const log = capture();
    const { io: cmdIo } = io({ FRONTDESK_HOST: "0.0.0.0", FRONTDESK_PORT: "9", FRONTDESK_CORPUS_DIR: "/env/corpus" });
    let stop: (signal: string) => void = () => undefined;
    const exit = serveCommand(["--host", "127.0.0.1", "--port", "0", "--corpus", "/flag/corpus"], cmdIo, {
      createApp: async () => createApp,
      waitForStop: () => new Promise((resolve) => (stop = resolve)),
      logger: (config) => pino({ level: config.logLevel }, log.stream),
    });
    await waitFor(() => log.text().includes("frontdesk listening"));
    expect(seen.config?.server.host).toBe("127.0.0.1");
    expect(seen.config?.retrieval.corpusDir).toBe("/flag/corpus");
    const line = (JSON.parse(log.text().split("\n")[0] ?? "{}") as { msg: string }).msg;
    const match = /^frontdesk listening on h2c:\/\/127\.0\.0\.1:(\d+) \(tenants: default\)$/u.exec(line);
    expect(match).not.toBeNull();
    const port = Number(match?.[1]);
    expect(port).not.toBe(9);

    // The served app is the one createApp returned.
    const client = createClient(AgentService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "2" }));
    await client.turn({ threadId: "t-1", userId: "u-1", text: "hi", domain: "motor" });
    expect(fake.calls.map((c) => [c.input.tenantId, c.input.domain])).toEqual([["default", "motor"]]);

    stop("SIGTERM");
    expect(await exit).toBe(0);
    expect(seen.closed).toBe(true);
    expect(log.text()).toContain('"msg":"frontdesk stopped"');
  });

  test("a non-loopback host without keys: one clear line, exit 2, the app never created", async () => {
    const { seen, createApp } = fakeApp();
    const { io: cmdIo, stderr } = io({ FRONTDESK_PORT: "0" });
    const code = await serveCommand(["--host", "0.0.0.0"], cmdIo, { createApp: async () => createApp, waitForStop: async () => "test" });
    expect(code).toBe(2);
    expect(stderr.text()).toBe(
      "frontdesk serve: refusing to listen on 0.0.0.0 without API keys: set FRONTDESK_API_KEYS, bind to 127.0.0.1, or set FRONTDESK_ALLOW_PUBLIC_BIND=true\n",
    );
    expect(seen.config).toBeUndefined();
  });

  test("an invalid flag value is a configuration error on one line", async () => {
    const { io: cmdIo, stderr } = io({});
    const code = await serveCommand(["--port", "99999"], cmdIo, { createApp: async () => fakeApp().createApp });
    expect(code).toBe(2);
    expect(stderr.text()).toMatch(/^frontdesk serve: invalid configuration: FRONTDESK_PORT: [^\n]+\n$/u);
  });

  test("a port in use: exit 1 with the reason, and the app is closed again", async () => {
    const first = fakeApp();
    const log = capture();
    let stop: (s: string) => void = () => undefined;
    const running = serveCommand(["--port", "0"], io({}).io, {
      createApp: async () => first.createApp,
      waitForStop: () => new Promise((resolve) => (stop = resolve)),
      logger: () => pino({ level: "info" }, log.stream),
    });
    await waitFor(() => log.text().includes("listening"));
    const port = /127\.0\.0\.1:(\d+)/u.exec(log.text())?.[1] ?? "";
    const second = fakeApp();
    const { io: cmdIo, stderr } = io({});
    const code = await serveCommand(["--port", port], cmdIo, {
      createApp: async () => second.createApp,
      logger: () => pino({ level: "silent" }),
    });
    expect(code).toBe(1);
    expect(stderr.text()).toMatch(new RegExp(`^frontdesk serve: failed to start: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`, "u"));
    expect(second.seen.closed).toBe(true);
    stop("SIGINT");
    expect(await running).toBe(0);
  });

  test("--help lists the options and the environment variables", async () => {
    const { io: cmdIo, stdout } = io({});
    expect(await main(["serve", "--help"], cmdIo)).toBe(0);
    for (const word of ["--host", "--port", "--corpus", "FRONTDESK_HOST", "FRONTDESK_PORT", "FRONTDESK_CORPUS_DIR", "FRONTDESK_API_KEYS"]) {
      expect(stdout.text()).toContain(word);
    }
    const chat = io({});
    expect(await main(["chat", "--help"], chat.io)).toBe(0);
    for (const word of ["--url", "--thread", "--user", "--api-key", "--domain", "FRONTDESK_URL", "FRONTDESK_API_KEY"]) {
      expect(chat.stdout.text()).toContain(word);
    }
  });

  test("unknown commands and flags are usage errors", async () => {
    const a = io({});
    expect(await main(["frobnicate"], a.io)).toBe(2);
    expect(a.stderr.text()).toContain('unknown command "frobnicate"');
    const b = io({});
    expect(await main(["serve", "--bogus"], b.io)).toBe(2);
    expect(b.stderr.text()).toMatch(/^frontdesk serve: Unknown option '--bogus'[^\n]*\n$/u);
  });

  test("the real executable refuses a public bind before loading the app", async () => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "serve", "--host", "0.0.0.0"], {
      env: { ...process.env, FRONTDESK_HOST: "127.0.0.1", FRONTDESK_API_KEYS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(err).toBe("frontdesk serve: refusing to listen on 0.0.0.0 without API keys: set FRONTDESK_API_KEYS, bind to 127.0.0.1, or set FRONTDESK_ALLOW_PUBLIC_BIND=true\n");
  }, 20_000);
});

describe("shutdown always ends", () => {
  test("an application whose close() never returns does not hold the stop: serve returns after APP_CLOSE_TIMEOUT_MS, saying so", async () => {
    const { createApp } = fakeApp();
    const stuck: CreateAppFn = async (config, logger) => ({ ...(await createApp(config, logger)), close: () => new Promise<void>(() => undefined) });
    const log = capture();
    const { io: cmdIo } = io({ FRONTDESK_PORT: "0", FRONTDESK_LOG_LEVEL: "info" });
    let stop: (signal: string) => void = () => undefined;
    const exit = serveCommand([], cmdIo, {
      createApp: async () => stuck,
      waitForStop: () => new Promise((resolve) => (stop = resolve)),
      logger: (config) => pino({ level: config.logLevel }, log.stream),
    });
    await waitFor(() => log.text().includes("frontdesk listening"));
    const stopping = Date.now();
    stop("SIGTERM");
    expect(await exit).toBe(0);
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(APP_CLOSE_TIMEOUT_MS - 50);
    expect(Date.now() - stopping).toBeLessThan(APP_CLOSE_TIMEOUT_MS + 2_000);
    expect(log.text()).toContain("the application did not close in time, stopping without it");
  }, 15_000);
});

describe("frontdesk serve with a start-up corpus that has bad documents", () => {
  let corpus = "";
  const front = (id: string, extra = "") => `---\nid: ${id}\ntitle: T\nproduct: p\ndomain: d\nlang: en\n${extra}---\n`;
  beforeAll(async () => {
    corpus = await mkdtemp(path.join(tmpdir(), "frontdesk-bad-corpus-"));
    await writeFile(path.join(corpus, "good.md"), `${front("good")}A good document.`);
    await writeFile(path.join(corpus, "no-lang.md"), "---\nid: no-lang\ntitle: T\nproduct: p\ndomain: d\n---\nText.");
    await writeFile(path.join(corpus, "bad-domain.md"), `${front("bad-domain").replace("domain: d", "domain: Not A Slug")}Text.`);
    await writeFile(path.join(corpus, "scan.pdf"), "not a pdf at all");
  });
  afterAll(() => rm(corpus, { recursive: true, force: true }));

  const problems = () => [
    `  ${path.join(corpus, "bad-domain.md")}: invalid domain "Not A Slug" (lower-case letters, digits and single dashes only)`,
    `  ${path.join(corpus, "no-lang.md")}: missing metadata field(s): lang (front matter, a .metadata.json sidecar or defaults)`,
    `  ${path.join(corpus, "scan.pdf")}: not a PDF file (no %PDF- header)`,
  ];

  test("stops with every bad document's path and reason at once, exit 1", async () => {
    const { io: cmdIo, stderr } = io({ FRONTDESK_PORT: "0", FRONTDESK_CHECKPOINTER: "memory" });
    const code = await serveCommand(["--corpus", corpus], cmdIo, {
      createApp: async () => createRealApp,
      waitForStop: async () => "test",
      logger: () => pino({ level: "silent" }),
    });
    expect(code).toBe(1);
    expect(stderr.text()).toBe(
      ["frontdesk serve: 3 start-up corpus document(s) cannot be loaded (set FRONTDESK_CORPUS_SKIP_INVALID=true to serve the others):", ...problems()].join("\n") + "\n",
    );
  });

  test("FRONTDESK_CORPUS_SKIP_INVALID=true serves the rest, logging each skipped document with its path and reason", async () => {
    const log = capture();
    let stop: (signal: string) => void = () => undefined;
    const { io: cmdIo } = io({ FRONTDESK_PORT: "0", FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_CORPUS_SKIP_INVALID: "true" });
    const exit = serveCommand(["--corpus", corpus], cmdIo, {
      createApp: async () => createRealApp,
      waitForStop: () => new Promise((resolve) => (stop = resolve)),
      logger: () => pino({ level: "warn" }, log.stream),
    });
    await waitFor(
      () =>
        log
          .text()
          .split("\n")
          .filter((line) => line.includes("corpus document skipped")).length === 3,
    );
    const skipped = log
      .text()
      .split("\n")
      .filter((line) => line.includes("corpus document skipped"))
      .map((line) => JSON.parse(line) as { level: number; source: string; reason: string });
    expect(skipped.map((entry) => `  ${entry.source}: ${entry.reason}`)).toEqual(problems());
    expect(skipped.every((entry) => entry.level === 40)).toBe(true);
    stop("SIGTERM");
    expect(await exit).toBe(0);
  });

  test("the real executable exits 1 with the list", async () => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "serve", "--port", "0", "--corpus", corpus], {
      env: { ...process.env, FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent", FRONTDESK_API_KEYS: "", FRONTDESK_HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(err.split("\n").slice(1, 4)).toEqual(problems());
  }, 30_000);
});
