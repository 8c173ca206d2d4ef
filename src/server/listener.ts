import type http from "node:http";
import type http2 from "node:http2";
import net from "node:net";
import type { Logger } from "pino";

/**
 * One plain-text port for HTTP/2 (gRPC, and Connect or gRPC-Web from servers) and HTTP/1.1
 * (Connect and gRPC-Web from browsers, curl, load-balancer probes). Node's h2c server speaks
 * HTTP/2 only, so the listener reads the first bytes of each connection: the HTTP/2 connection
 * preface (RFC 9113 §3.4, prior knowledge) goes to the HTTP/2 server, anything else to the
 * HTTP/1.1 server, both with the same handler. Over TLS, ALPN makes the choice instead
 * (http2.createSecureServer with allowHTTP1, in server.ts).
 */
export interface PlainListener {
  /** The listening socket server; connections are handed on from it. */
  readonly server: net.Server;
  readonly h2: http2.Http2Server;
  readonly h1: http.Server;
}

/** What every HTTP/2 connection begins with; an HTTP/1.1 request line never does. */
export const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

export interface PlainListenerOptions {
  h2: http2.Http2Server;
  h1: http.Server;
  /** A connection that sends nothing (not even its first bytes) for this long is closed. */
  idleTimeoutMs: number;
  logger: Logger;
}

export function createPlainListener(options: PlainListenerOptions): PlainListener {
  const { h2, h1, idleTimeoutMs, logger } = options;
  const server = net.createServer((socket) => {
    let seen: Buffer = Buffer.alloc(0);
    const handOff = (to: http.Server | http2.Http2Server) => {
      socket.off("data", onData);
      socket.off("error", onError);
      socket.setTimeout(0);
      socket.pause();
      // The bytes read so far go back in front of the stream, for the server to read as its own.
      socket.unshift(seen);
      to.emit("connection", socket);
      // The HTTP/2 session reads what is buffered itself (Node hands it to nghttp2 at once); the
      // HTTP/1.1 parser reads through "data" events, which flow only once the socket is resumed.
      if (to === h1) socket.resume();
    };
    const onData = (chunk: Buffer) => {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
      const n = Math.min(seen.length, HTTP2_PREFACE.length);
      const preface = seen.subarray(0, n).equals(HTTP2_PREFACE.subarray(0, n));
      // Not yet decided: the preface may arrive in pieces.
      if (preface && n < HTTP2_PREFACE.length) return;
      handOff(preface ? h2 : h1);
    };
    const onError = (err: Error) => logger.debug({ err }, "connection error before its first request");
    socket.on("data", onData);
    socket.on("error", onError);
    // A silent connection is closed like an idle one (connections.ts closes it afterwards).
    socket.setTimeout(idleTimeoutMs, () => {
      logger.debug({ idleTimeoutMs }, "closing a connection that sent nothing");
      socket.destroy();
    });
  });
  return { server, h2, h1 };
}
