import type { Logger } from "pino";
import type { NodeRequest, NodeResponse } from "./adapter.js";
import type { HealthState } from "./health.js";

/**
 * Plain HTTP probes on the service's port, for load balancers and orchestrators that cannot speak
 * gRPC: `/healthz` is liveness (200 while the process serves requests at all, draining included:
 * restarting a draining process would cut its running turns), `/readyz` is readiness (200 while
 * the whole server is SERVING, else 503), with a small JSON body of each dependency's state. Both
 * unauthenticated, like grpc.health.v1; neither says more than up or down and why in one word.
 */
export const LIVENESS_PATH = "/healthz";
export const READINESS_PATH = "/readyz";

function send(req: NodeRequest, res: NodeResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  if (req.method === "HEAD") res.end();
  else res.end(text);
}

/** Answers the request when it is a probe (true); false leaves it to the RPC handler. */
export function createProbeHandler(health: HealthState, logger: Logger): (req: NodeRequest, res: NodeResponse, path: string) => boolean {
  return (req, res, path) => {
    if (path !== LIVENESS_PATH && path !== READINESS_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.statusCode = 405;
      res.setHeader("Allow", "GET, HEAD");
      res.end();
      return true;
    }
    if (path === LIVENESS_PATH) {
      send(req, res, 200, { status: "alive" });
      return true;
    }
    health.report().then(
      (report) => {
        const draining = health.shuttingDown;
        const up = report.dependencies.every((d) => d.up);
        const dependencies = Object.fromEntries(
          report.dependencies.map((d) => [d.name, d.up ? { status: "up", latencyMs: d.latencyMs } : { status: "down", reason: d.reason, latencyMs: d.latencyMs }]),
        );
        const status = draining ? "draining" : up ? "ready" : "not_ready";
        send(req, res, status === "ready" ? 200 : 503, { status, dependencies });
      },
      (err: unknown) => {
        logger.warn({ err }, "readiness report failed");
        send(req, res, 503, { status: "not_ready" });
      },
    );
    return true;
  };
}
