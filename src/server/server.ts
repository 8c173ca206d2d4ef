import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo, Server } from "node:net";
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
import { http1Timeouts, MAX_OUTSTANDING_PINGS, trackConnections } from "./connections.js";
import { createCors } from "./cors.js";
import { createEdgeHandler } from "./http-edge.js";
import { createPlainListener } from "./listener.js";
import { createProbeHandler } from "./probes.js";
import { createReadiness } from "./readiness.js";
import type { ReadinessProbe, ServiceRole } from "../domain/readiness.js";
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
  /** The dependencies readiness asks (grpc.health.v1, /readyz); default none: ready while running. */
  probes?: readonly ReadinessProbe[];
}

export interface FrontdeskServer {
  /**
   * The listening server, not yet listening: in plain text the listener that hands each connection
   * to HTTP/2 or HTTP/1.1 (listener.ts); with config.server.tls the secure server (ALPN decides).
   */
  readonly server: Server;
  readonly health: HealthState;
  /** Tenants callers can be resolved to (the default tenant when no keys are configured). */
  readonly tenants: readonly string[];
  /** "h2c" or "https". */
  readonly scheme: "h2c" | "https";
  /** Binds config.server.host/port; port 0 reports the port the OS chose. */
  listen(): Promise<{ host: string; port: number }>;
  /**
   * NOT_SERVING at once (the port stays open, so probes see it), running calls get up to
   * shutdownGraceMs to finish, then are cut off and the port is closed.
   */
  close(): Promise<void>;
}

/** Services on the port, in the order `buf curl --list-services` shows them. */
const SERVICES: readonly DescService[] = [AgentService, Health, ReflectionV1, ReflectionV1Alpha];
const SERVICES_WITH_DOCUMENTS: readonly DescService[] = [AgentService, DocumentService, Health, ReflectionV1, ReflectionV1Alpha];

// AgentService requests are small (text is capped at a few thousand characters): refuse huge
// frames unparsed. DocumentService raises its own limit to carry one file (document-routes.ts).
const READ_MAX_BYTES = 1024 * 1024;
/** After the grace period: how long cancelled calls have to send their UNAVAILABLE before connections are cut. */
const CANCEL_FLUSH_MS = 250;

/**
 * Without API keys every caller is the default tenant, which is only safe when nobody else can
 * reach the port: refuse a non-loopback host unless the operator opted in explicitly.
 */
export function assertBindAllowed(config: Config): void {
  const { host, allowPublicBind } = config.server;
  if (config.auth.apiKeys.length === 0 && !isLoopbackHost(host) && !allowPublicBind) {
    throw new ConfigError(`refusing to listen on ${host} without API keys: set FRONTDESK_API_KEYS, bind to 127.0.0.1, or set FRONTDESK_ALLOW_PUBLIC_BIND=true`);
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
  const services = new Map<string, ServiceRole>([[AgentService.typeName, "agent"]]);
  if (documents !== undefined) services.set(DocumentService.typeName, "documents");
  const { cacheMs, timeoutMs } = config.server.readiness;
  const health = createHealthState(services, createReadiness({ probes: options.probes ?? [], cacheMs, timeoutMs, logger }));
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
  const documentRoutes = documents === undefined ? undefined : createDocumentRoutes({ documents: documents.index, rules: documents.rules, config, logger, tenants });
  const routes = (router: ConnectRouter) => {
    agentRoutes(router);
    documentRoutes?.(router);
    createHealthRoutes(health)(router);
    createReflectionRoutes(reflection)(router);
  };
  // Spans, metrics and the access line of every call of every service, auth refusals included.
  const observed = withInterceptor(routes, createObserveInterceptor({ telemetry: options.telemetry ?? noopTelemetry(), logger }));
  const rpc = withSpecGrpcMessage(createNodeHandler({ routes: observed, shutdownSignal: shutdown.signal, readMaxBytes: READ_MAX_BYTES, logger }));
  const edge = createEdgeHandler({
    rpc,
    probes: createProbeHandler(health, logger),
    cors: createCors(config.server.corsOrigins, config.server.corsMaxAgeS),
    draining: () => draining.signal.aborted,
  });
  const handler = edge.handler;

  const tls = config.server.tls;
  const { idleTimeoutMs } = config.server;
  const http2Options = { maxOutstandingPings: MAX_OUTSTANDING_PINGS };
  const h2 = tls
    ? // HTTP/1.1 stays allowed over TLS for Connect and gRPC-Web callers (browsers, plain curl): ALPN picks.
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
  // Plain text: one port for both, split by the connection's first bytes.
  const plain = tls ? null : createPlainListener({ h2, h1: http.createServer(http1Timeouts(idleTimeoutMs), handler), idleTimeoutMs, logger });
  const server: Server = plain?.server ?? h2;
  const connections = trackConnections(server, h2, { idleTimeoutMs, logger, ...(plain === null ? {} : { h1: plain.h1 }) });

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
        // Probes see NOT_SERVING first, so a load balancer stops routing here before calls end;
        // the port stays open meanwhile, so they see it rather than a refused connection.
        health.shutdown();
        draining.abort();
        // GOAWAY: no new streams on existing connections; running calls may finish.
        connections.drain();
        await edge.settled(config.server.shutdownGraceMs);
        if (edge.inFlight > 0) {
          logger.warn({ calls: edge.inFlight }, "grace period over, cancelling running calls");
          shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
          // A moment for handlers to send their UNAVAILABLE before the connections are cut.
          await edge.settled(CANCEL_FLUSH_MS);
        }
        // Sessions that got GOAWAY end once their last frames are out.
        await connections.drained(CANCEL_FLUSH_MS);
        const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
        // Sockets without a session (HTTP/1.1, a handshake in progress) would hold server.close().
        connections.destroy();
        await closed;
      })();
      return closing;
    },
  };
}
