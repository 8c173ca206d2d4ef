import { createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createPostgresPersistence, type PostgresPersistence } from "../../src/persistence/postgres/index.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";
import { sleep, startServer, type Running } from "./helpers.js";

// The PostgreSQL probe against a real database, reached through a TCP proxy the test turns into a
// dead network (bytes swallowed: the probe times out) and then takes away (connection refused).

const CACHE_MS = 100;
const TIMEOUT_MS = 300;

let db: TestDatabase;
let proxy: TcpProxy;
let persistence: PostgresPersistence;
let s: Running;
beforeAll(async () => {
  db = await createTestDatabase("readiness");
  const url = new URL(db.url);
  proxy = await startTcpProxy(Number(url.port || "5432"));
  url.host = `127.0.0.1:${proxy.port}`;
  const settings = { ...loadConfig({}).persistence.postgres, connectTimeoutMs: 1_000 };
  persistence = await createPostgresPersistence({
    databaseUrl: url.toString(),
    settings,
    watch: { bufferEvents: 16, maxWatchers: 10, publishQueue: 100 },
    logger: silentLogger,
    sweepInBackground: false,
  });
  const ping = persistence.ping!;
  s = await startServer({
    probes: [{ name: "postgres", needs: ["agent"], check: (signal) => ping(signal) }],
    env: { FRONTDESK_READY_CACHE_MS: String(CACHE_MS), FRONTDESK_READY_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await proxy?.close().catch(() => undefined);
  // The pools' connections went with the proxy; ending them must not hold the suite.
  await Promise.race([persistence?.close(), sleep(2_000)]);
  await db?.drop();
});

async function observe(): Promise<{ grpc: Status; readyz: number; postgres: unknown }> {
  await sleep(CACHE_MS + 20);
  const grpc = (await createClient(Health, s.transport(null)).check({ service: "frontdesk.v1.AgentService" })).status;
  const response = await fetch(`${s.baseUrl}/readyz`);
  const body = (await response.json()) as { dependencies: Record<string, unknown> };
  return { grpc, readyz: response.status, postgres: body.dependencies["postgres"] };
}

describe("PostgreSQL readiness", () => {
  test("SELECT 1 answered: SERVING; swallowed: NOT_SERVING (timeout) and back once the network is; refused: NOT_SERVING", async () => {
    expect(await observe()).toEqual({ grpc: Status.SERVING, readyz: 200, postgres: { status: "up", latencyMs: expect.any(Number) } });

    proxy.mode = "blackhole";
    expect(await observe()).toEqual({ grpc: Status.NOT_SERVING, readyz: 503, postgres: { status: "down", reason: "timeout", latencyMs: expect.any(Number) } });

    // The swallowed query's connection was dropped, so a fresh one answers as soon as the network does.
    proxy.mode = "pass";
    let back = await observe();
    for (let i = 0; i < 20 && back.grpc !== Status.SERVING; i++) back = await observe();
    expect(back).toEqual({ grpc: Status.SERVING, readyz: 200, postgres: { status: "up", latencyMs: expect.any(Number) } });

    await proxy.close();
    expect(await observe()).toMatchObject({ grpc: Status.NOT_SERVING, readyz: 503, postgres: { status: "down" } });
  });
});
