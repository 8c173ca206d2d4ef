import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentService, type StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { ThreadClosedSchema, ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import { EscalationReason, TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import type { ThreadEvent } from "../../gen/frontdesk/v1/watch_pb.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startRealServer, type RealServer } from "./support.js";

const ACME = "acme-key-0123456789abcdef";
const GLOBEX = "globex-key-0123456789abcdef";

function clientOf(server: RealServer, key: string): Client<typeof AgentService> {
  return createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: `http://127.0.0.1:${server.port}`,
      interceptors: [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${key}`);
          return next(req);
        },
      ],
    }),
  );
}

const turn = (threadId: string, text: string, extra: { userId?: string; requestId?: string } = {}) =>
  create(TurnRequestSchema, { threadId, userId: extra.userId ?? "u-1", text, requestId: extra.requestId ?? "" });

async function failure(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("expected the call to fail");
}

/** Collects a watch stream in the background until `until` says stop. */
function watching(stream: AsyncIterable<{ event?: ThreadEvent }>, until: (e: ThreadEvent) => boolean) {
  const events: ThreadEvent[] = [];
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const done = (async () => {
    for await (const message of stream) {
      events.push(message.event!);
      if (message.event?.event.case === "started") started();
      if (until(message.event!)) break;
    }
    return events;
  })();
  return { events, ready, done };
}

let db: TestDatabase;
let a: RealServer;
let b: RealServer;
let acmeA: Client<typeof AgentService>;
let acmeB: Client<typeof AgentService>;
let globexB: Client<typeof AgentService>;

beforeAll(async () => {
  db = await createTestDatabase("e2e");
  // Two replicas of the real application (offline model, bundled corpus) sharing one database.
  const env = {
    FRONTDESK_CHECKPOINTER: "postgres",
    DATABASE_URL: db.url,
    FRONTDESK_API_KEYS: `acme:${ACME},globex:${GLOBEX}`,
    FRONTDESK_DB_CONNECT_TIMEOUT_MS: "1000",
    FRONTDESK_SHUTDOWN_GRACE_MS: "500",
  };
  a = await startRealServer(env);
  b = await startRealServer({ ...env, FRONTDESK_DB_MIGRATE_ON_START: "false" });
  acmeA = clientOf(a, ACME);
  acmeB = clientOf(b, ACME);
  globexB = clientOf(b, GLOBEX);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

describe("two replicas on one PostgreSQL database", () => {
  it("a watcher on one replica sees the turn another replica runs: the same progress and result StreamTurn sends", async () => {
    const watch = watching(acmeB.watchThread({ threadId: "pg-watch" }), (e) => e.event.case === "result");
    const otherTenant = watching(globexB.watchTenant({}), () => false);
    await Promise.all([watch.ready, otherTenant.ready]);

    const streamed: StreamTurnResponse[] = [];
    for await (const message of acmeA.streamTurn({ turn: turn("pg-watch", "What is the minimum deductible for motor body insurance?") })) streamed.push(message);
    const seen = await watch.done;

    const result = streamed.at(-1)!.event;
    if (result.case !== "result") throw new Error("the stream did not end with a result");
    expect(seen[0]?.event.case).toBe("started");
    expect(seen.slice(1).map((e) => e.event)).toEqual(streamed.map((m) => m.event));
    expect(seen.slice(1).every((e) => e.threadId === "pg-watch" && e.turnId === result.value.turnId)).toBe(true);
    // Nothing of acme's turn reached globex's tenant watch.
    expect(otherTenant.events.map((e) => e.event.case)).toEqual(["started"]);
  });

  it("answers a retried request_id from the other replica without running the turn, and refuses it with other text", async () => {
    const first = (await acmeA.turn(turn("pg-replay", "Does supplementary health insurance cover my children?", { requestId: "req-1" }))).result!;
    const retried = (await acmeB.turn(turn("pg-replay", "Does supplementary health insurance cover my children?", { requestId: "req-1" }))).result!;
    expect(retried).toEqual(first);
    expect((await acmeB.getThread({ threadId: "pg-replay" })).thread?.turnCount).toBe(1);
    const conflict = await failure(acmeB.turn(turn("pg-replay", "Something else", { requestId: "req-1" })));
    expect([conflict.code, conflict.rawMessage]).toEqual([Code.InvalidArgument, "request_id: already used with a different text"]);
  });

  it("keeps the escalation latch across replicas, and the user's memory across threads and replicas", async () => {
    const answered = (await acmeA.turn(turn("pg-memory-1", "Does supplementary health insurance cover my children?", { userId: "u-mem" }))).result!;
    expect(answered.outcome.case).toBe("answer");
    const handoff = (await acmeB.turn(turn("pg-memory-2", "I want to speak to a human please", { userId: "u-mem" }))).result!;
    if (handoff.outcome.case !== "escalate") throw new Error("expected an escalation");
    expect(handoff.outcome.value.handoffContext?.userProfile).toEqual({ family: "has children", preferredLanguage: "en" });

    const refused = await failure(acmeA.turn(turn("pg-memory-2", "hello?", { userId: "u-mem" })));
    expect(refused.code).toBe(Code.FailedPrecondition);
    expect(refused.findDetails(ThreadClosedSchema)[0]?.handoff?.reason).toBe(EscalationReason.USER_REQUESTED);
    expect((await acmeA.getThread({ threadId: "pg-memory-2" })).thread?.status).toBe(ThreadStatus.ESCALATED);

    // Erasure: the other tenant cannot touch it; the owner can, and the row is gone.
    expect((await globexB.deleteUserMemory({ userId: "u-mem" })).existed).toBe(false);
    expect(await db.query("SELECT 1 FROM frontdesk_user_memory WHERE tenant_id = 'acme' AND user_id = 'u-mem'")).toHaveLength(1);
    expect((await acmeB.deleteUserMemory({ userId: "u-mem" })).existed).toBe(true);
    expect(await db.query("SELECT 1 FROM frontdesk_user_memory WHERE tenant_id = 'acme' AND user_id = 'u-mem'")).toEqual([]);
    const after = (await acmeA.turn(turn("pg-memory-3", "connect me to a human", { userId: "u-mem" }))).result!;
    if (after.outcome.case !== "escalate") throw new Error("expected an escalation");
    expect(after.outcome.value.handoffContext?.userProfile).toEqual({});
  });

  it("scopes every call to the caller's tenant, whatever ids it sends, and deletes a thread for real", async () => {
    await acmeA.turn(turn("pg-tenant", "Is glass breakage covered by motor body insurance?"));
    const notFound = await failure(globexB.getThread({ threadId: "pg-tenant" }));
    expect(notFound.code).toBe(Code.NotFound);
    expect((await globexB.deleteThread({ threadId: "pg-tenant" })).existed).toBe(false);
    // The same id is a different thread for globex.
    await globexB.turn(turn("pg-tenant", "Hello!"));
    expect((await globexB.getThread({ threadId: "pg-tenant" })).thread?.turnCount).toBe(1);
    expect((await acmeB.getThread({ threadId: "pg-tenant" })).thread?.turnCount).toBe(1);

    const rows = () => db.query("SELECT 1 FROM checkpoints WHERE thread_id = 'acme/pg-tenant' UNION ALL SELECT 1 FROM checkpoint_blobs WHERE thread_id = 'acme/pg-tenant'");
    expect((await rows()).length).toBeGreaterThan(1);
    expect((await acmeB.deleteThread({ threadId: "pg-tenant" })).existed).toBe(true);
    expect(await rows()).toEqual([]);
    expect(await db.query("SELECT 1 FROM frontdesk_threads WHERE thread_key = 'acme/pg-tenant'")).toEqual([]);
    expect((await failure(acmeA.getThread({ threadId: "pg-tenant" }))).code).toBe(Code.NotFound);
    expect((await globexB.getThread({ threadId: "pg-tenant" })).thread?.turnCount).toBe(1);
  });

  it("answers UNAVAILABLE fast while the database is down, and serves again by itself when it is back", async () => {
    await acmeA.turn(turn("pg-outage", "Hello!"));
    await db.allowConnections(false);
    try {
      await db.terminateConnections("frontdesk");
      const down = await failure(acmeA.turn(turn("pg-outage", "What is the minimum deductible for motor body insurance?", { requestId: "r-out" })));
      expect([down.code, down.rawMessage]).toEqual([Code.Unavailable, "storage unavailable, retry with the same request_id"]);
      expect((await failure(acmeB.getThread({ threadId: "pg-outage" }))).code).toBe(Code.Unavailable);
    } finally {
      await db.allowConnections(true);
    }
    const retried = (await acmeA.turn(turn("pg-outage", "What is the minimum deductible for motor body insurance?", { requestId: "r-out" }))).result!;
    expect(retried.outcome.case).toBe("answer");
    expect((await acmeB.getThread({ threadId: "pg-outage" })).thread?.turnCount).toBe(2);
  });
});
