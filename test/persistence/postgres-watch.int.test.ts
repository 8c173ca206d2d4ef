import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { StorageUnavailableError } from "../../src/persistence/errors.js";
import { createPool } from "../../src/persistence/postgres/connection.js";
import { migrateDatabase } from "../../src/persistence/postgres/index.js";
import { createPostgresTurnEvents, NOTIFY_INLINE_LIMIT_BYTES, type PostgresTurnEvents } from "../../src/persistence/postgres/watch.js";
import type { Watch, WatchMessage } from "../../src/persistence/ports.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

let db: TestDatabase;
const closers: Array<() => Promise<void>> = [];

/** One process's turn events: its own pool and LISTEN connection, as a replica has. */
async function replica(name: string, options: { bufferEvents?: number } = {}): Promise<PostgresTurnEvents> {
  const connection = { connectionString: db.url, connectTimeoutMs: 1_500, statementTimeoutMs: 5_000, applicationName: `frontdesk-${name}` };
  const pool = createPool(connection, 4, silentLogger, name);
  const events = await createPostgresTurnEvents({
    connection: { ...connection, applicationName: `frontdesk-listen-${name}` },
    pool,
    logger: silentLogger,
    bufferEvents: options.bufferEvents ?? 64,
    maxWatchers: 10,
    publishQueue: 1_000,
    payloadRetentionSeconds: 600,
    reconnectDelayMs: 50,
  });
  closers.push(async () => {
    await events.close();
    await pool.end();
  });
  return events;
}

/** Reads up to `count` messages (or until the watch ends) within `ms`. */
async function take(watch: Watch, count: number, ms = 5_000): Promise<WatchMessage[]> {
  const out: WatchMessage[] = [];
  const iterator = watch[Symbol.asyncIterator]();
  const deadline = Date.now() + ms;
  while (out.length < count) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const next = await Promise.race([iterator.next(), new Promise<null>((resolve) => setTimeout(() => resolve(null), remaining))]);
    if (next === null || next.done === true) break;
    out.push(next.value);
  }
  return out;
}

beforeAll(async () => {
  db = await createTestDatabase("watch");
  await migrateDatabase(db.url, loadConfig({}).persistence.postgres, silentLogger);
});
afterAll(async () => {
  for (const close of closers) await close();
  await db?.drop();
});

describe("turn events over LISTEN/NOTIFY", () => {
  it("delivers one replica's events to another's watchers, in order, filtered by tenant and thread", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const thread = await b.subscribe({ tenantId: "acme", threadId: "t-1" });
    const tenant = await b.subscribe({ tenantId: "acme" });
    for (let i = 1; i <= 20; i++) a.publish({ tenantId: "acme", threadId: "t-1", payload: { seq: i } });
    a.publish({ tenantId: "acme", threadId: "t-2", payload: { seq: 100 } });
    a.publish({ tenantId: "globex", threadId: "t-1", payload: { seq: 200 } });
    await a.flush();
    const onThread = await take(thread, 20);
    expect(onThread.map((m) => (m.kind === "event" ? m.event.payload : m))).toEqual(Array.from({ length: 20 }, (_, i) => ({ seq: i + 1 })));
    const onTenant = await take(tenant, 21);
    expect(onTenant.at(-1)).toEqual({ kind: "event", event: { tenantId: "acme", threadId: "t-2", payload: { seq: 100 } } });
    // Nothing of globex arrives (give it time to arrive if it were going to).
    expect(await take(tenant, 1, 300)).toEqual([]);
    thread.close();
    tenant.close();
  });

  it("carries an event larger than a NOTIFY payload through the payload table, keeping its place in the order", async () => {
    const a = await replica("big-a");
    const b = await replica("big-b");
    const watch = await b.subscribe({ tenantId: "acme", threadId: "big" });
    const long = "بیمه بدنه ".repeat(1_500); // ~27 KB of UTF-8, far over 8000 bytes
    expect(Buffer.byteLength(long)).toBeGreaterThan(NOTIFY_INLINE_LIMIT_BYTES * 2);
    a.publish({ tenantId: "acme", threadId: "big", payload: { seq: 1 } });
    a.publish({ tenantId: "acme", threadId: "big", payload: { seq: 2, text: long } });
    a.publish({ tenantId: "acme", threadId: "big", payload: { seq: 3 } });
    await a.flush();
    const got = await take(watch, 3);
    expect(got.map((m) => (m.kind === "event" ? (m.event.payload as { seq: number }).seq : m))).toEqual([1, 2, 3]);
    expect(got[1]?.kind === "event" && (got[1].event.payload as { text: string }).text).toBe(long);
    expect(await db.query("SELECT id FROM frontdesk_event_payloads WHERE tenant_id = 'acme' AND thread_id = 'big'")).toHaveLength(1);
    watch.close();
  });

  it("tells a watcher that does not read that it fell behind, and keeps serving the others", async () => {
    const a = await replica("slow-a");
    const b = await replica("slow-b", { bufferEvents: 5 });
    const slow = await b.subscribe({ tenantId: "acme", threadId: "slow" });
    const fast = await b.subscribe({ tenantId: "acme", threadId: "slow" });
    const fastReading = take(fast, 12);
    for (let i = 1; i <= 12; i++) a.publish({ tenantId: "acme", threadId: "slow", payload: { seq: i } });
    await a.flush();
    expect((await fastReading).map((m) => (m.kind === "event" ? (m.event.payload as { seq: number }).seq : -1))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await take(slow, 10)).toEqual([{ kind: "fell_behind", reason: "slow_consumer" }]);
  });

  it("when its LISTEN connection is lost, tells every watcher, refuses new ones until it is back, then serves again", async () => {
    const a = await replica("lost-a");
    const b = await replica("lost-b");
    const watch = await b.subscribe({ tenantId: "acme", threadId: "lost" });
    expect(await db.terminateConnections("frontdesk-listen-lost-b")).toBe(1);
    expect(await take(watch, 2)).toEqual([{ kind: "fell_behind", reason: "source_interrupted" }]);

    // Down for a while: new watchers are refused as unavailable.
    await db.allowConnections(false);
    try {
      await db.terminateConnections("frontdesk-listen-lost-b");
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(b.subscribe({ tenantId: "acme" })).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await db.allowConnections(true);
    }
    const deadline = Date.now() + 10_000;
    while (!b.listening && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(b.listening).toBe(true);
    const again = await b.subscribe({ tenantId: "acme", threadId: "lost" });
    a.publish({ tenantId: "acme", threadId: "lost", payload: { back: true } });
    await a.flush();
    expect(await take(again, 1)).toEqual([{ kind: "event", event: { tenantId: "acme", threadId: "lost", payload: { back: true } } }]);
    again.close();
  });
});
