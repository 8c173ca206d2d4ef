#!/usr/bin/env node
// The container's HEALTHCHECK: liveness, GET /healthz over HTTP/2 (no API key) to the server in
// this container. Exit 0 on 200, 1 otherwise (no answer, an error). Liveness, not readiness: a
// container whose database is down is not restarted for it (that would cut its running turns and
// not bring the database back); load balancers read /readyz or grpc.health.v1 for that. Reads the
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
const req = session.request({ ":method": "GET", ":path": "/healthz" });
let status = 0;
req.on("response", (headers) => {
  status = Number(headers[":status"]);
});
req.resume();
req.on("error", (err) => finish(false, err.message));
req.on("end", () => {
  session.close();
  finish(status === 200, status === 200 ? "live" : `status ${status}`);
});
req.end();
