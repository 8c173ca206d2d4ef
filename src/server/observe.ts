import { randomUUID } from "node:crypto";
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import { Code, ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "../domain/logger.js";
import { isSafeRequestId, runInScope, semconv, type RequestScope, type Telemetry } from "../telemetry/index.js";
import { tenantKey } from "./auth.js";

/**
 * One interceptor for what every RPC owes the operator: a SERVER span (the RPC semantic
 * conventions, named by the fully qualified method, parented to the caller's traceparent), the
 * duration histogram by method and code, one access log line, and the request scope — request id
 * and trace id — that every log line of the call carries. Streams are observed until their last
 * message, so a StreamTurn's duration and code are the turn's.
 */

/** "INVALID_ARGUMENT" for Code.InvalidArgument: the gRPC name, also used as the metric label. */
export function grpcCodeName(code: Code | "ok"): string {
  if (code === "ok") return "OK";
  return Code[code].replace(/([a-z])([A-Z])/gu, "$1_$2").toUpperCase();
}

type Protocol = "grpc" | "grpc_web" | "connect";

function protocolOf(contentType: string | null): Protocol {
  if (contentType?.startsWith("application/grpc-web") === true) return "grpc_web";
  if (contentType?.startsWith("application/grpc") === true) return "grpc";
  return "connect";
}

// The codes a server reports as its own failure (span status ERROR); the rest are the caller's doing.
const SERVER_FAULTS = new Set([Code.Unknown, Code.DeadlineExceeded, Code.Unimplemented, Code.Internal, Code.Unavailable, Code.DataLoss]);

export interface ObserveOptions {
  telemetry: Telemetry;
  logger: Logger;
  /** Request ids when the caller sends no usable x-request-id. */
  newId?: () => string;
}

export function createObserveInterceptor(options: ObserveOptions): Interceptor {
  const { telemetry, logger } = options;
  const newId = options.newId ?? randomUUID;
  return (next) => async (req) => {
    const startedMs = performance.now();
    const method = `${req.service.typeName}/${req.method.name}`;
    const protocol = protocolOf(req.header.get("content-type"));
    const parent = telemetry.extract(req.header);
    const span = telemetry.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [semconv.RPC_SYSTEM_NAME]: protocol === "connect" ? "connectrpc" : "grpc",
          [semconv.RPC_SYSTEM]: protocol === "connect" ? "connect_rpc" : "grpc",
          [semconv.RPC_SERVICE]: req.service.typeName,
          [semconv.RPC_METHOD]: method,
        },
      },
      parent,
    );
    const spanContext = span.spanContext();
    const callerId = req.header.get("x-request-id");
    const scope: RequestScope = {
      requestId: callerId !== null && isSafeRequestId(callerId) ? callerId : newId(),
      traceId: isSpanContextValid(spanContext) ? spanContext.traceId : "",
    };
    const active = trace.setSpan(parent, span);
    const within = <T>(fn: () => T): T => runInScope(scope, () => context.with(active, fn));

    let finished = false;
    const finish = (error: unknown) => {
      if (finished) return;
      finished = true;
      const connectCode = error === undefined ? null : ConnectError.from(error).code;
      const code = grpcCodeName(connectCode ?? "ok");
      const seconds = (performance.now() - startedMs) / 1_000;
      telemetry.metrics.rpcDuration.observe({ method, code }, seconds);
      const attributes: Attributes = { [semconv.RPC_STATUS_CODE]: code };
      if (protocol !== "connect") attributes[semconv.RPC_GRPC_STATUS_CODE] = connectCode ?? 0;
      else if (connectCode !== null) attributes[semconv.RPC_CONNECT_RPC_ERROR_CODE] = code.toLowerCase();
      if (connectCode !== null) attributes[semconv.ERROR_TYPE] = code;
      span.setAttributes(attributes);
      if (connectCode !== null && SERVER_FAULTS.has(connectCode)) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      const tenant = req.contextValues.get(tenantKey);
      // The access line: ids and numbers only, never the request's content or an error message.
      within(() =>
        logger.info(
          { method, code, ms: Math.round(seconds * 10_000) / 10, protocol, tenant, requestId: scope.requestId, ...(scope.traceId === "" ? {} : { traceId: scope.traceId }) },
          "rpc",
        ),
      );
      span.end();
    };

    try {
      const res = await within(() => next(req));
      if (!res.stream) {
        finish(undefined);
        return res;
      }
      return { ...res, message: observeStream(res.message, within, finish) };
    } catch (error) {
      finish(error);
      throw error;
    }
  };
}

/**
 * The response stream, iterated inside the request's scope (a streaming handler's body runs
 * when its stream is read, after the interceptor has returned), finishing the RPC at its end.
 */
function observeStream<T>(source: AsyncIterable<T>, within: <R>(fn: () => R) => R, finish: (error: unknown) => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const iterator = within(() => source[Symbol.asyncIterator]());
      return {
        async next() {
          try {
            const result = await within(() => iterator.next());
            if (result.done === true) finish(undefined);
            return result;
          } catch (error) {
            finish(error);
            throw error;
          }
        },
        async return(value?: unknown) {
          // The reader stopped before the end: the caller went away.
          finish(new ConnectError("stream closed", Code.Canceled));
          return (await within(() => iterator.return?.(value))) ?? { done: true, value: undefined };
        },
        async throw(error?: unknown) {
          finish(error);
          if (iterator.throw === undefined) throw error;
          return within(() => iterator.throw!(error));
        },
      };
    },
  };
}

/**
 * The routes with `interceptor` first on every service and method. A service registered with its
 * own interceptors (auth) replaces the router-wide list in Connect, so the interceptor is added
 * to each registration instead; it runs outermost, and sees auth refusals too.
 */
export function withInterceptor(routes: (router: ConnectRouter) => void, interceptor: Interceptor): (router: ConnectRouter) => void {
  return (router) => {
    const wrapped: ConnectRouter = {
      get handlers() {
        return router.handlers;
      },
      service(service, implementation, options) {
        router.service(service, implementation, { ...options, interceptors: [interceptor, ...(options?.interceptors ?? [])] });
        return wrapped;
      },
      rpc(method, impl, options) {
        router.rpc(method, impl, { ...options, interceptors: [interceptor, ...(options?.interceptors ?? [])] });
        return wrapped;
      },
    };
    routes(wrapped);
  };
}
