import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AgentService, type StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { ConfigError } from "../../src/config/config.js";
import { buildServer } from "../../src/server/server.js";
import { ACME_KEY, answerResult, FakeTurnService, progress, silentLogger, sleep, startServer, testConfig, untilAborted, waitFor } from "./helpers.js";

const turn = { threadId: "t-1", userId: "u-1", text: "hi" };

describe("TLS", () => {
  let dir: string;
  let cert: string;
  let key: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "frontdesk-tls-"));
    cert = path.join(dir, "cert.pem");
    key = path.join(dir, "key.pem");
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("serves over https; a client trusting the certificate gets through, one that does not is refused", async () => {
    const fake = new FakeTurnService();
    const config = testConfig({ FRONTDESK_TLS_CERT: cert, FRONTDESK_TLS_KEY: key });
    const frontdesk = buildServer({ turnService: fake, config, logger: silentLogger });
    expect(frontdesk.scheme).toBe("https");
    const { port } = await frontdesk.listen();
    const client = (ca?: Buffer) =>
      createClient(
        AgentService,
        createConnectTransport({
          baseUrl: `https://127.0.0.1:${port}`,
          httpVersion: "2",
          ...(ca ? { nodeOptions: { ca } } : {}),
          interceptors: [
            (next) => (req) => {
              req.header.set("authorization", `Bearer ${ACME_KEY}`);
              return next(req);
            },
          ],
        }),
      );
    try {
      const { result } = await client(await readFile(cert)).turn(turn);
      expect(result?.outcome.case).toBe("answer");
      const err = await client()
        .turn(turn)
        .catch((e: unknown) => ConnectError.from(e));
      expect(err).toBeInstanceOf(ConnectError);
      expect(fake.calls).toHaveLength(1);
    } finally {
      await frontdesk.close();
    }
  });

  test("an unreadable certificate is a ConfigError naming the variable", () => {
    const config = testConfig({ FRONTDESK_TLS_CERT: path.join(dir, "missing.pem"), FRONTDESK_TLS_KEY: key });
    expect(() => buildServer({ turnService: new FakeTurnService(), config, logger: silentLogger })).toThrow(/FRONTDESK_TLS_CERT: cannot read/);
  });
});

describe("bind policy", () => {
  const build = (env: Record<string, string>) => buildServer({ turnService: new FakeTurnService(), config: testConfig(env), logger: silentLogger });

  test("without API keys, a non-loopback host is refused with a clear message", async () => {
    const frontdesk = build({ FRONTDESK_API_KEYS: "", FRONTDESK_HOST: "0.0.0.0" });
    const err = await frontdesk.listen().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe("refusing to listen on 0.0.0.0 without API keys: set FRONTDESK_API_KEYS, bind to 127.0.0.1, or set FRONTDESK_ALLOW_PUBLIC_BIND=true");
    expect(frontdesk.server.listening).toBe(false);
  });

  test.each([
    [{ FRONTDESK_API_KEYS: "", FRONTDESK_HOST: "0.0.0.0", FRONTDESK_ALLOW_PUBLIC_BIND: "true" }],
    [{ FRONTDESK_HOST: "0.0.0.0" }],
    [{ FRONTDESK_API_KEYS: "", FRONTDESK_HOST: "localhost" }],
    [{ FRONTDESK_API_KEYS: "", FRONTDESK_HOST: "127.0.0.1" }],
  ])("allowed: %j", async (env) => {
    const frontdesk = build(env);
    const { port } = await frontdesk.listen();
    expect(port).toBeGreaterThan(0);
    await frontdesk.close();
  });
});

describe("graceful close", () => {
  test("NOT_SERVING at once, a running stream finishes within the grace period, then the port is closed", async () => {
    const s = await startServer({ env: { FRONTDESK_SHUTDOWN_GRACE_MS: "5000" } });
    let release: () => void = () => undefined;
    s.fake.script = async (_input, { onProgress }) => {
      onProgress?.(progress(1, "retrieve", "started"));
      await new Promise<void>((resolve) => (release = resolve));
      return { kind: "completed", result: answerResult };
    };
    const received: StreamTurnResponse[] = [];
    const streaming = (async () => {
      for await (const m of s.client().streamTurn({ turn })) received.push(m);
    })();
    await waitFor(() => received.length === 1);

    const closing = s.close();
    expect(await s.frontdesk.health.check("")).toBe(Status.NOT_SERVING);
    expect(await s.frontdesk.health.check("frontdesk.v1.AgentService")).toBe(Status.NOT_SERVING);
    await sleep(100);
    release();
    await streaming;
    await closing;
    expect(received.map((m) => m.event.case)).toEqual(["progress", "result"]);
    expect(s.frontdesk.server.listening).toBe(false);
    // New connections are refused once closed.
    await expect(
      new Promise((resolve, reject) => {
        const session = http2.connect(s.baseUrl);
        session.on("connect", resolve);
        session.on("error", reject);
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  test("a stream still running when the grace period ends is cancelled: UNAVAILABLE, and its run is aborted", async () => {
    const s = await startServer({ env: { FRONTDESK_SHUTDOWN_GRACE_MS: "200" } });
    s.fake.script = async (_input, { onProgress, signal }) => {
      onProgress?.(progress(1, "retrieve", "started"));
      return untilAborted(signal);
    };
    const received: StreamTurnResponse[] = [];
    const streaming = (async () => {
      for await (const m of s.client().streamTurn({ turn })) received.push(m);
    })().catch((e: unknown) => ConnectError.from(e));
    await waitFor(() => received.length === 1);
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    const err = await streaming;
    expect(err).toMatchObject({ code: Code.Unavailable });
    expect(s.fake.calls[0]?.signal?.aborted).toBe(true);
  });

  test("close() is idempotent and works before listen()", async () => {
    const frontdesk = buildServer({ turnService: new FakeTurnService(), config: testConfig(), logger: silentLogger });
    await Promise.all([frontdesk.close(), frontdesk.close()]);
  });
});
