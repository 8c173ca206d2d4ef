import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChaos } from "../support/chaos.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { spawnReplica, type Replica } from "../support/replica.js";

// The outage test that matters: the database's connections cut again and again while clients
// are making turns on two replicas. Without traffic the same cuts prove little.
let db: TestDatabase;
let replicas: Replica[] = [];

beforeAll(async () => {
  db = await createTestDatabase("chaos");
  replicas = await Promise.all([spawnReplica(db.url, "a"), spawnReplica(db.url, "b")]);
}, 90_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await db?.drop();
});

describe("a database outage under load", () => {
  it("is an outage, not a crash: no replica exits, every response is OK, UNAVAILABLE, ABORTED or CANCELED, threads stay consistent, turns succeed after", async () => {
    const report = await runChaos({ db, replicas, clients: 4, faultMs: 5_000, intervalMs: 100, recoveryMs: 10_000 });
    const context = JSON.stringify(report, null, 1) + replicas.map((r) => r.stderr().slice(-2_000)).join("\n");

    expect(report.exits, context).toEqual([
      { replica: 0, code: null, signal: null },
      { replica: 1, code: null, signal: null },
    ]);
    expect(report.terminations, "the faults reached the servers' connections").toBeGreaterThan(20);
    expect(
      Object.keys(report.codes).filter((c) => !["OK", "UNAVAILABLE", "ABORTED", "CANCELED"].includes(c)),
      context,
    ).toEqual([]);
    expect(report.codes["UNAVAILABLE"] ?? 0, "the outage was felt").toBeGreaterThan(0);
    for (const thread of report.threads) {
      expect(thread.status, context).toBe("ACTIVE");
      expect(thread.turnCount, `${thread.threadId}: turns stored vs acknowledged`).toBe(thread.acked);
    }
    expect(report.okAfterRecovery, "turns succeed after the database returns").toBeGreaterThan(8);
    for (const r of replicas) expect(r.stderr()).not.toMatch(/Unhandled 'error' event|uncaughtException/u);
  }, 120_000);
});
