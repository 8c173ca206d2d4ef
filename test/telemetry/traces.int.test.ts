import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTelemetry } from "../../src/telemetry/index.js";
import { createTracing, type Tracing } from "../../src/telemetry/tracing.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startRealServer, type RealServer } from "../e2e/support.js";

/** On PostgreSQL, a turn's queries are CLIENT spans (database conventions) inside the turn's trace. */

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let db: TestDatabase;
let server: RealServer;

beforeAll(async () => {
  db = await createTestDatabase("traces");
  tracing = createTracing({ serviceName: "frontdesk-test", otlpEndpoint: null, exporter });
  const telemetry = createTelemetry({ tracer: tracing.tracer, extract: tracing.extract, processMetrics: false });
  server = await startRealServer({ DATABASE_URL: db.url, FRONTDESK_CHECKPOINTER: "postgres" }, { telemetry });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe("PostgreSQL spans", () => {
  it("cover the lock, the reads and the commit of a turn, with the database's name and no values", async () => {
    exporter.reset();
    await server.client.turn({ threadId: "pg-trace-1", userId: "pg-user-77", text: "What is the minimum deductible for motor body insurance?" });
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const rpc = spans.find((s) => s.name === "frontdesk.v1.AgentService/Turn")!;
    const queries = spans.filter((s) => s.attributes["db.system.name"] === "postgresql" && s.kind === SpanKind.CLIENT);
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const query of queries) {
      expect(query.spanContext().traceId).toBe(rpc.spanContext().traceId);
      expect(query.attributes).toMatchObject({ "db.namespace": db.name, "server.address": "127.0.0.1", "server.port": 5432 });
      expect(query.name).toBe(`${String(query.attributes["db.operation.name"])} ${db.name}`);
    }
    const byId = new Map<string, ReadableSpan>(spans.map((s) => [s.spanContext().spanId, s]));
    const parents = new Set(queries.map((q) => byId.get(q.parentSpanContext?.spanId ?? "")?.name));
    // The lock and the thread read under the RPC, the commit under its span, memory under its nodes.
    expect(parents).toContain("frontdesk.v1.AgentService/Turn");
    expect(parents).toContain("checkpoint commit");
    expect(parents).toContain("node load_memory");
    const operations = new Set(queries.map((q) => q.attributes["db.operation.name"]));
    expect(operations).toContain("SELECT");
    expect(operations).toContain("WITH");
    // Values are bound parameters, never attributes.
    expect(JSON.stringify(queries.map((q) => q.attributes))).not.toContain("pg-user-77");
  });
});
