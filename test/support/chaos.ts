import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import type { TestDatabase } from "./postgres.js";
import type { Replica } from "./replica.js";

/**
 * A database outage under load: clients make turns against replicas (round robin, as a load
 * balancer would) while every frontdesk backend on the database is terminated at an interval,
 * then the faults stop and the clients go on. Each client follows the README: a turn that fails
 * with UNAVAILABLE, CANCELED or ABORTED is retried with the same request_id until it succeeds,
 * so the thread's turn count must equal the turns acknowledged OK.
 */
export interface ChaosOptions {
  db: TestDatabase;
  replicas: Replica[];
  clients: number;
  /** How long the faults last, and the interval between two terminations. */
  faultMs: number;
  intervalMs: number;
  /** How long the clients go on after the last fault. */
  recoveryMs: number;
  /** Per-call client deadline: a turn that hangs this long is a failure, not an outage. */
  callTimeoutMs?: number;
}

export interface ChaosReport {
  /** Responses by gRPC code name ("OK", "UNAVAILABLE", "DEADLINE_EXCEEDED", …), every attempt counted. */
  codes: Record<string, number>;
  /** Per thread: turns acknowledged OK, and what GetThread reports afterwards. */
  threads: Array<{ threadId: string; acked: number; turnCount: number; status: string }>;
  terminations: number;
  /** From the last fault to the first OK of a turn started after it (ms), or null. */
  firstSuccessAfterMs: number | null;
  /** Turns acknowledged OK after the faults stopped. */
  okAfterRecovery: number;
  exits: Array<{ replica: number; code: number | null; signal: string | null }>;
}

// Chitchat and grounded answers on the bundled corpus: none of them hands off, so every turn of
// a thread is expected to succeed once the database is back.
const TEXTS = [
  "hello",
  "What is the minimum deductible for motor body insurance?",
  "thank you",
  "How many days do I have to report a car accident?",
  "سلام",
  "How much does third-party insurance pay for damage to other people's property?",
];

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { db, replicas } = options;
  const codes: Record<string, number> = {};
  const count = (name: string) => (codes[name] = (codes[name] ?? 0) + 1);
  const started = Date.now();
  const faultEnd = started + options.faultMs;
  const stopAt = faultEnd + options.recoveryMs;
  let firstSuccessAfter: number | null = null;
  let okAfterRecovery = 0;
  let terminations = 0;
  let next = 0;

  const faults = (async () => {
    while (Date.now() < faultEnd) {
      terminations += await db.terminateConnections("frontdesk").catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
  })();

  const threads = await Promise.all(
    Array.from({ length: options.clients }, async (_, c) => {
      const threadId = `chaos-${c}`;
      let acked = 0;
      for (let n = 0; Date.now() < stopAt; n++) {
        const request = create(TurnRequestSchema, { threadId, userId: `u-chaos-${c}`, text: TEXTS[(n + c) % TEXTS.length]!, requestId: `chaos-${c}-${n}` });
        // Retry the same request until it is acknowledged; after the run, only until a deadline.
        for (;;) {
          const replica = replicas[next++ % replicas.length]!;
          const attemptStarted = Date.now();
          try {
            await replica.client.turn(request, { timeoutMs: options.callTimeoutMs ?? 15_000 });
            count("OK");
            acked++;
            if (attemptStarted >= faultEnd) {
              okAfterRecovery++;
              firstSuccessAfter ??= Date.now() - faultEnd;
            }
            break;
          } catch (e) {
            const code = ConnectError.from(e).code;
            count(Code[code].replace(/([a-z])([A-Z])/gu, "$1_$2").toUpperCase());
            if (![Code.Unavailable, Code.Aborted, Code.Canceled].includes(code)) break;
            if (Date.now() > stopAt + 20_000) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
      }
      return { threadId, acked };
    }),
  );
  await faults;

  const report: ChaosReport["threads"] = [];
  for (const { threadId, acked } of threads) {
    const thread = await replicas[0]!.client.getThread({ threadId }).catch((e: unknown) => ConnectError.from(e));
    if (thread instanceof ConnectError) report.push({ threadId, acked, turnCount: -1, status: `GetThread failed: ${thread.message}` });
    else report.push({ threadId, acked, turnCount: thread.thread?.turnCount ?? -1, status: ThreadStatus[thread.thread?.status ?? ThreadStatus.UNSPECIFIED] });
  }
  return {
    codes,
    threads: report,
    terminations,
    firstSuccessAfterMs: firstSuccessAfter,
    okAfterRecovery,
    exits: replicas.map((r, i) => ({ replica: i, code: r.child.exitCode, signal: r.child.signalCode })),
  };
}
