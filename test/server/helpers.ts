import { sleep } from "../../src/dependency/retry.js";
import { pino, type Logger } from "pino";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import type { EscalationOutcome, NodeProgressEvent, ThreadEvent, ThreadView, TurnInput, TurnResult } from "../../src/domain/turn.js";
import type { DeleteThreadAttempt, RunTurnOptions, ThreadWatch, TurnAttempt, TurnService } from "../../src/service/types.js";
import { watchItems } from "../../src/service/watch.js";
import { createInProcessTurnEvents, type FanoutOptions } from "../../src/persistence/fanout.js";
import type { TurnEvents } from "../../src/persistence/ports.js";
import { loadConfig, type Config } from "../../src/config/config.js";
import type { DocumentIndex, DocumentRules } from "../../src/retrieval/index.js";
import type { ReadinessProbe } from "../../src/domain/readiness.js";
import { buildServer, type FrontdeskServer } from "../../src/server/server.js";

export const ACME_KEY = "acme-key-0123456789abcdef";
export const GLOBEX_KEY = "globex-key-0123456789abcdef";

export const silentLogger = pino({ level: "silent" });

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    FRONTDESK_HOST: "127.0.0.1",
    FRONTDESK_PORT: "0",
    FRONTDESK_API_KEYS: `acme:${ACME_KEY},globex:${GLOBEX_KEY}`,
    FRONTDESK_LOG_LEVEL: "silent",
    ...env,
  });
}

export const answerResult: TurnResult = {
  threadId: "t-1",
  turnId: "turn-1",
  requestId: "r-1",
  language: "en",
  outcome: {
    kind: "answer",
    answerKind: "grounded",
    text: "Third-party cover is mandatory. The deductible is 10%.",
    claims: [
      { text: "Third-party cover is mandatory.", chunkIds: ["motor-tp-en#0"] },
      { text: "The deductible is 10%.", chunkIds: ["motor-body-en#2"] },
    ],
    citations: [
      { chunkId: "motor-tp-en#0", documentId: "motor-tp-en", title: "Motor third-party" },
      { chunkId: "motor-body-en#2", documentId: "motor-body-en", title: "Motor body" },
    ],
    confidence: 0.82,
  },
  stats: { modelCalls: 2, retrievalRounds: 1, regenerations: 0, durationMs: 41, roles: { triage: { calls: 1, inputTokens: 10, outputTokens: 2 } } },
  completedAt: "2025-01-02T03:04:05.000Z",
};

export const escalation: EscalationOutcome = {
  kind: "escalate",
  reason: "restricted_intent",
  message: "I'll connect you with a colleague.",
  detail: "restricted: claim dispute",
  handoff: {
    rewrittenQuery: "dispute claim payout",
    topChunks: [{ chunkId: "claims-en#1", documentId: "claims-en", title: "Claims", score: 0.7 }],
    conversationSummary: "User disputes a payout.",
    userProfile: { vehicle: "2019 Peugeot 206", productsHeld: ["motor-body"] },
    lastUserMessage: "I dispute this payout",
    language: "en",
  },
};

export const clarifyResult: TurnResult = {
  ...answerResult,
  turnId: "turn-2",
  outcome: {
    kind: "clarify",
    question: "Which product do you mean?",
    attempt: 1,
    options: [
      { label: "Motor body", documentId: "motor-body-en", domain: "motor", title: "Motor body", product: "motor-body" },
      { label: "Travel", documentId: "travel-en", domain: "travel", title: "Travel", product: "travel" },
    ],
  },
};

export const escalateResult: TurnResult = { ...answerResult, turnId: "turn-3", outcome: escalation };

export function progress(seq: number, node: string, phase: "started" | "completed", summary = ""): NodeProgressEvent {
  return { node, phase, seq, elapsedMs: seq * 3, durationMs: phase === "completed" ? 2 : 0, summary };
}

export type Script = (input: TurnInput, options: RunTurnOptions) => Promise<TurnAttempt>;

export interface FakeCall {
  input: TurnInput;
  signal: AbortSignal | undefined;
}

/** A TurnService whose behaviour each test scripts; it records every call and its signal. */
export class FakeTurnService implements TurnService {
  readonly calls: FakeCall[] = [];
  readonly threadCalls: { tenantId: string; threadId: string }[] = [];
  script: Script = async () => ({ kind: "completed", result: answerResult });
  threads = new Map<string, ThreadView>();
  /** Keys "tenant/user" of users with a memory. */
  memories = new Set<string>();
  readonly deleteCalls: { tenantId: string; threadId?: string; userId?: string }[] = [];
  /** Threads (tenant/thread) that answer deleteThread with busy. */
  busyThreads = new Set<string>();
  readonly events: TurnEvents;

  constructor(watch: FanoutOptions = { bufferEvents: 256, maxWatchers: 100 }) {
    this.events = createInProcessTurnEvents(watch);
  }

  /** What a real service publishes while a turn runs on (tenant, thread). */
  publish(tenantId: string, threadId: string, event: ThreadEvent): void {
    this.events.publish({ tenantId, threadId, payload: event });
  }

  async runTurn(input: TurnInput, options: RunTurnOptions = {}): Promise<TurnAttempt> {
    this.calls.push({ input, signal: options.signal });
    return this.script(input, options);
  }

  async getThread(tenantId: string, threadId: string): Promise<ThreadView | null> {
    this.threadCalls.push({ tenantId, threadId });
    return this.threads.get(`${tenantId}/${threadId}`) ?? null;
  }

  async deleteThread(tenantId: string, threadId: string): Promise<DeleteThreadAttempt> {
    this.deleteCalls.push({ tenantId, threadId });
    if (this.busyThreads.has(`${tenantId}/${threadId}`)) return { kind: "busy" };
    return { kind: "deleted", existed: this.threads.delete(`${tenantId}/${threadId}`) };
  }

  async deleteUserMemory(tenantId: string, userId: string): Promise<{ existed: boolean }> {
    this.deleteCalls.push({ tenantId, userId });
    return { existed: this.memories.delete(`${tenantId}/${userId}`) };
  }

  async watch(filter: { tenantId: string; threadId?: string }): Promise<ThreadWatch> {
    return watchItems(await this.events.subscribe(filter), silentLogger);
  }
}

export { sleep };

/** Waits until the signal aborts (a fake turn that never finishes on its own). */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

export async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("waitFor: condition not met in time");
    await sleep(10);
  }
}

export interface Running {
  fake: FakeTurnService;
  frontdesk: FrontdeskServer;
  port: number;
  baseUrl: string;
  config: Config;
  transport(apiKey?: string | null): Transport;
  client(apiKey?: string | null): Client<typeof AgentService>;
  close(): Promise<void>;
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A real server on 127.0.0.1, port 0, with a fake TurnService. */
export async function startServer(
  options: {
    env?: Record<string, string>;
    fake?: FakeTurnService;
    logger?: Logger;
    documents?: { index: DocumentIndex; rules: DocumentRules };
    probes?: readonly ReadinessProbe[];
  } = {},
): Promise<Running> {
  const fake = options.fake ?? new FakeTurnService();
  const config = testConfig(options.env);
  const frontdesk = buildServer({
    turnService: fake,
    config,
    logger: options.logger ?? silentLogger,
    ...(options.documents === undefined ? {} : { documents: options.documents }),
    ...(options.probes === undefined ? {} : { probes: options.probes }),
  });
  const { port } = await frontdesk.listen();
  const baseUrl = `http://127.0.0.1:${port}`;
  const transport = (apiKey: string | null = ACME_KEY) =>
    createConnectTransport({
      baseUrl,
      httpVersion: "2",
      interceptors:
        apiKey === null
          ? []
          : [
              (next) => (req) => {
                req.header.set("authorization", `Bearer ${apiKey}`);
                return next(req);
              },
            ],
    });
  return {
    fake,
    frontdesk,
    port,
    baseUrl,
    config,
    transport,
    client: (apiKey) => createClient(AgentService, transport(apiKey)),
    close: () => frontdesk.close(),
  };
}
