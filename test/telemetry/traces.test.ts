import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTelemetry } from "../../src/telemetry/index.js";
import { createTracing, type Tracing } from "../../src/telemetry/tracing.js";
import { startRealServer, type RealServer } from "../e2e/support.js";

/**
 * One turn through the real server (offline model, bundled corpus, in-memory persistence) with an
 * in-memory span exporter: the span tree of the turn, parent by parent, and the attributes the
 * semantic conventions ask for.
 */

const exporter = new InMemorySpanExporter();
let server: RealServer;
let tracing: Tracing;

/** The spans ended so far (SimpleSpanProcessor hands them to the exporter asynchronously). */
async function finished(): Promise<ReadableSpan[]> {
  await tracing.forceFlush();
  return exporter.getFinishedSpans();
}

beforeAll(async () => {
  tracing = createTracing({ serviceName: "frontdesk-test", otlpEndpoint: null, exporter });
  const telemetry = createTelemetry({ tracer: tracing.tracer, extract: tracing.extract, processMetrics: false });
  server = await startRealServer({}, { telemetry });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => exporter.reset());

const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const only = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = byName(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};
const id = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("the span tree of one turn", () => {
  it("is RPC → nodes in graph order → model calls, retrieval and the commit, on one trace", async () => {
    // Terse words the shipped gate classifier is unsure of, so the triage model is asked too.
    const { result } = await server.client.turn({ threadId: "trace-1", userId: "u-1", requestId: "req-trace-1", text: "minimum deductible motor body" });
    expect(result?.outcome.case).toBe("answer");
    const spans = await finished();

    const rpc = only(spans, "frontdesk.v1.AgentService/Turn");
    expect(rpc.kind).toBe(SpanKind.SERVER);
    expect(rpc.parentSpanContext).toBeUndefined();
    expect(rpc.attributes).toMatchObject({
      "rpc.system.name": "grpc",
      "rpc.system": "grpc",
      "rpc.service": "frontdesk.v1.AgentService",
      "rpc.method": "frontdesk.v1.AgentService/Turn",
      "rpc.status_code": "OK",
      "rpc.grpc.status_code": 0,
    });
    expect(rpc.status.code).toBe(SpanStatusCode.UNSET);
    expect(spans.every((s) => s.spanContext().traceId === rpc.spanContext().traceId)).toBe(true);

    // Every node is a child of the RPC span, in the order the graph ran them.
    const nodes = spans.filter((s) => s.name.startsWith("node ")).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(nodes.map((s) => s.name)).toEqual([
      "node load_memory",
      "node triage",
      "node contextualize",
      "node retrieve",
      "node grade",
      "node generate",
      "node verify",
      "node write_memory",
      "node record_turn",
    ]);
    for (const node of nodes) expect(parentOf(node)).toBe(id(rpc));
    expect(only(spans, "node triage").attributes["frontdesk.node"]).toBe("triage");

    // Model calls sit under the node that made them, with the GenAI attributes.
    const models = byName(spans, "chat offline");
    expect(models.map((m) => spans.find((s) => id(s) === parentOf(m))?.name).sort()).toEqual(["node generate", "node triage"]);
    for (const model of models) {
      expect(model.kind).toBe(SpanKind.CLIENT);
      expect(model.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "frontdesk.offline", "gen_ai.request.model": "offline" });
      expect(model.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(model.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    }
    expect(models.map((m) => m.attributes["frontdesk.model.role"]).sort()).toEqual(["generate", "triage"]);

    // Retrieval under the retrieve node, with the embedded backend's stage timings.
    const retrieve = only(spans, "retrieve");
    expect(parentOf(retrieve)).toBe(id(only(spans, "node retrieve")));
    expect(retrieve.attributes["frontdesk.retrieval.backend"]).toBe("embedded");
    expect(retrieve.attributes["frontdesk.retrieval.hits"]).toBeGreaterThan(0);
    expect(retrieve.attributes["frontdesk.retrieval.rerank_ms"]).toBeGreaterThanOrEqual(0);

    // The commit happens after the graph, under the RPC span.
    const commit = only(spans, "checkpoint commit");
    expect(parentOf(commit)).toBe(id(rpc));
    expect(commit.attributes["frontdesk.checkpoint.bytes"]).toBeGreaterThan(100);
  });

  it("joins the caller's trace (traceparent) and marks a refused call with its code", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentSpanId = "00f067aa0ba902b7";
    await expect(server.client.turn({ threadId: "trace-2", userId: "u-1", text: " " }, { headers: { traceparent: `00-${traceId}-${parentSpanId}-01` } })).rejects.toThrow(/text/u);
    const rpc = only(await finished(), "frontdesk.v1.AgentService/Turn");
    expect(rpc.spanContext().traceId).toBe(traceId);
    expect(rpc.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(rpc.attributes).toMatchObject({ "rpc.status_code": "INVALID_ARGUMENT", "rpc.grpc.status_code": 3, "error.type": "INVALID_ARGUMENT" });
    // A caller's mistake is not a server failure.
    expect(rpc.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("covers a stream until its last message", async () => {
    const messages = [];
    for await (const message of server.client.streamTurn({ turn: { threadId: "trace-3", userId: "u-1", text: "hello" } })) messages.push(message.event.case);
    expect(messages.at(-1)).toBe("result");
    const spans = await finished();
    const rpc = only(spans, "frontdesk.v1.AgentService/StreamTurn");
    expect(rpc.attributes["rpc.status_code"]).toBe("OK");
    const nodes = spans.filter((s) => s.name.startsWith("node "));
    expect(nodes.length).toBeGreaterThan(2);
    for (const node of nodes) expect(parentOf(node)).toBe(id(rpc));
  });
});
