import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { ThreadClosedSchema, ThreadStatus } from "../../gen/frontdesk/v1/thread_pb.js";
import { AnswerKind, EscalationReason, Phase, TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { createOfflineModelProvider } from "../../src/models/offline/index.js";
import type { ModelProvider } from "../../src/models/provider.js";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { loadService, metadata, serverStream, unary } from "../support/grpc-js.js";
import { startTcpProxy } from "../support/tcp-proxy.js";
import { startRealServer, type RealServer } from "./support.js";

const turn = (threadId: string, text: string, extra: Record<string, string> = {}) => create(TurnRequestSchema, { threadId, userId: "u-1", text, ...extra });

async function stream(server: RealServer, threadId: string, text: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  const events: StreamTurnResponse[] = [];
  for await (const event of server.client.streamTurn({ turn: turn(threadId, text) }, options)) events.push(event);
  return events;
}

describe("the service end to end (offline model, bundled corpus)", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer();
  });
  afterAll(async () => server.close());

  it("streams every node's progress, then one result: a clarify whose options are retrieved documents", async () => {
    const events = await stream(server, "e2e-clarify", "How much does it cost?");
    const last = events.at(-1)!;
    expect(last.event.case).toBe("result");
    expect(events.filter((e) => e.event.case === "result")).toHaveLength(1);
    const progress = events.flatMap((e) => (e.event.case === "progress" ? [e.event.value] : []));
    expect(progress.map((p) => p.seq)).toEqual(progress.map((_, i) => i + 1));
    expect(progress.filter((p) => p.phase === Phase.COMPLETED).map((p) => p.node)).toEqual([
      "load_memory",
      "triage",
      "contextualize",
      "retrieve",
      "grade",
      "clarify",
      "record_turn",
    ]);
    if (last.event.case !== "result") throw new Error();
    const result = last.event.value;
    expect(result.outcome.case).toBe("clarify");
    if (result.outcome.case !== "clarify") throw new Error();
    const options = result.outcome.value.options;
    expect(options.length).toBeGreaterThanOrEqual(2);
    expect(new Set(options.map((o) => o.product)).size).toBe(options.length);

    // Picking option 2 answers from that document, cited.
    const picked = (await server.client.turn(turn("e2e-clarify", "2"))).result!;
    expect(picked.outcome.case).toBe("answer");
    if (picked.outcome.case !== "answer") throw new Error();
    expect(picked.outcome.value.kind).toBe(AnswerKind.GROUNDED);
    expect(picked.outcome.value.citations.map((c) => c.documentId)).toContain(options[1]!.documentId);
  });

  it("answers over plain gRPC (@grpc/grpc-js) in Persian, unary and streaming", async () => {
    const service = loadService();
    const client = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    try {
      const response = (await unary(client, service.Turn, { threadId: "e2e-grpc", userId: "u-1", text: "حداقل فرانشیز بیمه بدنه چقدر است؟" }, metadata(null))) as {
        result: { language: string; outcome: string; answer: { kind: string; text: string; citations: { documentId: string }[] } };
      };
      expect(response.result.language).toBe("fa");
      expect(response.result.outcome).toBe("answer");
      expect(response.result.answer.kind).toBe("ANSWER_KIND_GROUNDED");
      expect(response.result.answer.citations[0]?.documentId).toBe("motor-body-fa");
      expect(response.result.answer.text).toMatch(/۵٬۰۰۰٬۰۰۰|5,000,000/u);

      const events = (await serverStream(client, service.StreamTurn, { turn: { threadId: "e2e-grpc-2", userId: "u-1", text: "Hello!" } }, metadata(null))) as Array<{
        event: string;
        result?: { answer: { kind: string } };
      }>;
      expect(events.at(-1)?.event).toBe("result");
      expect(events.at(-1)?.result?.answer.kind).toBe("ANSWER_KIND_CHITCHAT");
    } finally {
      client.close();
    }
  });

  it("escalates, closes the thread, and refuses the next turn with the stored handoff", async () => {
    const first = (await server.client.turn(turn("e2e-closed", "I'd like to speak to a human please"))).result!;
    expect(first.outcome.case).toBe("escalate");
    if (first.outcome.case !== "escalate") throw new Error();
    expect(first.outcome.value.reason).toBe(EscalationReason.USER_REQUESTED);

    const error = await server.client.turn(turn("e2e-closed", "hello?")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.FailedPrecondition);
    const [detail] = (error as ConnectError).findDetails(ThreadClosedSchema);
    expect(detail?.handoff?.reason).toBe(EscalationReason.USER_REQUESTED);
    expect(detail?.handoff?.message).toBe(first.outcome.value.message);

    const thread = (await server.client.getThread({ threadId: "e2e-closed" })).thread!;
    expect(thread.status).toBe(ThreadStatus.ESCALATED);
    expect(thread.turnCount).toBe(1);
    expect(thread.recentTurns[0]?.userText).toBe("I'd like to speak to a human please");
  });

  it("refuses bad input with INVALID_ARGUMENT naming the field, and writes nothing", async () => {
    for (const [request, field] of [
      [turn("e2e-bad", "   "), "text"],
      [turn("e2e-bad", "x".repeat(4_001)), "text"],
      [turn("e2e-bad", "hi", { domain: "pets" }), "domain"],
      [turn("", "hi"), "thread_id"],
      [turn("e2e-bad", "hi", { userId: "" }), "user_id"],
    ] as const) {
      const error = await server.client.turn(request).catch((e: unknown) => e);
      expect((error as ConnectError).code).toBe(Code.InvalidArgument);
      expect((error as ConnectError).rawMessage.startsWith(`${field}:`)).toBe(true);
    }
    // The tenant's own domains, from its documents, not a list in the configuration.
    const domain = (await server.client.turn(turn("e2e-bad", "hi", { domain: "pets" })).catch((e: unknown) => e)) as ConnectError;
    expect(domain.rawMessage).toBe("domain: must be one of: device, general, health, home, life, motor, travel");
    const missing = await server.client.getThread({ threadId: "e2e-bad" }).catch((e: unknown) => e);
    expect((missing as ConnectError).code).toBe(Code.NotFound);
  });
});

/** The offline model, except that `generate` waits until the turn is aborted. */
function stallingModels(): ModelProvider & { generateStarted: Promise<void> } {
  const offline = createOfflineModelProvider();
  let started!: () => void;
  const generateStarted = new Promise<void>((resolve) => (started = resolve));
  return {
    id: "stalling",
    generateStarted,
    async invoke(role, input, options) {
      if (role === "generate") {
        started();
        await new Promise((_, reject) => options?.signal?.addEventListener("abort", () => reject(options.signal?.reason), { once: true }));
      }
      return offline.invoke(role, input, options);
    },
  };
}

describe("live progress", () => {
  it("reaches the client while the turn is still running", async () => {
    // Ordering, not timing: when the server starts the answer step, the client must already hold
    // progress events of the earlier nodes. A server that only flushed at the end would fail this.
    const log: string[] = [];
    const offline = createOfflineModelProvider();
    const models: ModelProvider = {
      id: "logging",
      async invoke(role, input, options) {
        if (role === "generate") log.push("server: generate");
        return offline.invoke(role, input, options);
      },
    };
    const server = await startRealServer({}, { models });
    try {
      for await (const event of server.client.streamTurn({ turn: turn("e2e-live", "What is the minimum deductible for motor body insurance?") })) {
        if (event.event.case === "progress") log.push(`client: ${event.event.value.node}`);
      }
      const generateAt = log.indexOf("server: generate");
      expect(generateAt).toBeGreaterThan(0);
      expect(log.slice(0, generateAt)).toContain("client: load_memory");
    } finally {
      await server.close();
    }
  });
});

describe("cancellation and deadlines", () => {
  it("a client that cancels mid-turn stops the run and leaves the thread as it was", async () => {
    const models = stallingModels();
    const server = await startRealServer({}, { models });
    try {
      await server.client.turn(turn("e2e-cancel", "Hello"));
      const before = (await server.client.getThread({ threadId: "e2e-cancel" })).thread!;
      const controller = new AbortController();
      const running = stream(server, "e2e-cancel", "What is the minimum deductible for motor body insurance?", { signal: controller.signal });
      await models.generateStarted;
      controller.abort();
      const error = await running.catch((e: unknown) => e);
      expect((error as ConnectError).code).toBe(Code.Canceled);
      // The server-side run ends and releases the thread: the next call sees the old state.
      let after = (await server.client.getThread({ threadId: "e2e-cancel" })).thread!;
      for (let i = 0; i < 50 && after.turnCount !== before.turnCount; i++) after = (await server.client.getThread({ threadId: "e2e-cancel" })).thread!;
      expect(after).toEqual(before);
    } finally {
      await server.close();
    }
  });

  it("a deadline ends the turn with DEADLINE_EXCEEDED and leaves the thread as it was", async () => {
    const server = await startRealServer({}, { models: stallingModels() });
    try {
      const error = await server.client.turn(turn("e2e-deadline", "What is the minimum deductible for motor body insurance?"), { timeoutMs: 300 }).catch((e: unknown) => e);
      expect((error as ConnectError).code).toBe(Code.DeadlineExceeded);
      const missing = await server.client.getThread({ threadId: "e2e-deadline" }).catch((e: unknown) => e);
      expect((missing as ConnectError).code).toBe(Code.NotFound);
    } finally {
      await server.close();
    }
  });
});

describe("a client deadline that fires after the turn committed", () => {
  it("the caller sees DEADLINE_EXCEEDED, the thread has the turn, and a retry with the same request_id returns it without running it again", async () => {
    const server = await startRealServer();
    // The server's answer crosses a slow link: it commits in time, the answer arrives too late.
    const proxy = await startTcpProxy(server.port);
    const client = createClient(AgentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${proxy.port}` }));
    try {
      // One turn first, so the connection is up and the graph warm before the link turns slow.
      await client.turn(turn("e2e-late-warm", "What is the minimum deductible for motor body insurance?"));
      proxy.mode = { serverDelayMs: 3_000 };
      const request = turn("e2e-late", "What is the minimum deductible for motor body insurance?", { requestId: "r-late" });
      const error = await client.turn(request, { timeoutMs: 1_500 }).catch((e: unknown) => ConnectError.from(e));
      expect((error as ConnectError).code).toBe(Code.DeadlineExceeded);

      proxy.mode = "pass";
      const thread = (await server.client.getThread({ threadId: "e2e-late" })).thread!;
      expect(thread.turnCount).toBe(1);
      expect(thread.recentTurns[0]?.requestId).toBe("r-late");
      const retried = (await server.client.turn(request)).result!;
      expect(retried.turnId).toBe(thread.recentTurns[0]?.turnId);
      expect(retried.outcome.case).toBe("answer");
      // Replayed, not run again: still one turn.
      expect((await server.client.getThread({ threadId: "e2e-late" })).thread?.turnCount).toBe(1);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe("the embedded default across restarts", () => {
  it("serves a thread started before the process restarted", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-e2e-"));
    const env = { FRONTDESK_CHECKPOINTER: "file", FRONTDESK_DATA_DIR: dataDir };
    const first = await startRealServer(env);
    await first.client.turn(turn("e2e-restart", "Does supplementary health insurance cover my children?"));
    await first.close();

    const second = await startRealServer(env);
    try {
      const thread = (await second.client.getThread({ threadId: "e2e-restart" })).thread!;
      expect(thread.turnCount).toBe(1);
      expect(thread.recentTurns[0]?.userText).toBe("Does supplementary health insurance cover my children?");
      const next = (await second.client.turn(turn("e2e-restart", "Thanks!"))).result!;
      expect(next.outcome.case).toBe("answer");
      expect((await second.client.getThread({ threadId: "e2e-restart" })).thread!.turnCount).toBe(2);
    } finally {
      await second.close();
    }
  });
});

describe("documents through DocumentService, end to end", () => {
  it("resolves an answer's citations to their text", async () => {
    const server = await startRealServer();
    try {
      const result = (await server.client.turn(turn("e2e-cite", "What is the deductible of motor body insurance for a second claim?"))).result!;
      expect(result.outcome.case).toBe("answer");
      if (result.outcome.case !== "answer") throw new Error();
      const citation = result.outcome.value.citations[0]!;
      const { chunk } = await server.documents.getChunk({ chunkId: citation.chunkId });
      expect(chunk).toMatchObject({ chunkId: citation.chunkId, documentId: citation.documentId, title: citation.title });
      expect(chunk!.text.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("serves a document ingested through the API after a restart, and answers from it", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "frontdesk-e2e-docs-"));
    const env = { FRONTDESK_CHECKPOINTER: "file", FRONTDESK_DATA_DIR: dataDir };
    const bicycle = {
      id: "bicycle-en",
      title: "Bicycle Insurance",
      product: "bicycle",
      domain: "general",
      lang: "en",
      body: "Bicycle insurance from Arman Insurance covers theft of a locked bicycle.\n\n## Bicycle theft deductible\n\nThe bicycle theft deductible is 15% of the bicycle's value.",
    };
    const first = await startRealServer(env);
    try {
      const upserted = await first.documents.upsertDocuments({ documents: [bicycle] });
      expect(upserted.results.map((r) => r.chunkCount)).toEqual([2]);
    } finally {
      await first.close();
    }

    const second = await startRealServer(env);
    try {
      const listed = await second.documents.listDocuments({ pageSize: 1000 });
      expect(listed.documents.map((d) => d.id)).toContain("bicycle-en");
      const result = (await second.client.turn(turn("e2e-bicycle", "What is the deductible for bicycle theft?"))).result!;
      expect(result.outcome.case).toBe("answer");
      if (result.outcome.case !== "answer") throw new Error();
      expect(result.outcome.value.citations.map((c) => c.documentId)).toContain("bicycle-en");
      expect(result.outcome.value.text).toContain("15%");
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
