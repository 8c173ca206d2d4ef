/**
 * Telemetry's public API: one object with the tracer (OpenTelemetry API), the Prometheus
 * instruments and their registry, injected through the dependency objects of the server, the
 * turn service, the graph and the adapters. The SDK set-up (src/telemetry/tracing.ts) is the
 * composition root's alone; the metrics listener (metrics-server.ts) the entry point's.
 */
import { ROOT_CONTEXT, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { Registry } from "prom-client";
import { createMetrics, type Metrics } from "./metrics.js";

export type { Metrics, PoolStats } from "./metrics.js";
export { adoptRequestId, currentScope, isSafeRequestId, logMixin, runInScope, type RequestScope } from "./scope.js";
export * as semconv from "./semconv.js";

export interface Telemetry {
  readonly tracer: Tracer;
  readonly metrics: Metrics;
  /** Where the metrics are registered: what /metrics serves. */
  readonly registry: Registry;
  /** The caller's trace context from its request headers (W3C traceparent), or the root context. */
  extract(headers: Headers): Context;
  /** Exports the spans still buffered and stops (the composition root's close). */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Default: the OpenTelemetry API's no-op tracer (spans cost nothing and carry no ids). */
  tracer?: Tracer;
  extract?: (headers: Headers) => Context;
  /** Node.js process metrics in the registry. Default true. */
  processMetrics?: boolean;
  shutdown?: () => Promise<void>;
}

export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const registry = new Registry();
  const metrics = createMetrics(registry, { processMetrics: options.processMetrics ?? true });
  return {
    tracer: options.tracer ?? trace.getTracer("frontdesk"),
    metrics,
    registry,
    extract: options.extract ?? (() => ROOT_CONTEXT),
    shutdown: options.shutdown ?? (async () => {}),
  };
}

/**
 * For code and tests that do not care: metrics go to a registry nobody scrapes, spans to the
 * no-op tracer. Created on first use.
 */
export function noopTelemetry(): Telemetry {
  noop ??= createTelemetry({ processMetrics: false });
  return noop;
}
let noop: Telemetry | undefined;

/** Seconds since `startMs` (performance.now()), for histograms. */
export function secondsSince(startMs: number): number {
  return (performance.now() - startMs) / 1_000;
}

/**
 * Runs `fn` in a child span of the active one and ends it: status ERROR with the exception
 * recorded when `fn` throws (the error is rethrown unchanged). `fn` may add attributes.
 */
export async function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** ERROR status with the exception's type (its name, never its message: messages may quote user text). */
export function markFailed(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : typeof error;
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
