import type http from "node:http";
import type http2 from "node:http2";
import type { DescMethod, DescMethodServerStreaming, DescMethodUnary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createConnectRouter,
  createContextKey,
  createContextValues,
  type ConnectRouter,
  type ConnectRouterOptions,
  type HandlerContext,
} from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler, UniversalServerRequest } from "@connectrpc/connect/protocol";
import type { Logger } from "pino";
import { clampDeadlineHeaders } from "./deadline.js";
import { createRequestGate } from "./request-gate.js";

export type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
export type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void;

export interface NodeHandlerOptions {
  routes: (router: ConnectRouter) => void;
  /** Aborting it makes every running handler's ctx.signal fire (connect-es option). */
  shutdownSignal: AbortSignal;
  /** The largest request message, in bytes. */
  readMaxBytes: number;
  logger: Logger;
}

/** The gate's verdict on a request, for the method that only refuses. */
const refusalKey = createContextKey<ConnectError | null>(null, { description: "frontdesk malformed request" });

function refusal(ctx: HandlerContext): ConnectError {
  return ctx.values.get(refusalKey) ?? new ConnectError("internal error", Code.Internal);
}

/**
 * Registers, for each unary and server-streaming method, a twin whose implementation only throws
 * the gate's error: connect-es then writes it as each protocol expects (gRPC trailers, the
 * gRPC-Web trailer frame, a Connect error body or end-stream message).
 */
function registerRefusal(router: ConnectRouter, method: DescMethod): void {
  // Streams of several messages are not read by the gate (connect-es parses them as they come),
  // so client- and bidi-streaming methods need no twin.
  if (method.methodKind === "unary") {
    router.rpc(method as DescMethodUnary, async (_req, ctx) => {
      throw refusal(ctx);
    });
  } else if (method.methodKind === "server_streaming") {
    // biome-ignore lint/correctness/useYield: a server-streaming handler must be a generator; this one refuses before its first message
    router.rpc(method as DescMethodServerStreaming, async function* (_req, ctx) {
      throw refusal(ctx);
    });
  }
}

/**
 * The Node request handler for the routes: connect-node's adapter (connectNodeAdapter), plus the
 * two things that have to happen to a request before connect-es reads it — a deadline beyond what
 * a timer holds is clamped (deadline.ts), and a malformed request message is refused as
 * INVALID_ARGUMENT naming the field (request-gate.ts).
 */
export function createNodeHandler(options: NodeHandlerOptions): NodeHandler {
  const { logger } = options;
  const acceptCompression = [compressionGzip, compressionBrotli];
  const routerOptions: ConnectRouterOptions = { acceptCompression, shutdownSignal: options.shutdownSignal, readMaxBytes: options.readMaxBytes };
  const router = createConnectRouter(routerOptions);
  options.routes(router);
  const refusals = createConnectRouter(routerOptions);
  for (const handler of router.handlers) registerRefusal(refusals, handler.method);
  const refusalFor = new Map<DescMethod, UniversalHandler>(refusals.handlers.map((h) => [h.method, h]));
  const paths = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, h]));
  const gate = createRequestGate({ readMaxBytes: options.readMaxBytes, compressions: acceptCompression });

  async function handle(handler: UniversalHandler, req: UniversalServerRequest) {
    clampDeadlineHeaders(req.header);
    const refuse = refusalFor.get(handler.method);
    if (refuse === undefined) return handler(req);
    const checked = await gate.check(req, handler.method.input);
    if (checked.kind === "pass") return handler(checked.req);
    const contextValues = createContextValues();
    contextValues.set(refusalKey, checked.error);
    return refuse({ ...checked.req, contextValues });
  }

  return (req, res) => {
    // The query string does not take part in matching.
    const handler = paths.get(req.url?.split("?", 2)[0] ?? "");
    if (handler === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const uReq = universalRequestFromNodeRequest(req, res, undefined, undefined);
    handle(handler, uReq)
      .then((uRes) => universalResponseToNodeResponse(uRes, res))
      .catch((err: unknown) => {
        // ABORTED: the caller went away mid-response; nothing to report.
        if (ConnectError.from(err).code === Code.Aborted) return;
        logger.warn({ err, procedure: `${handler.service.typeName}/${handler.method.name}` }, "writing the response failed");
      });
  };
}
