import type http from "node:http";
import http2 from "node:http2";
import type { Server, Socket } from "node:net";
import tls from "node:tls";
import type { Logger } from "pino";

/**
 * The server's connections: how long an idle or slow one may stay, how pings are bounded, and
 * how all of them are ended on shutdown.
 *
 * Idle means no open stream. The timer is ours rather than session.setTimeout's, which any frame
 * resets: a peer sending a PING every few seconds would hold an idle connection (and its memory)
 * forever, and a quiet watch stream would be cut although it is in use. So:
 *   - a session with no open stream for `idleTimeoutMs` gets GOAWAY and is closed;
 *   - a stream whose request has not fully arrived is cut (RST_STREAM CANCEL) after
 *     `idleTimeoutMs` without a byte: a slow or stalled upload never holds a handler;
 *   - a session with open streams is pinged every `idleTimeoutMs` and destroyed when the peer
 *     does not answer within KEEPALIVE_ACK_TIMEOUT_MS (or the idle time, if shorter), so a vanished peer does not hold a watch
 *     (and its slot) forever; a running call on a live connection is never cut;
 *   - HTTP/1.1 (Node's http server: over TLS the secure server's own, in plain text the one the
 *     listener hands connections to) gets the same idle time before its first request, between
 *     requests (keepAliveTimeout) and for headers and body (headersTimeout, requestTimeout); a
 *     TLS handshake has it too (handshakeTimeout, set in server.ts), and a plain-text connection
 *     that sends nothing is closed by the listener (listener.ts);
 *   - pings from the peer are bounded (PEER_PING_BURST, PEER_PING_REFILL_MS): beyond that the
 *     session gets GOAWAY ENHANCE_YOUR_CALM "too_many_pings", which gRPC clients understand as
 *     "ping less".
 */
export interface Connections {
  /** Open HTTP/2 sessions. */
  readonly sessions: number;
  /** GOAWAY on every session: running streams may finish, no new ones start. */
  goAway(): void;
  /**
   * Shutdown has begun: GOAWAY on every session open now (running streams may finish). The port
   * stays open, so probes see NOT_SERVING rather than a refused connection.
   */
  drain(): void;
  /** Resolves once every session has closed, or after `ms`. */
  drained(ms: number): Promise<void>;
  /** Cuts every session and socket off at once. */
  destroy(): void;
}

export interface ConnectionsOptions {
  idleTimeoutMs: number;
  logger: Logger;
  /** The plain-text HTTP/1.1 server the listener feeds (listener.ts); absent over TLS. */
  h1?: http.Server;
}

/**
 * http.Server's connection timeouts (which the types of Http2SecureServer do not declare). Pass
 * them to http.createServer: the checking interval is read when the server is constructed.
 */
export function http1Timeouts(idleTimeoutMs: number) {
  // Node checks headersTimeout and requestTimeout every connectionsCheckingInterval (30 s by default).
  return {
    keepAliveTimeout: idleTimeoutMs,
    headersTimeout: idleTimeoutMs,
    requestTimeout: idleTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, idleTimeoutMs),
  };
}

/** Unacknowledged pings the server may have out on one session (Node's default is 10); it sends one at a time. */
export const MAX_OUTSTANDING_PINGS = 2;
/** How long a peer has to answer a keep-alive ping: gRPC's default keepalive timeout (or the idle time, if shorter). */
const KEEPALIVE_ACK_TIMEOUT_MS = 20_000;
/** After the server ends a connection, how long the peer has to close its side before the socket is destroyed. */
const CLOSE_LINGER_MS = 1_000;
/** Pings a peer may send in a burst, and the interval at which one more is allowed. */
const PEER_PING_BURST = 10;
const PEER_PING_REFILL_MS = 1_000;

/** `listening` accepts the connections (the listener in plain text); `server` is the HTTP/2 server. */
export function trackConnections(listening: Server, server: http2.Http2Server | http2.Http2SecureServer, options: ConnectionsOptions): Connections {
  const { idleTimeoutMs, logger, h1 } = options;
  const ackTimeoutMs = Math.min(KEEPALIVE_ACK_TIMEOUT_MS, idleTimeoutMs);
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<Socket>();
  let onDrained: (() => void) | null = null;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // Ending a connection waits for the peer to end its side too; one that never does would keep
    // the socket (and server.close()) open.
    socket.once("finish", () => setTimeout(() => socket.destroy(), CLOSE_LINGER_MS).unref());
  };
  listening.on("connection", track);
  if (h1 !== undefined) {
    Object.assign(h1, http1Timeouts(idleTimeoutMs));
    // Node runs the headersTimeout and requestTimeout checks only on a server that listens itself;
    // this one is fed by the listener, so the socket's timer stands in (http destroys the socket
    // when it fires): a request line, headers or body that stall for the idle time end the
    // connection. Once the request has arrived, a quiet call runs as long as it needs.
    h1.on("connection", (socket: Socket) => socket.setTimeout(idleTimeoutMs));
    h1.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.complete) req.socket.setTimeout(0);
      // After the response, http's own keep-alive timer holds the socket; do not cancel it.
      else
        req.once("end", () => {
          if (!res.writableFinished) req.socket.setTimeout(0);
        });
    });
  }
  if (server instanceof tls.Server) {
    Object.assign(server, http1Timeouts(idleTimeoutMs));
    server.on("secureConnection", (socket: tls.TLSSocket) => {
      // Over TLS the session runs on the TLS socket; ending it is seen there.
      track(socket);
      // Node's http server times a connection out only once a request has started or between
      // requests: until the first one, the idle time is the socket's (on timeout, http destroys it).
      if (socket.alpnProtocol !== "h2") socket.setTimeout(idleTimeoutMs);
    });
    server.on("request", (req: { httpVersionMajor: number; socket: Socket }) => {
      if (req.httpVersionMajor === 1) req.socket.setTimeout(0);
    });
  }

  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    let open = 0;
    let idle: NodeJS.Timeout | null = null;
    let keepAlive: NodeJS.Timeout | null = null;
    let pingTokens = PEER_PING_BURST;
    let pingsCountedAt = Date.now();
    const ended = () => session.closed || session.destroyed;

    const stopIdle = () => {
      if (idle !== null) clearTimeout(idle);
      idle = null;
    };
    const startIdle = () => {
      stopIdle();
      idle = setTimeout(() => {
        logger.debug({ idleTimeoutMs }, "closing an idle connection");
        session.close();
      }, idleTimeoutMs).unref();
    };
    const stopKeepAlive = () => {
      if (keepAlive !== null) clearTimeout(keepAlive);
      keepAlive = null;
    };
    const startKeepAlive = () => {
      stopKeepAlive();
      keepAlive = setTimeout(probe, idleTimeoutMs).unref();
    };
    const probe = () => {
      keepAlive = null;
      if (ended() || open === 0) return;
      const unanswered = setTimeout(() => {
        logger.info({ ackTimeoutMs }, "peer did not answer a keep-alive ping, closing its connection");
        session.destroy();
      }, ackTimeoutMs).unref();
      const sent = session.ping((err) => {
        clearTimeout(unanswered);
        if (err === null && !ended() && open > 0) startKeepAlive();
      });
      if (!sent) clearTimeout(unanswered);
    };

    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      open++;
      stopIdle();
      if (open === 1) startKeepAlive();
      if (!stream.endAfterHeaders) {
        // Until the request has fully arrived, a stall of the idle time ends the stream.
        stream.setTimeout(idleTimeoutMs, () => {
          logger.debug({ idleTimeoutMs }, "cutting a stalled request");
          stream.close(http2.constants.NGHTTP2_CANCEL);
        });
        stream.once("end", () => stream.setTimeout(0));
      }
      stream.once("close", () => {
        open--;
        if (open === 0) {
          stopKeepAlive();
          if (!ended()) startIdle();
        }
      });
    });

    session.on("ping", () => {
      const now = Date.now();
      pingTokens = Math.min(PEER_PING_BURST, pingTokens + (now - pingsCountedAt) / PEER_PING_REFILL_MS);
      pingsCountedAt = now;
      pingTokens -= 1;
      if (pingTokens < 0 && !ended()) {
        logger.info("peer sent too many pings, closing its connection");
        session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, 0, Buffer.from("too_many_pings"));
        session.destroy();
      }
    });

    session.on("error", (err: Error) => logger.debug({ err }, "http2 session error"));
    session.once("close", () => {
      stopIdle();
      stopKeepAlive();
      sessions.delete(session);
      if (sessions.size === 0) onDrained?.();
    });
    startIdle();
  });

  return {
    get sessions() {
      return sessions.size;
    },
    goAway() {
      for (const session of sessions) session.close();
    },
    drain() {
      // Sessions opened from now on are not ended early: a GOAWAY right after a call races the
      // client's next one (refused, and Connect clients do not retry that). Idle HTTP/1.1
      // connections are left alone for the same reason; their next response says Connection:
      // close (http-edge.ts). Whatever is still open when the calls are done is closed then.
      for (const session of sessions) session.close();
    },
    drained(ms) {
      return new Promise((resolve) => {
        if (sessions.size === 0) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          onDrained = null;
          resolve();
        }
        onDrained = done;
      });
    },
    destroy() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
    },
  };
}
