import { context, ROOT_CONTEXT, type Context, type TextMapGetter, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";

/**
 * The OpenTelemetry SDK, set up once by the composition root (nothing else loads the SDK: the
 * rest of the code speaks @opentelemetry/api through the Telemetry object).
 *
 * With an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT) spans are batched and sent over
 * OTLP/HTTP (protobuf) to `<endpoint>/v1/traces`, sampled parent-based (a caller's unsampled
 * traceparent is honoured). Without one nothing is recorded or sent, but every request still
 * gets a real trace id (the caller's, from its traceparent header, or a new one) for its log lines.
 */
export interface TracingOptions {
  /** The resource's service.name. */
  serviceName: string;
  serviceVersion?: string;
  /** OTLP/HTTP base URL; null: export nothing. */
  otlpEndpoint: string | null;
  /** Sent with every export (e.g. an API key of the collector). */
  otlpHeaders?: Readonly<Record<string, string>>;
  /** Tests: every span ends up here as soon as it ends (in-memory exporter); wins over otlpEndpoint. */
  exporter?: SpanExporter;
}

export interface Tracing {
  readonly tracer: Tracer;
  /** True when spans are recorded and exported. */
  readonly recording: boolean;
  /** The caller's trace context (W3C traceparent / tracestate headers), or the root context. */
  extract(headers: Headers): Context;
  forceFlush(): Promise<void>;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

const headerGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

let contextManagerInstalled = false;

/**
 * Span parenthood across awaits needs a context manager; it is process-wide by the API's design.
 * Installed once, the first time a recording tracer is made.
 */
function installContextManager(): void {
  if (contextManagerInstalled) return;
  contextManagerInstalled = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

export function createTracing(options: TracingOptions): Tracing {
  const processors: SpanProcessor[] = [];
  if (options.exporter !== undefined) processors.push(new SimpleSpanProcessor({ exporter: options.exporter }));
  else if (options.otlpEndpoint !== null) {
    const exporter = new OTLPTraceExporter({
      url: `${options.otlpEndpoint.replace(/\/+$/u, "")}/v1/traces`,
      ...(options.otlpHeaders === undefined ? {} : { headers: { ...options.otlpHeaders } }),
    });
    processors.push(new BatchSpanProcessor({ exporter }));
  }
  const recording = processors.length > 0;
  if (recording) installContextManager();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      ...(options.serviceVersion === undefined ? {} : { "service.version": options.serviceVersion }),
    }),
    // Not recording: spans are non-recording shells that still carry valid ids for the logs.
    sampler: recording ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
    spanProcessors: processors,
  });
  const propagator = new W3CTraceContextPropagator();
  return {
    tracer: provider.getTracer("frontdesk", options.serviceVersion),
    recording,
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, headerGetter),
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
