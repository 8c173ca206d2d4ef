#!/usr/bin/env node
// The container's HEALTHCHECK: one grpc.health.v1.Health/Check call (Connect protocol, JSON over
// HTTP/2; the health service needs no API key) to the server in this container. Exit 0 when it
// answers SERVING, 1 otherwise (NOT_SERVING while it shuts down, no answer, an error). Reads the
// server's own variables: FRONTDESK_PORT (8080), FRONTDESK_HOST (a wildcard bind is reached on
// loopback), FRONTDESK_TLS_CERT (then https; the certificate is not checked, the peer is us).
// Plain Node, no dependencies: it runs where only dist/ and production modules are.
import http2 from "node:http2";

const env = process.env;
const port = Number(env.FRONTDESK_PORT || 8080);
const bound = env.FRONTDESK_HOST || "127.0.0.1";
const host = bound === "0.0.0.0" || bound === "::" ? "127.0.0.1" : bound;
const tls = Boolean(env.FRONTDESK_TLS_CERT);
const origin = `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
const timeoutMs = 3000;

function finish(ok, message) {
  (ok ? process.stdout : process.stderr).write(`healthcheck ${origin}: ${message}\n`);
  process.exit(ok ? 0 : 1);
}

const timer = setTimeout(() => finish(false, `no answer within ${timeoutMs} ms`), timeoutMs);
timer.unref();
const session = http2.connect(origin, tls ? { rejectUnauthorized: false } : {});
session.on("error", (err) => finish(false, err.message));
const req = session.request({
  ":method": "POST",
  ":path": "/grpc.health.v1.Health/Check",
  "content-type": "application/json",
  "connect-protocol-version": "1",
});
let body = "";
req.setEncoding("utf8");
req.on("data", (chunk) => (body += chunk));
req.on("error", (err) => finish(false, err.message));
req.on("end", () => {
  let status;
  try {
    status = JSON.parse(body).status;
  } catch {
    status = undefined;
  }
  session.close();
  finish(status === "SERVING", status ?? `unexpected reply ${JSON.stringify(body.slice(0, 200))}`);
});
req.end("{}");
