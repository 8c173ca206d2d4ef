import { readFileSync } from "node:fs";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { DocumentService } from "../../gen/frontdesk/v1/document_service_pb.js";
import { Health } from "../../gen/grpc/health/v1/health_pb.js";
import { ServerReflection as ReflectionV1 } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import type { TurnService } from "../service/types.js";
import type { DocumentIndex, DocumentRules } from "../retrieval/index.js";
import { ConfigError, isLoopbackHost, type Config } from "../config/config.js";
import { createNodeHandler } from "./adapter.js";
import { createTenantResolver } from "./auth.js";
import { withSpecGrpcMessage } from "./grpc-message.js";
import { createHealthRoutes, createHealthState, type HealthState } from "./health.js";
import { MAX_OUTSTANDING_PINGS, trackConnections } from "./connections.js";
import { createReflectionIndex, createReflectionRoutes } from "./reflection.js";
import { createDocumentRoutes } from "./document-routes.js";
import { createAgentRoutes } from "./routes.js";
import { createObserveInterceptor, withInterceptor } from "./observe.js";
import { noopTelemetry, type Telemetry } from "../telemetry/index.js";

export interface BuildServerOptions {
  turnService: TurnService;
  config: Config;
  logger: Logger;
  /** When given, DocumentService is served on the same port for the same API keys. */
  documents?: { index: DocumentIndex; rules: DocumentRules };
  /** Spans, RPC metrics and access lines of every call; default: none collected. */
  telemetry?: Telemetry;
}

export interface FrontdeskServer {
  /** The underlying HTTP/2 server (h2c, or TLS when config.server.tls is set). Not yet listening. */
  readonly server: http2.Http2Server | http2.Http2SecureServer;
  readonly health: HealthState;
  /** Tenants callers can be resolved to (the default tenant when no keys are configured). */
  readonly tenants: readonly string[];
  /** "h2c" or "https". */
  readonly scheme: "h2c" | "https";
  /** Binds config.server.host/port; port 0 reports the port the OS chose. */
  listen(): Promise<{ host: string; port: number }>;
  /** NOT_SERVING, stop accepting, let running calls finish for shutdownGraceMs, then cut them off. */
  close(): Promise<void>;
}

/** Services on the port, in the order `buf curl --list-services` shows them. */
const SERVICES: readonly DescService[] = [AgentService, Health, ReflectionV1, ReflectionV1Alpha];
const SERVICES_WITH_DOCUMENTS: readonly DescService[] = [AgentService, DocumentService, Health, ReflectionV1, ReflectionV1Alpha];

// AgentService requests are small (text is capped at a few thousand characters): refuse huge
// frames unparsed. DocumentService raises its own limit to carry one file (document-routes.ts).
const READ_MAX_BYTES = 1024 * 1024;

/**
 * Without API keys every caller is the default tenant, which is only safe when nobody else can
 * reach the port: refuse a non-loopback host unless the operator opted in explicitly.
 */
export function assertBindAllowed(config: Config): void {
  const { host, allowPublicBind } = config.server;
  if (config.auth.apiKeys.length === 0 && !isLoopbackHost(host) && !allowPublicBind) {
    throw new ConfigError(
      `refusing to listen on ${host} without API keys: set FRONTDESK_API_KEYS, bind to 127.0.0.1, or set FRONTDESK_ALLOW_PUBLIC_BIND=true`,
    );
  }
}

function readPem(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function buildServer(options: BuildServerOptions): FrontdeskServer {
  const { config, logger } = options;
  const tenants = createTenantResolver(config.auth);
  const documents = options.documents;
  const health = createHealthState(documents === undefined ? [AgentService.typeName] : [AgentService.typeName, DocumentService.typeName]);
  const reflection = createReflectionIndex(documents === undefined ? SERVICES : SERVICES_WITH_DOCUMENTS);
  // Aborting this makes every running handler's ctx.signal fire with UNAVAILABLE (Connect option).
  const shutdown = new AbortController();
  // Fires when close() begins: open-ended streams (watches) end then, running turns get the grace period.
  const draining = new AbortController();

  const agentRoutes = createAgentRoutes({
    turnService: options.turnService,
    config,
    logger,
    tenants,
    draining: draining.signal,
  });
  const documentRoutes =
    documents === undefined
      ? undefined
      : createDocumentRoutes({ documents: documents.index, rules: documents.rules, config, logger, tenants });
  const routes = (router: ConnectRouter) => {
    agentRoutes(router);
    documentRoutes?.(router);
    createHealthRoutes(health)(router);
    createReflectionRoutes(reflection)(router);
  };
  // Spans, metrics and the access line of every call of every service, auth refusals included.
  const observed = withInterceptor(routes, createObserveInterceptor({ telemetry: options.telemetry ?? noopTelemetry(), logger }));
  const handler = withSpecGrpcMessage(createNodeHandler({ routes: observed, shutdownSignal: shutdown.signal, readMaxBytes: READ_MAX_BYTES, logger }));

  const tls = config.server.tls;
  const { idleTimeoutMs } = config.server;
  const http2Options = { maxOutstandingPings: MAX_OUTSTANDING_PINGS };
  const server = tls
    ? // HTTP/1.1 stays allowed over TLS for Connect and gRPC-Web callers (browsers, plain curl).
      http2.createSecureServer(
        {
          ...http2Options,
          cert: readPem(tls.certFile, "FRONTDESK_TLS_CERT"),
          key: readPem(tls.keyFile, "FRONTDESK_TLS_KEY"),
          allowHTTP1: true,
          // A TLS handshake that has not finished is a slow connection too.
          handshakeTimeout: idleTimeoutMs,
        },
        handler,
      )
    : http2.createServer(http2Options, handler);
  const connections = trackConnections(server, { idleTimeoutMs, logger });

  let closing: Promise<void> | null = null;

  return {
    server,
    health,
    tenants: tenants.tenants,
    scheme: tls ? "https" : "h2c",

    async listen() {
      assertBindAllowed(config);
      const { host, port } = config.server;
      return new Promise<{ host: string; port: number }>((resolve, reject) => {
        const onError = (err: Error) => reject(new Error(`cannot listen on ${host}:${port}: ${err.message}`, { cause: err }));
        server.once("error", onError);
        server.listen(port, host, () => {
          server.off("error", onError);
          const address = server.address() as AddressInfo;
          resolve({ host, port: address.port });
        });
      });
    },

    close() {
      closing ??= (async () => {
        // Probes see NOT_SERVING first, so a load balancer stops routing here before calls end.
        health.shutdown();
        draining.abort();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // GOAWAY: no new streams on existing connections; running calls may finish.
        connections.goAway();
        await connections.drained(config.server.shutdownGraceMs);
        if (connections.sessions > 0) {
          logger.warn({ sessions: connections.sessions }, "grace period over, cancelling running calls");
          shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
          // A moment for handlers to send their UNAVAILABLE before the connections are cut.
          await connections.drained(250);
        }
        // Sockets without a session (HTTP/1.1 over TLS, a handshake in progress) would hold server.close().
        connections.destroy();
        await closed;
      })();
      return closing;
    },
  };
}
