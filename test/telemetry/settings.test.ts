import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { grpcCodeName } from "../../src/server/observe.js";
import { adoptRequestId, currentScope, isSafeRequestId, logMixin, runInScope } from "../../src/telemetry/index.js";

describe("telemetry settings", () => {
  it("are off by default: no metrics listener, no OTLP export", () => {
    expect(loadConfig({}).telemetry).toEqual({ metrics: null, otlp: null, serviceName: "frontdesk", langsmith: null });
  });

  it("read the metrics listener as host:port (IPv6 in brackets) and the path", () => {
    expect(loadConfig({ FRONTDESK_METRICS_ADDR: "127.0.0.1:9464" }).telemetry.metrics).toEqual({ host: "127.0.0.1", port: 9464, path: "/metrics" });
    expect(loadConfig({ FRONTDESK_METRICS_ADDR: "[::1]:0", FRONTDESK_METRICS_PATH: "/internal/metrics" }).telemetry.metrics).toEqual({
      host: "::1",
      port: 0,
      path: "/internal/metrics",
    });
    expect(() => loadConfig({ FRONTDESK_METRICS_ADDR: "9464" })).toThrow(/FRONTDESK_METRICS_ADDR: must be host:port/u);
    expect(() => loadConfig({ FRONTDESK_METRICS_ADDR: "localhost:99999" })).toThrow(/FRONTDESK_METRICS_ADDR: port must be at most 65535/u);
    expect(() => loadConfig({ FRONTDESK_METRICS_PATH: "metrics" })).toThrow(ConfigError);
  });

  it("read the OTLP endpoint and headers", () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_EXPORTER_OTLP_HEADERS: "api-key=s%3Dcret, x-team=ops", OTEL_SERVICE_NAME: "fd-eu" }).telemetry,
    ).toMatchObject({ otlp: { endpoint: "http://127.0.0.1:4318", headers: { "api-key": "s=cret", "x-team": "ops" } }, serviceName: "fd-eu" });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://collector:4317" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/u);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: "no-equals-sign" })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/u);
  });
});

describe("the request scope", () => {
  it("puts the request id and trace id on log lines inside it, and nothing outside", () => {
    expect(logMixin()).toEqual({});
    runInScope({ requestId: "gen-1", traceId: "a".repeat(32) }, () => {
      expect(logMixin()).toEqual({ requestId: "gen-1", traceId: "a".repeat(32) });
      adoptRequestId("");
      adoptRequestId("has a space");
      expect(currentScope()?.requestId).toBe("gen-1");
      adoptRequestId("req-42");
      expect(logMixin()).toEqual({ requestId: "req-42", traceId: "a".repeat(32) });
    });
    expect(isSafeRequestId("x".repeat(129))).toBe(false);
  });

  it("names codes as gRPC does", () => {
    expect(grpcCodeName("ok")).toBe("OK");
    expect(grpcCodeName(Code.InvalidArgument)).toBe("INVALID_ARGUMENT");
    expect(grpcCodeName(Code.DeadlineExceeded)).toBe("DEADLINE_EXCEEDED");
    expect(grpcCodeName(Code.Aborted)).toBe("ABORTED");
  });
});
