/**
 * The long chaos run (npm run chaos): two `frontdesk serve` processes on one PostgreSQL database,
 * clients making turns, every frontdesk backend terminated at an interval, then recovery. The
 * same driver as test/e2e/chaos.int.test.ts with longer phases; prints the figures recorded in
 * docs/benchmarks.md (responses by code, consistency, time to the first success after the
 * outage). Environment: CHAOS_CLIENTS (4), CHAOS_FAULT_MS (30000), CHAOS_INTERVAL_MS (100),
 * CHAOS_RECOVERY_MS (20000), FRONTDESK_TEST_DATABASE_URL (an admin connection).
 */
import { runChaos } from "../test/support/chaos.js";
import { createTestDatabase } from "../test/support/postgres.js";
import { spawnReplica } from "../test/support/replica.js";

const number = (name: string, fallback: number) => Number(process.env[name] ?? String(fallback));
const options = {
  clients: number("CHAOS_CLIENTS", 4),
  faultMs: number("CHAOS_FAULT_MS", 30_000),
  intervalMs: number("CHAOS_INTERVAL_MS", 100),
  recoveryMs: number("CHAOS_RECOVERY_MS", 20_000),
};

const db = await createTestDatabase("chaosbench");
const replicas = await Promise.all([spawnReplica(db.url, "a"), spawnReplica(db.url, "b")]);
try {
  const report = await runChaos({ db, replicas, ...options });
  const consistent = report.threads.every((t) => t.turnCount === t.acked && t.status === "ACTIVE");
  const exits = report.exits.filter((e) => e.code !== null || e.signal !== null);
  console.log(
    `chaos: ${replicas.length} replicas, ${options.clients} clients, faults for ${options.faultMs} ms every ${options.intervalMs} ms, then ${options.recoveryMs} ms of recovery`,
  );
  console.log(`backends terminated: ${report.terminations}`);
  console.log(
    `responses by code: ${Object.entries(report.codes)
      .map(([c, n]) => `${c} ${n}`)
      .join(", ")}`,
  );
  console.log(
    `threads consistent (turn count = turns acknowledged OK, still active): ${consistent ? "yes" : "NO"} (${report.threads.map((t) => `${t.acked}/${t.turnCount}`).join(", ")})`,
  );
  console.log(`process exits: ${exits.length === 0 ? "none" : JSON.stringify(exits)}`);
  console.log(`time to first success after the outage: ${report.firstSuccessAfterMs ?? "none"} ms; turns OK after it: ${report.okAfterRecovery}`);
  process.exitCode = consistent && exits.length === 0 ? 0 : 1;
} finally {
  await Promise.all(replicas.map((r) => r.stop()));
  await db.drop();
}
