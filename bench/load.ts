/**
 * `npm run load -- --streams 200 --seconds 60 [--target URL | --checkpointer memory|file|postgres]`
 *
 * Load through the generated client, as the insurer's backend calls frontdesk: `--streams` turns in
 * flight at all times, each stream one chat session (its own thread and user) sending its next
 * message as soon as the previous answer arrived, spread over `--connections` HTTP/2 connections
 * (default 4: a few backend replicas, each multiplexing its sessions' calls on one connection).
 * Messages are greetings and questions of the bundled corpus that the offline model answers, in a
 * fixed order per session that never repeats a message within three turns (a repeat reads as
 * frustration and hands over). A session that is handed over anyway moves to a new thread. A call
 * that fails with a code the README says to retry is sent again after 100 ms with the same
 * request_id, as a caller should; other errors move on to the next message.
 *
 * One run, four phases, so that ratios compare like with like:
 *   1. baseline: the same streams on the same connections call a bare RPC (grpc.health.v1.Health/Check);
 *   2. warm-up: turns, not measured (JIT, caches, pools, the stored threads reach their size);
 *   3. measured: turns for --seconds, with one Health/Check every 200 ms on a connection of its own
 *      (what a liveness probe sees under load), and the server's RSS sampled every second;
 *   4. drain: the turns in flight finish (not counted).
 * Reported: turns/s, p50/p99 latency and time to the first StreamTurn message, errors by code,
 * outcomes, RSS over time and its spread after warm-up.
 *
 * In-process (the default) the server is the embedded default — offline model, bundled corpus,
 * embedded retrieval — with the chosen checkpointer; the client runs in the same process and
 * event loop, so RSS is the server's plus the client's share (flat). With --target the server is
 * elsewhere and its RSS is not visible: the client's own is printed instead.
 *
 * FRONTDESK_* variables of the environment configure the in-process server like `frontdesk serve`
 * (FRONTDESK_DB_LOCK_CONNECTIONS=80, say); the command's own host, port, checkpointer, data
 * directory and log level win.
 *
 * Options: --streams N (200), --seconds S (60), --warmup S (30; V8 may still grow its heap in steps
 * after it, see --gc-every and docs/benchmarks.md) and --baseline-seconds S (10), each at most half
 * of --seconds; --connections N (4), --thread-turns N (0: one thread per stream for the whole run;
 * N: a new thread every N turns, so stored threads grow), --target URL, --api-key KEY
 * (else FRONTDESK_API_KEY), --checkpointer memory|file|postgres (memory; postgres creates a
 * throwaway database on FRONTDESK_TEST_DATABASE_URL, default the local server, and drops it),
 * --gc-every S (0: off; in-process only: a full GC every S seconds and the heap left after it, which
 * tells a leak — live objects that keep growing — from V8 and the allocator keeping freed memory;
 * the npm script starts Node with --expose-gc for it; the forced GCs pause the server, so figures
 * are recorded without it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { pino } from "pino";
import { AgentService } from "../gen/frontdesk/v1/agent_service_pb.js";
import { EscalationReason } from "../gen/frontdesk/v1/turn_pb.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import { ms, summarize, table, type Summary } from "./stats.js";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "200" },
    seconds: { type: "string", default: "60" },
    warmup: { type: "string" },
    "baseline-seconds": { type: "string" },
    connections: { type: "string", default: "4" },
    "thread-turns": { type: "string", default: "0" },
    target: { type: "string" },
    "api-key": { type: "string" },
    checkpointer: { type: "string", default: "memory" },
    "gc-every": { type: "string", default: "0" },
  },
});

function positive(name: string, value: string | undefined, allowZero = false): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) throw new Error(`--${name}: must be a ${allowZero ? "non-negative" : "positive"} number, got ${value}`);
  return n;
}

const STREAMS = Math.floor(positive("streams", values.streams));
const SECONDS = positive("seconds", values.seconds);
const WARMUP = values.warmup === undefined ? Math.min(30, SECONDS / 2) : positive("warmup", values.warmup, true);
const BASELINE = values["baseline-seconds"] === undefined ? Math.min(10, SECONDS / 2) : positive("baseline-seconds", values["baseline-seconds"]);
const CONNECTIONS = Math.max(1, Math.min(STREAMS, Math.floor(positive("connections", values.connections))));
const THREAD_TURNS = Math.floor(positive("thread-turns", values["thread-turns"], true));
const CHECKPOINTER = values.checkpointer;
if (CHECKPOINTER !== "memory" && CHECKPOINTER !== "file" && CHECKPOINTER !== "postgres") throw new Error(`--checkpointer: memory, file or postgres, got ${CHECKPOINTER}`);
const GC_EVERY = positive("gc-every", values["gc-every"], true);
const API_KEY = values["api-key"] ?? process.env["FRONTDESK_API_KEY"] ?? "";
/** Codes the README says to retry with the same request_id (ABORTED: after the running turn). */
const RETRIED = new Set(["UNAVAILABLE", "DEADLINE_EXCEEDED", "CANCELED", "ABORTED"]);
/** RSS may vary this much (max over min) after warm-up. */
const FLAT = 0.1;

/** Greetings and questions the offline model answers from the bundled corpus (both languages). */
const MESSAGES = [
  "Hello!",
  "What is the minimum deductible for motor body insurance?",
  "Does supplementary health insurance cover my children?",
  "Is glass breakage covered by motor body insurance?",
  "حداقل فرانشیز بیمه بدنه چقدر است؟",
  "What does travel insurance cover?",
  "How do I file a claim?",
  "Is earthquake damage covered by home insurance?",
  "What are the call centre opening hours?",
  "دوره انتظار زایمان در بیمه تکمیلی چقدر است؟",
  "Thanks!",
  "Can I pay my premium in installments?",
];

const codeName = (code: Code) => Code[code].replace(/([a-z])([A-Z])/gu, "$1_$2").toUpperCase();
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));
const mb = (bytes: number) => bytes / (1024 * 1024);

interface Target {
  url: string;
  /** Bytes, or null when the server is not in this process. */
  rss(): { rss: number; heapUsed: number } | null;
  describe: string;
  close(): Promise<void>;
}

async function inProcessServer(checkpointer: "memory" | "file" | "postgres"): Promise<Target> {
  // Loaded only here: with --target the load client needs nothing of src/.
  const [{ createApp }, { loadConfig }, { buildServer }] = await Promise.all([import("../src/app/index.js"), import("../src/config/config.js"), import("../src/server/server.js")]);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "fd-load-"));
  // FRONTDESK_* settings of this shell reach the in-process server (e.g. FRONTDESK_DB_LOCK_CONNECTIONS);
  // the load command's own choices below win.
  const inherited = Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith("FRONTDESK_") && !e[0].startsWith("FRONTDESK_TEST_") && e[1] !== undefined);
  const env: Record<string, string> = {
    ...Object.fromEntries(inherited),
    FRONTDESK_HOST: "127.0.0.1",
    FRONTDESK_PORT: "0",
    FRONTDESK_CHECKPOINTER: checkpointer,
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_LOG_LEVEL: "silent",
  };
  let database: { url: string; drop(): Promise<void> } | null = null;
  if (checkpointer === "postgres") {
    const { createTestDatabase } = await import("../test/support/postgres.js");
    database = await createTestDatabase("load");
    env["DATABASE_URL"] = database.url;
  }
  const config = loadConfig(env);
  const logger = pino({ level: "silent" });
  const app = await createApp(config, logger);
  const server = buildServer({ turnService: app.turnService, config, logger, documents: { index: app.documents, rules: app.documentRules } });
  const { port } = await server.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    rss: () => {
      const { rss, heapUsed } = process.memoryUsage();
      return { rss, heapUsed };
    },
    describe: `in-process embedded default (offline model, bundled corpus), ${checkpointer} checkpointer${inherited.length > 0 ? `; ${inherited.map(([k, v]) => `${k}=${v}`).join(", ")}` : ""}`,
    async close() {
      await server.close();
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Connection {
  agent: Client<typeof AgentService>;
  health: Client<typeof Health>;
  close(): void;
}

function connect(url: string): Connection {
  const interceptors: Interceptor[] =
    API_KEY === ""
      ? []
      : [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${API_KEY}`);
            return next(req);
          },
        ];
  const sessionManager = new Http2SessionManager(url);
  const transport = createGrpcTransport({ baseUrl: url, sessionManager, interceptors });
  return { agent: createClient(AgentService, transport), health: createClient(Health, transport), close: () => sessionManager.abort() };
}

type Phase = "baseline" | "warmup" | "measured" | "drain";

class Recorder {
  readonly latency: number[] = [];
  readonly firstEvent: number[] = [];
  readonly codes = new Map<string, number>();
  readonly outcomes = new Map<string, number>();
  count(map: Map<string, number>, key: string) {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

async function main() {
  const target: Target = values.target
    ? { url: values.target, rss: () => null, describe: `--target ${values.target} (server RSS not visible from here)`, close: async () => undefined }
    : await inProcessServer(CHECKPOINTER as "memory" | "file" | "postgres");
  const connections = Array.from({ length: CONNECTIONS }, () => connect(target.url));
  const probeConnection = connect(target.url);
  const loadBefore = os.loadavg();
  const run = `load-${process.pid}-${Date.now().toString(36)}`;

  const state: { phase: Phase } = { phase: "baseline" };
  let phaseStart = performance.now();
  const baseline = new Recorder();
  const turns = new Recorder();
  const probes: number[] = [];

  // 1. The baseline: a bare RPC on the same connections, at the same concurrency.
  const baselineEnd = performance.now() + BASELINE * 1000;
  await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      const { health } = connections[i % CONNECTIONS]!;
      while (performance.now() < baselineEnd) {
        const start = performance.now();
        try {
          await health.check({});
          baseline.latency.push(performance.now() - start);
          baseline.count(baseline.codes, "OK");
        } catch (err) {
          baseline.count(baseline.codes, codeName(ConnectError.from(err).code));
        }
      }
    }),
  );
  const baselineSeconds = BASELINE;

  // 2-4. Turns: warm-up, measured, drain. RSS every second from the start of the warm-up.
  state.phase = "warmup";
  phaseStart = performance.now();
  const measuredStart = phaseStart + WARMUP * 1000;
  const measuredEnd = measuredStart + SECONDS * 1000;
  const rssSamples: Array<{ t: number; phase: Phase; rss: number; heapUsed: number; turns: number }> = [];
  let completedSinceSample = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (GC_EVERY > 0 && (gc === undefined || target.rss() === null)) throw new Error("--gc-every: needs the in-process server and node --expose-gc (npm run load passes it)");
  const heapAfterGc: Array<{ t: number; phase: Phase; heapUsed: number; arrayBuffers: number }> = [];
  const collector =
    GC_EVERY > 0
      ? setInterval(() => {
          gc?.();
          const { heapUsed, arrayBuffers } = process.memoryUsage();
          heapAfterGc.push({ t: (performance.now() - phaseStart) / 1000, phase: state.phase, heapUsed, arrayBuffers });
        }, GC_EVERY * 1000)
      : undefined;
  const sampler = setInterval(() => {
    const now = performance.now();
    const sample = target.rss() ?? { rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed };
    rssSamples.push({ t: (now - phaseStart) / 1000, phase: state.phase, ...sample, turns: completedSinceSample });
    completedSinceSample = 0;
  }, 1000);
  const clock = setInterval(() => {
    const now = performance.now();
    if (state.phase === "warmup" && now >= measuredStart) state.phase = "measured";
    else if (state.phase === "measured" && now >= measuredEnd) state.phase = "drain";
  }, 5);
  const prober = (async () => {
    while (state.phase !== "drain") {
      if (state.phase === "measured") {
        const start = performance.now();
        try {
          await probeConnection.health.check({}, { timeoutMs: 5_000 });
          probes.push(performance.now() - start);
        } catch {
          probes.push(Number.POSITIVE_INFINITY);
        }
      }
      await sleep(200);
    }
  })();

  const escalatedThreads = { count: 0 };
  /** From a message's first attempt to its result, retries included (measured phase, answered ones). */
  const answered: number[] = [];
  await Promise.all(
    Array.from({ length: STREAMS }, async (_, stream) => {
      const { agent } = connections[stream % CONNECTIONS]!;
      let thread = 0;
      let turnOnThread = 0;
      /** When the current message was first sent; kept across its retries. */
      let messageStart = -1;
      for (let i = stream; state.phase === "warmup" || state.phase === "measured"; ) {
        if (THREAD_TURNS > 0 && turnOnThread >= THREAD_TURNS) {
          thread++;
          turnOnThread = 0;
        }
        const threadId = `${run}-s${stream}-t${thread}`;
        const text = MESSAGES[i % MESSAGES.length]!;
        const startedIn = state.phase;
        const start = performance.now();
        if (messageStart < 0) messageStart = start;
        let first = -1;
        let outcome = "none";
        let code = "OK";
        try {
          // A retry sends the same request_id, as the README tells callers: a turn that did commit is
          // replayed, not run again.
          for await (const message of agent.streamTurn({ turn: { threadId, userId: `${run}-u${stream}`, text, requestId: `m${i}` } })) {
            if (first < 0) first = performance.now() - start;
            if (message.event.case === "result") {
              const result = message.event.value.outcome;
              outcome = result.case === "escalate" ? `escalate (${EscalationReason[result.value.reason]})` : (result.case ?? "none");
            }
          }
        } catch (err) {
          code = codeName(ConnectError.from(err).code);
        }
        const end = performance.now();
        const measured = startedIn === "measured" && end <= measuredEnd;
        if (measured) {
          turns.count(turns.codes, code);
          if (code === "OK") {
            turns.latency.push(end - start);
            turns.firstEvent.push(first);
            turns.count(turns.outcomes, outcome);
            answered.push(end - messageStart);
          }
        }
        completedSinceSample++;
        if (RETRIED.has(code)) {
          await sleep(100);
          continue;
        }
        // The next message (also after an error that a retry would not cure).
        i++;
        messageStart = -1;
        turnOnThread++;
        if (outcome.startsWith("escalate") || code === "FAILED_PRECONDITION") {
          // A handed-over thread is closed: this session starts a new one.
          escalatedThreads.count++;
          thread++;
          turnOnThread = 0;
        }
      }
    }),
  );
  clearInterval(sampler);
  clearInterval(collector);
  clearInterval(clock);
  await prober;
  const loadAfter = os.loadavg();
  for (const c of connections) c.close();
  probeConnection.close();
  await target.close();

  report({ baseline, baselineSeconds, turns, answered, probes, rssSamples, heapAfterGc, loadBefore, loadAfter, target, escalatedThreads: escalatedThreads.count });
}

function report(r: {
  baseline: Recorder;
  baselineSeconds: number;
  turns: Recorder;
  answered: number[];
  probes: number[];
  rssSamples: Array<{ t: number; phase: Phase; rss: number; heapUsed: number; turns: number }>;
  heapAfterGc: Array<{ t: number; phase: Phase; heapUsed: number; arrayBuffers: number }>;
  loadBefore: number[];
  loadAfter: number[];
  target: Target;
  escalatedThreads: number;
}) {
  const base = summarize(r.baseline.latency);
  const turn = summarize(r.turns.latency);
  const first = summarize(r.turns.firstEvent);
  const probe = summarize(r.probes);
  const baseRate = r.baseline.latency.length / r.baselineSeconds;
  const turnRate = r.turns.latency.length / SECONDS;
  const ratio = (a: number, b: number) => (Number.isFinite(a) && b > 0 ? `${(a / b).toFixed(1)}×` : "–");
  const row = (name: string, s: Summary, rate: string) => [name, String(s.n), rate, ms(s.p50), ms(s.p99), ratio(s.p50, base.p50), ratio(s.p99, base.p99)];
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(" / ");

  console.log(
    `frontdesk load: ${STREAMS} streams on ${CONNECTIONS} HTTP/2 connections (gRPC), ${SECONDS} s measured after ${WARMUP} s warm-up, ` +
      `baseline ${r.baselineSeconds} s; ${THREAD_TURNS === 0 ? "one thread per stream" : `a new thread every ${THREAD_TURNS} turns`}\n` +
      `server: ${r.target.describe}\nnode ${process.version}, ${os.cpus().length} CPUs, load average (1/5/15 min) ${load(r.loadBefore)} before, ${load(r.loadAfter)} after; ${new Date().toISOString()}\n`,
  );
  console.log(
    table(
      ["measurement", "n", "per s", "p50", "p99", "p50 ÷ baseline", "p99 ÷ baseline"],
      [
        row(`bare RPC (Health/Check), ${STREAMS} streams: baseline`, base, baseRate.toFixed(0)),
        row("turn (one StreamTurn, to its result)", turn, turnRate.toFixed(1)),
        row("message answered, retries with the same request_id included", summarize(r.answered), "–"),
        row("time to first event (StreamTurn's first message)", first, "–"),
        row("Health/Check probe during the turns (own connection, every 200 ms)", probe, "–"),
      ],
    ),
  );
  console.log(`\nturns/s ÷ baseline RPCs/s: ${(turnRate / baseRate).toFixed(4)} (${turnRate.toFixed(1)} / ${baseRate.toFixed(0)})`);
  const codes = [...r.turns.codes.entries()].sort((a, b) => b[1] - a[1]);
  const baseErrors = [...r.baseline.codes.entries()].filter(([c]) => c !== "OK");
  console.log(
    `\n${table(
      ["turns by code", "count"],
      codes.map(([c, n]) => [c, String(n)]),
    )}`,
  );
  if (baseErrors.length > 0) console.log(`baseline errors: ${baseErrors.map(([c, n]) => `${c} ${n}`).join(", ")}`);
  const outcomes = [...r.turns.outcomes.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`outcomes: ${outcomes.map(([o, n]) => `${o} ${n}`).join(", ")}; threads handed over (session moved to a new thread): ${r.escalatedThreads}`);

  const memoryOf = r.target.rss() === null ? "load client's RSS (the server's is not visible with --target)" : "server RSS (in-process: the server and the load client)";
  const shown = r.rssSamples.filter((_, i) => i % 5 === 4 || i === r.rssSamples.length - 1);
  console.log(
    `\n${table(
      ["t (s)", "phase", memoryOf, "heap used", "turns in the second before"],
      shown.map((s) => [s.t.toFixed(0), s.phase, `${mb(s.rss).toFixed(0)} MB`, `${mb(s.heapUsed).toFixed(0)} MB`, String(s.turns)]),
    )}`,
  );
  const after = r.rssSamples.filter((s) => s.phase === "measured").map((s) => s.rss);
  if (after.length > 0) {
    const min = Math.min(...after);
    const max = Math.max(...after);
    const spread = (max - min) / min;
    console.log(
      `\nRSS after warm-up (${after.length} samples, 1/s): min ${mb(min).toFixed(0)} MB, max ${mb(max).toFixed(0)} MB, first ${mb(after[0]!).toFixed(0)} MB, ` +
        `last ${mb(after.at(-1)!).toFixed(0)} MB: max ${(spread * 100).toFixed(1)} % over min — ${spread <= FLAT ? "flat" : "NOT flat"} (limit ${FLAT * 100} %)`,
    );
  }
  if (r.heapAfterGc.length > 0) {
    console.log(
      `\nheap after a full GC every ${GC_EVERY} s (t s: heap used / array buffers, MB): ` +
        r.heapAfterGc.map((h) => `${h.t.toFixed(0)} ${h.phase}: ${mb(h.heapUsed).toFixed(1)} / ${mb(h.arrayBuffers).toFixed(1)}`).join("; "),
    );
  }
}

await main();
