import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
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
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      replica!.child.once("exit", (code, signal) => resolve({ code, signal })),
    );
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
