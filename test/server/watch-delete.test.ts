import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { WatchTenantResponse, WatchThreadResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { Phase } from "../../gen/frontdesk/v1/turn_pb.js";
import { FellBehindReason, TurnFailureReason, type ThreadEvent } from "../../gen/frontdesk/v1/watch_pb.js";
import { progressToWire, turnResultToWire } from "../../src/wire/index.js";
import { answerResult, FakeTurnService, GLOBEX_KEY, progress, sleep, startServer, waitFor, type Running } from "./helpers.js";

function failure(p: Promise<unknown>): Promise<ConnectError> {
  return p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => ConnectError.from(e),
  );
}

/** Reads a watch stream in the background; `events` fills as messages arrive; `ended` is the error that ended it, or null. */
function reader(stream: AsyncIterable<WatchThreadResponse | WatchTenantResponse>) {
  const events: ThreadEvent[] = [];
  const ended = (async () => {
    for await (const message of stream) events.push(message.event!);
  })().then(
    () => null,
    (e: unknown) => ConnectError.from(e),
  );
  return { events, ended };
}

let s: Running;
let fake: FakeTurnService;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());
beforeEach(() => {
  fake = s.fake;
  fake.deleteCalls.length = 0;
});

describe("WatchThread and WatchTenant", () => {
  test("start with `started`, then carry the thread's progress and result exactly as StreamTurn encodes them", async () => {
    const controller = new AbortController();
    const watch = reader(s.client().watchThread({ threadId: "t-1" }, { signal: controller.signal }));
    await waitFor(() => watch.events.length === 1);
    expect(watch.events[0]).toMatchObject({ threadId: "t-1", event: { case: "started" } });

    const p1 = progress(1, "triage", "started");
    const p2 = progress(2, "triage", "completed", "knowledge");
    fake.publish("acme", "t-1", { kind: "progress", turnId: "turn-1", progress: p1 });
    fake.publish("acme", "t-2", { kind: "progress", turnId: "turn-9", progress: p1 }); // another thread
    fake.publish("globex", "t-1", { kind: "progress", turnId: "turn-8", progress: p1 }); // another tenant, same thread id
    fake.publish("acme", "t-1", { kind: "progress", turnId: "turn-1", progress: p2 });
    fake.publish("acme", "t-1", { kind: "result", turnId: "turn-1", result: answerResult });
    fake.publish("acme", "t-1", { kind: "failed", turnId: "turn-2", reason: "cancelled" });
    await waitFor(() => watch.events.length === 5);
    controller.abort();
    await watch.ended;

    const [, first, second, result, failed] = watch.events;
    expect(first).toMatchObject({ threadId: "t-1", turnId: "turn-1", event: { case: "progress", value: progressToWire(p1) } });
    expect(second?.event.value).toEqual(progressToWire(p2));
    expect(second?.event.case === "progress" && second.event.value.phase).toBe(Phase.COMPLETED);
    expect(result).toMatchObject({ turnId: "turn-1", event: { case: "result" } });
    expect(result?.event.value).toEqual(turnResultToWire(answerResult));
    expect(failed).toMatchObject({ turnId: "turn-2", event: { case: "failed", value: { reason: TurnFailureReason.CANCELLED } } });
  });

  test("a tenant watch sees every thread of the caller's tenant and nothing of another tenant's", async () => {
    const controller = new AbortController();
    const acme = reader(s.client().watchTenant({}, { signal: controller.signal }));
    const globex = reader(s.client(GLOBEX_KEY).watchTenant({}, { signal: controller.signal }));
    await waitFor(() => acme.events.length === 1 && globex.events.length === 1);
    fake.publish("acme", "t-1", { kind: "progress", turnId: "a", progress: progress(1, "triage", "started") });
    fake.publish("acme", "t-2", { kind: "progress", turnId: "b", progress: progress(1, "triage", "started") });
    fake.publish("globex", "t-1", { kind: "progress", turnId: "c", progress: progress(1, "triage", "started") });
    await waitFor(() => acme.events.length === 3 && globex.events.length === 2);
    await sleep(50);
    controller.abort();
    await Promise.all([acme.ended, globex.ended]);
    expect(acme.events.slice(1).map((e) => [e.threadId, e.turnId])).toEqual([
      ["t-1", "a"],
      ["t-2", "b"],
    ]);
    expect(globex.events.slice(1).map((e) => [e.threadId, e.turnId])).toEqual([["t-1", "c"]]);
  });

  test("a watcher that does not read is told it fell behind and disconnected, while one that reads gets everything", async () => {
    const slow = await startServer({ fake: new FakeTurnService({ bufferEvents: 16, maxWatchers: 10 }) });
    const controller = new AbortController();
    try {
      const stalled = slow.client().watchThread({ threadId: "t-slow" })[Symbol.asyncIterator]();
      expect((await stalled.next()).value?.event?.event.case).toBe("started");
      const keeping = reader(slow.client().watchThread({ threadId: "t-slow" }, { signal: controller.signal }));
      await waitFor(() => keeping.events.length === 1);
      // The stalled client reads nothing now: HTTP/2 flow control soon stops the server's writes
      // to it and its queue fills. Events come in small batches a reading watcher keeps up with.
      const summary = "x".repeat(200);
      let published = 0;
      for (let batch = 0; batch < 400; batch++) {
        for (let i = 0; i < 8; i++) {
          // publish() is synchronous: it returns before any socket write, stalled or not.
          slow.fake.publish("acme", "t-slow", { kind: "progress", turnId: "turn-1", progress: progress(++published, "retrieve", "completed", summary) });
        }
        await sleep(1);
      }
      await waitFor(() => keeping.events.length === published + 1, 10_000);
      expect(keeping.events.some((e) => e.event.case === "fellBehind")).toBe(false);

      const rest: ThreadEvent[] = [];
      for (let next = await stalled.next(); next.done !== true; next = await stalled.next()) rest.push(next.value.event!);
      expect(rest.at(-1)?.event).toEqual({ case: "fellBehind", value: expect.objectContaining({ reason: FellBehindReason.SLOW_CONSUMER }) });
      const delivered = rest.filter((e) => e.event.case === "progress");
      expect(delivered.length).toBeLessThan(published);
      // What was delivered is in order, without gaps, up to where the watcher fell behind.
      expect(delivered.map((e) => (e.event.case === "progress" ? e.event.value.seq : -1))).toEqual(delivered.map((_, i) => i + 1));
    } finally {
      controller.abort();
      await slow.close();
    }
  });

  test("refuses a bad thread id with INVALID_ARGUMENT and too many watchers with RESOURCE_EXHAUSTED", async () => {
    const bad = await failure(
      (async () => {
        for await (const _ of s.client().watchThread({ threadId: "bad/id" })) break;
      })(),
    );
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.rawMessage).toMatch(/^thread_id:/u);

    const small = await startServer({ fake: new FakeTurnService({ bufferEvents: 16, maxWatchers: 1 }) });
    const controller = new AbortController();
    try {
      const first = reader(small.client().watchTenant({}, { signal: controller.signal }));
      await waitFor(() => first.events.length === 1);
      const second = await failure(
        (async () => {
          for await (const _ of small.client().watchTenant({})) break;
        })(),
      );
      expect(second.code).toBe(Code.ResourceExhausted);
      controller.abort();
      await first.ended;
    } finally {
      await small.close();
    }
  });

  test("shutdown ends watch streams at once with UNAVAILABLE instead of waiting out the grace period", async () => {
    const server = await startServer({ env: { FRONTDESK_SHUTDOWN_GRACE_MS: "20000" } });
    const watch = reader(server.client().watchThread({ threadId: "t-1" }));
    await waitFor(() => watch.events.length === 1);
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await watch.ended)?.code).toBe(Code.Unavailable);
  });
});

describe("DeleteThread and DeleteUserMemory", () => {
  test("delete in the caller's tenant and say whether anything existed", async () => {
    fake.threads.set("acme/t-del", { threadId: "t-del", status: "active", handoff: null, recentTurns: [], summary: "", turnCount: 1, updatedAt: null });
    expect(await s.client().deleteThread({ threadId: "t-del" })).toMatchObject({ existed: true });
    expect(await s.client().deleteThread({ threadId: "t-del" })).toMatchObject({ existed: false });
    fake.memories.add("globex/u-1");
    expect(await s.client().deleteUserMemory({ userId: "u-1" })).toMatchObject({ existed: false });
    expect(fake.memories.has("globex/u-1")).toBe(true);
    expect(await s.client(GLOBEX_KEY).deleteUserMemory({ userId: "u-1" })).toMatchObject({ existed: true });
    expect(fake.deleteCalls).toEqual([
      { tenantId: "acme", threadId: "t-del" },
      { tenantId: "acme", threadId: "t-del" },
      { tenantId: "acme", userId: "u-1" },
      { tenantId: "globex", userId: "u-1" },
    ]);
  });

  test("ABORTED while a turn runs on the thread; INVALID_ARGUMENT naming the field for bad ids", async () => {
    fake.busyThreads.add("acme/t-busy");
    const busy = await failure(s.client().deleteThread({ threadId: "t-busy" }));
    expect([busy.code, busy.rawMessage]).toEqual([Code.Aborted, "turn in progress"]);
    const badThread = await failure(s.client().deleteThread({ threadId: "" }));
    expect([badThread.code, badThread.rawMessage.startsWith("thread_id:")]).toEqual([Code.InvalidArgument, true]);
    const badUser = await failure(s.client().deleteUserMemory({ userId: "a b" }));
    expect([badUser.code, badUser.rawMessage.startsWith("user_id:")]).toEqual([Code.InvalidArgument, true]);
    expect(fake.deleteCalls).toEqual([{ tenantId: "acme", threadId: "t-busy" }]);
  });

  test("without credentials nothing is deleted", async () => {
    const error = await failure(s.client(null).deleteThread({ threadId: "t-1" }));
    expect(error.code).toBe(Code.Unauthenticated);
    expect(fake.deleteCalls).toEqual([]);
  });
});
