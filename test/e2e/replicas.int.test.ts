import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Phase, TurnRequestSchema, type TurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import type { ThreadEvent } from "../../gen/frontdesk/v1/watch_pb.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { spawnReplica, type Replica } from "../support/replica.js";

// Separate server processes sharing one database, as replicas behind a load balancer are.

const turn = (threadId: string, text: string, requestId = "") => create(TurnRequestSchema, { threadId, userId: "u-1", text, requestId });

async function outcome(p: Promise<{ result?: TurnResult }>): Promise<TurnResult | ConnectError> {
  try {
    return (await p).result!;
  } catch (e) {
    return ConnectError.from(e);
  }
}

/** A watch on one replica, collected in the background; `when` waits for a matching event. */
function watch(replica: Replica, threadId: string) {
  const controller = new AbortController();
  const events: ThreadEvent[] = [];
  const waiters: Array<{ match: (e: ThreadEvent) => boolean; resolve: (e: ThreadEvent) => void }> = [];
  const done = (async () => {
    for await (const message of replica.client.watchThread({ threadId }, { signal: controller.signal })) {
      const event = message.event!;
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    }
  })().catch(() => undefined);
  const when = (match: (e: ThreadEvent) => boolean, ms = 20_000) =>
    new Promise<ThreadEvent>((resolve, reject) => {
      const found = events.find(match);
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`watch: no matching event in ${ms} ms; saw ${events.map((e) => e.event.case).join(",")}`)), ms);
      waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  return {
    events,
    when,
    started: () => when((e) => e.event.case === "started"),
    async close() {
      controller.abort();
      await done;
    },
  };
}

const triageStarted = (e: ThreadEvent) => e.event.case === "progress" && e.event.value.node === "triage" && e.event.value.phase === Phase.STARTED;

let db: TestDatabase;
let a: Replica;
let b: Replica;

beforeAll(async () => {
  db = await createTestDatabase("replicas");
  [a, b] = await Promise.all([spawnReplica(db.url, "a"), spawnReplica(db.url, "b")]);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

describe("two server processes on one database", () => {
  it("runs one turn at a time per thread: concurrent calls to both processes get one result and ABORTED for the rest", async () => {
    const seen = watch(b, "mp-lock");
    await seen.started();
    const first = outcome(a.client.turn(turn("mp-lock", "What is the minimum deductible for motor body insurance? [slow]", "r-lock")));
    await seen.when(triageStarted);
    // A's turn is running (stalled in triage): every other call on the thread, to either process, is refused.
    const others = await Promise.all([
      outcome(b.client.turn(turn("mp-lock", "hello from b"))),
      outcome(a.client.turn(turn("mp-lock", "hello from a"))),
      outcome(b.client.turn(turn("mp-lock", "[slow] and again from b"))),
    ]);
    for (const other of others) {
      expect(other).toBeInstanceOf(ConnectError);
      expect([(other as ConnectError).code, (other as ConnectError).rawMessage]).toEqual([Code.Aborted, "turn in progress"]);
    }
    const result = await first;
    if (result instanceof ConnectError) throw result;
    expect(result.outcome.case, JSON.stringify(result.outcome.value)).toBe("answer");

    // The watcher on B saw A's turn end with the very result A returned.
    const watched = await seen.when((e) => e.event.case === "result");
    expect(watched.event.value).toEqual(result);
    expect(watched.turnId).toBe(result.turnId);
    await seen.close();

    // A retry of the same request on B is answered from storage: same result, no new turn.
    const retried = await outcome(b.client.turn(turn("mp-lock", "What is the minimum deductible for motor body insurance? [slow]", "r-lock")));
    expect(retried).toEqual(result);
    expect((await b.client.getThread({ threadId: "mp-lock" })).thread?.turnCount).toBe(1);
  });

  it("a process killed mid-turn leaves the thread at its previous checkpoint, and frees it for the other process at once", async () => {
    const victim = await spawnReplica(db.url, "victim");
    try {
      const first = await outcome(victim.client.turn(turn("mp-kill", "What is the minimum deductible for motor body insurance?")));
      if (first instanceof ConnectError) throw first;
      const before = (await b.client.getThread({ threadId: "mp-kill" })).thread!;
      expect(before.turnCount).toBe(1);

      const seen = watch(b, "mp-kill");
      await seen.started();
      const doomed = outcome(victim.client.turn(turn("mp-kill", "[hang] Is glass breakage covered by motor body insurance?")));
      await seen.when(triageStarted);
      await victim.kill();
      expect(await doomed).toBeInstanceOf(ConnectError);
      await seen.close();

      // The other process sees the thread exactly as it was, and can run the next turn on it.
      expect((await b.client.getThread({ threadId: "mp-kill" })).thread).toEqual(before);
      const next = await outcome(b.client.turn(turn("mp-kill", "Is glass breakage covered by motor body insurance?")));
      if (next instanceof ConnectError) throw next;
      const after = (await b.client.getThread({ threadId: "mp-kill" })).thread!;
      expect(after.turnCount).toBe(2);
      expect(after.recentTurns.map((t) => t.userText)).toEqual(["What is the minimum deductible for motor body insurance?", "Is glass breakage covered by motor body insurance?"]);
      expect(await db.query("SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'default/mp-kill'")).toHaveLength(1);
    } finally {
      await victim.stop();
    }
  });
});
