/**
 * `npm run bench` — the turn path's cost, measured in one run so the figures are comparable:
 *   1. a bare unary RPC (grpc.health.v1.Health/Check) on the same server: the baseline;
 *   2. the turn in-process (graph + offline model + embedded retrieval), memory and file savers;
 *   3. the same turn through StreamTurn over a local socket (gRPC protocol, HTTP/2 h2c);
 *   4. the time to the first progress event of a StreamTurn.
 * Reported as p50/p90/p99 and as ratios against the baseline. Options: --turns N (default 300).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pino } from "pino";
import { AgentService } from "../gen/frontdesk/v1/agent_service_pb.js";
import { TurnRequestSchema } from "../gen/frontdesk/v1/turn_pb.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import { createApp, type App } from "../src/app/index.js";
import { loadConfig } from "../src/config/config.js";
import { buildServer } from "../src/server/server.js";
import { ms, summarize, table, type Summary } from "./stats.js";

const { values } = parseArgs({ options: { turns: { type: "string", default: "300" } } });
const TURNS = Number(values.turns);
const WARMUP = 30;
const logger = pino({ level: "silent" });

/** A mix of what users send: grounded questions (both languages), a clarify, chitchat, a handoff. */
const QUESTIONS = [
  "What is the minimum deductible for motor body insurance?",
  "Does supplementary health insurance cover my children?",
  "What is the Schengen minimum coverage for travel insurance?",
  "How much does it cost?",
  "What are the call centre opening hours?",
  "حداقل فرانشیز بیمه بدنه چقدر است؟",
  "دوره انتظار زایمان در بیمه تکمیلی چقدر است؟",
  "ساعات کاری مرکز تماس چیست؟",
  "Hello!",
  "I want to talk to a human",
];

let threadCounter = 0;
const nextThread = () => `bench-${process.pid}-${++threadCounter}`;

async function timeInProcess(app: App, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const text = QUESTIONS[i % QUESTIONS.length]!;
    const start = performance.now();
    const attempt = await app.turnService.runTurn({ tenantId: "default", threadId: nextThread(), userId: "bench", text, requestId: "" });
    samples.push(performance.now() - start);
    if (attempt.kind !== "completed") throw new Error(`turn did not complete: ${attempt.kind}`);
  }
  return samples;
}

async function main() {
  const results: Array<{ name: string; summary: Summary }> = [];

  for (const checkpointer of ["memory", "file"] as const) {
    const env = { FRONTDESK_CHECKPOINTER: checkpointer, FRONTDESK_DATA_DIR: mkdtempSync(path.join(tmpdir(), "fd-bench-")), FRONTDESK_LOG_LEVEL: "silent" };
    const app = await createApp(loadConfig(env), logger);
    await timeInProcess(app, WARMUP);
    results.push({ name: `turn in-process (${checkpointer} saver)`, summary: summarize(await timeInProcess(app, TURNS)) });
    await app.close();
  }

  // The served path: the embedded default (file saver) behind a real h2c socket.
  const config = loadConfig({ FRONTDESK_PORT: "0", FRONTDESK_DATA_DIR: mkdtempSync(path.join(tmpdir(), "fd-bench-")), FRONTDESK_LOG_LEVEL: "silent" });
  const app = await createApp(config, logger);
  const server = buildServer({ turnService: app.turnService, config, logger });
  const { port } = await server.listen();
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
  const agent = createClient(AgentService, transport);
  const health = createClient(Health, transport);

  const unary: number[] = [];
  const streamed: number[] = [];
  const firstEvent: number[] = [];
  for (let i = 0; i < WARMUP + TURNS; i++) {
    let start = performance.now();
    await health.check({});
    const unaryMs = performance.now() - start;

    const turn = create(TurnRequestSchema, { threadId: nextThread(), userId: "bench", text: QUESTIONS[i % QUESTIONS.length]! });
    start = performance.now();
    let first = -1;
    for await (const event of agent.streamTurn({ turn })) {
      if (first < 0) first = performance.now() - start;
      if (event.event.case === "result") break;
    }
    const streamMs = performance.now() - start;
    if (i >= WARMUP) {
      unary.push(unaryMs);
      streamed.push(streamMs);
      firstEvent.push(first);
    }
  }
  await server.close();
  await app.close();

  const baseline = summarize(unary);
  results.unshift({ name: "bare unary RPC (Health/Check), baseline", summary: baseline });
  results.push({ name: "turn via StreamTurn over h2c (file saver)", summary: summarize(streamed) });
  results.push({ name: "time to first progress event (StreamTurn)", summary: summarize(firstEvent) });

  console.log(`frontdesk turn benchmark: ${TURNS} measured turns each (${WARMUP} warm-up), node ${process.version}, ${new Date().toISOString()}\n`);
  console.log(
    table(
      ["measurement", "p50", "p90", "p99", "p50 ÷ baseline p50"],
      results.map(({ name, summary }) => [name, ms(summary.p50), ms(summary.p90), ms(summary.p99), `${(summary.p50 / baseline.p50).toFixed(1)}×`]),
    ),
  );
}

await main();
