import { describe, expect, it } from "vitest";
import { startFakeHttp } from "../support/fake-http.js";
import { startRealServer } from "../e2e/support.js";

/**
 * The configured exporter, without the network: with OTEL_EXPORTER_OTLP_ENDPOINT the spans of a
 * turn go to `<endpoint>/v1/traces` as OTLP/HTTP protobuf (a fake collector on 127.0.0.1), with
 * OTEL_EXPORTER_OTLP_HEADERS; without it nothing is sent.
 */
describe("OTLP export", () => {
  it("sends the turn's spans to <endpoint>/v1/traces when OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    const collector = await startFakeHttp(() => ({ body: {} }));
    try {
      const server = await startRealServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=abc123",
        OTEL_SERVICE_NAME: "frontdesk-otlp-test",
      });
      try {
        await server.client.turn({ threadId: "otlp-1", userId: "u-1", text: "What is the minimum deductible for motor body insurance?" });
      } finally {
        // Shutdown exports what the batch processor still holds.
        await server.close();
      }
      const exports = collector.requests.filter((r) => r.method === "POST");
      expect(exports.map((r) => r.url)).toContain("/v1/traces");
      for (const request of exports) {
        expect(request.headers["content-type"]).toBe("application/x-protobuf");
        expect(request.headers["x-collector-key"]).toBe("abc123");
      }
      // Protobuf keeps strings as they are: the names are readable in the body.
      const body = exports.map((r) => String(r.body)).join("");
      for (const name of ["frontdesk-otlp-test", "frontdesk.v1.AgentService/Turn", "node triage", "checkpoint commit", "gen_ai.operation.name"]) expect(body).toContain(name);
    } finally {
      await collector.close();
    }
  });
});
