import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { spawnReplica, type Replica } from "../support/replica.js";

// Shutdown always ends. A real server process (test/e2e/fixtures/replica.ts) whose model provider
// never resolves and ignores its abort signal ("[hang]"): on SIGTERM the running turn gets the
// grace period, then its signal fires, and the process exits whether or not the provider ever
// returns. The thread is as it was before the turn.

const GRACE_MS = 500;
/** Time to exit after the grace period: the turn's abort, the handlers' answers, closing the pool. */
const MARGIN_MS = 3_000;

const turn = (threadId: string, text: string) => create(TurnRequestSchema, { threadId, userId: "u-1", text });

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("shutdown");
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

describe("shutdown with a model provider that never answers", () => {
  let replica: Replica | undefined;
  afterAll(async () => {
    await replica?.kill();
  });

  it("exits within the grace period and a margin; the running call ends UNAVAILABLE; the thread is untouched", async () => {
    replica = await spawnReplica(db.url, "hang", { FRONTDESK_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    await replica.client.turn(turn("shutdown-1", "Hello"));
    const before = (await replica.client.getThread({ threadId: "shutdown-1" })).thread!;
    expect(before.turnCount).toBe(1);

    const running = replica.client.turn(turn("shutdown-1", "What is the minimum deductible for motor body insurance? [hang]")).then(
      () => null,
      (e: unknown) => ConnectError.from(e),
    );
    // The turn is in its model call (the thread's lock held) once a second turn on the thread is refused.
    for (let i = 0; i < 100; i++) {
      const busy = await replica.client.turn(turn("shutdown-1", "hello again")).catch((e: unknown) => ConnectError.from(e));
      if (busy instanceof ConnectError && busy.code === Code.Aborted) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const stopping = Date.now();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => replica!.child.once("exit", (code, signal) => resolve({ code, signal })));
    replica.child.kill("SIGTERM");
    const exit = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), GRACE_MS + MARGIN_MS + 5_000))]);
    const tookMs = Date.now() - stopping;
    expect(exit, `the process did not exit; its stderr:\n${replica.stderr()}`).not.toBeNull();
    expect(tookMs).toBeGreaterThanOrEqual(GRACE_MS);
    expect(tookMs).toBeLessThan(GRACE_MS + MARGIN_MS);
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await running)?.code).toBe(Code.Unavailable);
    expect(replica.stderr()).toContain("[hang] the model call's signal fired (and is ignored)");

    // Another process on the same database sees the thread exactly as it was.
    replica = await spawnReplica(db.url, "after");
    expect((await replica.client.getThread({ threadId: "shutdown-1" })).thread).toEqual(before);
    // And the thread is free: its lock went with the process.
    expect((await replica.client.turn(turn("shutdown-1", "Hello again"))).result?.threadId).toBe("shutdown-1");
  });
});

describe("draining on SIGTERM", () => {
  let replica: Replica | undefined;
  afterAll(async () => {
    await replica?.kill();
  });

  it("readiness flips to NOT_SERVING / 503 at once, the port stays open, and the running turn completes", async () => {
    // The turn stalls 1.5 s in its model call; the grace period is longer, so it is never cut.
    replica = await spawnReplica(db.url, "drain", { FRONTDESK_SHUTDOWN_GRACE_MS: "8000", FRONTDESK_TEST_SLOW_MS: "1500", FRONTDESK_READY_CACHE_MS: "100" });
    const base = `http://127.0.0.1:${replica.port}`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { dependencies: Record<string, unknown> }).dependencies).toMatchObject({ postgres: { status: "up" }, models: { status: "up" } });

    await replica.client.turn(turn("drain-1", "Hello"));
    const running = replica.client.turn(turn("drain-1", "What is the minimum deductible for motor body insurance? [slow]")).then(
      (r) => r,
      (e: unknown) => ConnectError.from(e),
    );
    let settled = false;
    void running.finally(() => (settled = true));
    for (let i = 0; i < 100; i++) {
      const busy = await replica.client.turn(turn("drain-1", "hello again")).catch((e: unknown) => ConnectError.from(e));
      if (busy instanceof ConnectError && busy.code === Code.Aborted) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exited = new Promise<{ code: number | null }>((resolve) => replica!.child.once("exit", (code) => resolve({ code })));
    replica.child.kill("SIGTERM");

    // Readiness flips first, on a fresh connection to the same port (HTTP/1.1 and gRPC health).
    let draining: { status: number; body: { status: string } } | null = null;
    for (let i = 0; i < 40 && draining?.body.status !== "draining"; i++) {
      const response = await fetch(`${base}/readyz`);
      draining = { status: response.status, body: (await response.json()) as { status: string } };
      if (draining.body.status !== "draining") await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(draining).toEqual({ status: 503, body: expect.objectContaining({ status: "draining" }) });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const health = createClient(Health, createGrpcTransport({ baseUrl: base }));
    expect((await health.check({ service: "" })).status).toBe(Status.NOT_SERVING);
    expect((await health.check({ service: "frontdesk.v1.AgentService" })).status).toBe(Status.NOT_SERVING);
    // All of that while the turn was still running.
    expect(settled).toBe(false);

    // The in-flight turn completes, then the process exits cleanly, well within the grace period.
    const answered = await running;
    if (answered instanceof ConnectError) throw answered;
    const result = answered.result!;
    expect(result.threadId).toBe("drain-1");
    expect(result.outcome.case).not.toBeUndefined();
    expect(await exited).toEqual({ code: 0 });
  });
});
