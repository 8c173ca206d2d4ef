import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { createClient } from "@connectrpc/connect";
import { afterEach, describe, expect, test } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import type { ReadinessProbe } from "../../src/domain/readiness.js";
import { pingQdrant } from "../../src/retrieval/qdrant/health.js";
import { createChunker, createEmbeddedRetriever, createLocalDocumentIndex, createLocalEmbedder, createMemoryDocumentStore, type DocumentRules } from "../../src/retrieval/index.js";
import { createReadiness } from "../../src/server/readiness.js";
import { answerResult, silentLogger, sleep, startServer, waitFor, type Running } from "./helpers.js";

// Readiness tells the truth: SERVING only while the dependencies answer, per service, on gRPC
// health and on /readyz, on the service's own port, over HTTP/1.1 and HTTP/2.

const CACHE_MS = 100;
const AGENT = "frontdesk.v1.AgentService";
const DOCUMENTS = "frontdesk.v1.DocumentService";
const rules: DocumentRules = { chunker: createChunker(), maxChunkChars: 1_500, maxDocumentChars: 5_000, maxFileBytes: 1024 * 1024, maxIdChars: 128 };

/** Qdrant's /readyz on 127.0.0.1, which the test stops and starts again on the same port. */
async function fakeQdrant(): Promise<{ url: string; requests: () => number; stop(): Promise<void>; start(): Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    res.writeHead(req.url === "/readyz" ? 200 : 404).end("all shards are ready");
  });
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) =>
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  await start();
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function documentsIndex() {
  const index = createLocalDocumentIndex({ retriever: createEmbeddedRetriever({ embedder: createLocalEmbedder({ dimension: 32 }) }), store: createMemoryDocumentStore() });
  await index.load([]);
  return { index, rules };
}

async function readyz(baseUrl: string): Promise<{ status: number; body: { status: string; dependencies: Record<string, { status: string; reason?: string }> } }> {
  const response = await fetch(`${baseUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as never };
}

let s: Running | undefined;
let qdrant: Awaited<ReturnType<typeof fakeQdrant>> | undefined;
afterEach(async () => {
  await s?.close();
  await qdrant?.stop().catch(() => undefined);
  s = undefined;
  qdrant = undefined;
});

describe("readiness", () => {
  test("Qdrant going away: every service that needs it NOT_SERVING (gRPC health, Watch, /readyz), and back", async () => {
    qdrant = await fakeQdrant();
    const url = qdrant.url;
    const probes: ReadinessProbe[] = [{ name: "qdrant", needs: ["agent", "documents"], check: (signal) => pingQdrant({ url, apiKey: null }, signal) }];
    s = await startServer({ probes, documents: await documentsIndex(), env: { FRONTDESK_READY_CACHE_MS: String(CACHE_MS), FRONTDESK_READY_TIMEOUT_MS: "500" } });
    const health = createClient(Health, s.transport(null));
    const check = async (service: string) => (await health.check({ service })).status;

    for (const service of ["", AGENT, DOCUMENTS]) expect(await check(service)).toBe(Status.SERVING);
    expect(await readyz(s.baseUrl)).toEqual({ status: 200, body: { status: "ready", dependencies: { qdrant: { status: "up", latencyMs: expect.any(Number) } } } });

    const watched: Status[] = [];
    const watching = (async () => {
      for await (const m of health.watch({ service: AGENT })) {
        watched.push(m.status);
        if (watched.length === 3) return;
      }
    })();
    await waitFor(() => watched.length === 1);

    await qdrant.stop();
    await sleep(CACHE_MS + 20);
    for (const service of ["", AGENT, DOCUMENTS]) expect(await check(service)).toBe(Status.NOT_SERVING);
    expect(await readyz(s.baseUrl)).toEqual({
      status: 503,
      body: { status: "not_ready", dependencies: { qdrant: { status: "down", reason: "unavailable", latencyMs: expect.any(Number) } } },
    });
    expect((await health.list({})).statuses[DOCUMENTS]?.status).toBe(Status.NOT_SERVING);

    await qdrant.start();
    await sleep(CACHE_MS + 20);
    for (const service of ["", AGENT, DOCUMENTS]) expect(await check(service)).toBe(Status.SERVING);
    expect((await readyz(s.baseUrl)).status).toBe(200);
    await watching;
    expect(watched).toEqual([Status.SERVING, Status.NOT_SERVING, Status.SERVING]);
  });

  test("a dependency only AgentService needs (the model circuit) leaves DocumentService SERVING; the whole server is not", async () => {
    let open = false;
    const probes: ReadinessProbe[] = [
      {
        name: "models",
        needs: ["agent"],
        check: async () => {
          if (open) throw new Error("circuit open");
        },
      },
    ];
    s = await startServer({ probes, documents: await documentsIndex(), env: { FRONTDESK_READY_CACHE_MS: String(CACHE_MS) } });
    const health = createClient(Health, s.transport(null));
    open = true;
    await sleep(CACHE_MS + 20);
    expect((await health.check({ service: "" })).status).toBe(Status.NOT_SERVING);
    expect((await health.check({ service: AGENT })).status).toBe(Status.NOT_SERVING);
    expect((await health.check({ service: DOCUMENTS })).status).toBe(Status.SERVING);
    expect((await readyz(s.baseUrl)).body.dependencies["models"]).toEqual({ status: "down", reason: "unavailable", latencyMs: expect.any(Number) });
  });

  test("a probe that hangs (and ignores its signal) is down after FRONTDESK_READY_TIMEOUT_MS, reason timeout", async () => {
    const probes: ReadinessProbe[] = [{ name: "stuck", needs: ["agent"], check: () => new Promise<void>(() => undefined) }];
    s = await startServer({ probes, env: { FRONTDESK_READY_TIMEOUT_MS: "200" } });
    const started = Date.now();
    const { status, body } = await readyz(s.baseUrl);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(status).toBe(503);
    expect(body.dependencies["stuck"]).toMatchObject({ status: "down", reason: "timeout" });
  });

  test("probes are cached: a burst of 50 checks costs one probe round", async () => {
    qdrant = await fakeQdrant();
    const url = qdrant.url;
    s = await startServer({
      probes: [{ name: "qdrant", needs: ["agent"], check: (signal) => pingQdrant({ url, apiKey: null }, signal) }],
      env: { FRONTDESK_READY_CACHE_MS: "5000" },
    });
    const health = createClient(Health, s.transport(null));
    await Promise.all([
      ...Array.from({ length: 25 }, () => health.check({ service: "" })),
      ...Array.from({ length: 25 }, () => fetch(`${s!.baseUrl}/readyz`).then((r) => r.arrayBuffer())),
    ]);
    expect(qdrant.requests()).toBe(1);
  });

  test("the readiness round shares one run among concurrent callers and runs again once the cache time is over", async () => {
    let runs = 0;
    let now = 1_000;
    const readiness = createReadiness({
      probes: [{ name: "p", needs: ["agent"], check: async () => void runs++ }],
      cacheMs: 100,
      timeoutMs: 100,
      logger: silentLogger,
      now: () => now,
    });
    await Promise.all([readiness.report(), readiness.report(), readiness.report()]);
    expect(runs).toBe(1);
    now += 99;
    await readiness.report();
    expect(runs).toBe(1);
    now += 1;
    await readiness.report();
    expect(runs).toBe(2);
  });
});

describe("/healthz and /readyz on the service's port", () => {
  test("over HTTP/1.1 and HTTP/2; liveness 200 with no dependencies; HEAD has no body; other methods 405", async () => {
    s = await startServer();
    const live = await fetch(`${s.baseUrl}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "alive" });
    expect(await readyz(s.baseUrl)).toEqual({ status: 200, body: { status: "ready", dependencies: {} } });
    const head = await fetch(`${s.baseUrl}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(`${s.baseUrl}/healthz`, { method: "POST" })).status).toBe(405);
    // Other paths stay 404 (no metrics, no listing on the public port).
    expect((await fetch(`${s.baseUrl}/metrics`)).status).toBe(404);

    const session = http2.connect(s.baseUrl);
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = session.request({ ":path": "/readyz" });
        let body = "";
        let status = 0;
        req.on("response", (headers) => (status = Number(headers[":status"])));
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        req.on("end", () => resolve({ status, body }));
        req.on("error", reject);
        req.end();
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ status: "ready", dependencies: {} });
    } finally {
      session.close();
    }
  });

  test("a turn still works on the port that answers the probes", async () => {
    s = await startServer();
    expect((await s.client().turn({ threadId: "t-1", userId: "u-1", text: "hi" })).result?.turnId).toBe(answerResult.turnId);
  });
});
