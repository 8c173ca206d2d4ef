import type { NodeHandler } from "./adapter.js";
import type { Cors } from "./cors.js";

/**
 * The first thing every request on the port meets, HTTP/1.1 and HTTP/2 alike: the count of
 * requests in flight (what shutdown waits for), CORS, the plain HTTP probes, then the RPCs.
 */
export interface EdgeHandler {
  readonly handler: NodeHandler;
  /** Requests whose response has not ended yet. */
  readonly inFlight: number;
  /** Resolves once no request is in flight, or after `ms`. */
  settled(ms: number): Promise<void>;
}

export interface EdgeOptions {
  rpc: NodeHandler;
  /** Answers /healthz and /readyz (probes.ts); false for any other path. */
  probes: (req: Parameters<NodeHandler>[0], res: Parameters<NodeHandler>[1], path: string) => boolean;
  cors: Cors | null;
  /** True once shutdown began: HTTP/1.1 connections are closed after their response. */
  draining: () => boolean;
}

export function createEdgeHandler(options: EdgeOptions): EdgeHandler {
  const { rpc, probes, cors, draining } = options;
  let inFlight = 0;
  let onSettled: (() => void) | null = null;

  const handler: NodeHandler = (req, res) => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) onSettled?.();
    });
    // HTTP/2 ends its connections with GOAWAY (connections.ts); HTTP/1.1 needs the header, and
    // HTTP/2 forbids it.
    if (draining() && req.httpVersionMajor === 1) res.setHeader("Connection", "close");
    if (cors?.apply(req, res) === true) return;
    if (probes(req, res, req.url?.split("?", 2)[0] ?? "")) return;
    rpc(req, res);
  };

  return {
    handler,
    get inFlight() {
      return inFlight;
    },
    settled(ms) {
      return new Promise((resolve) => {
        if (inFlight === 0) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          onSettled = null;
          resolve();
        }
        onSettled = done;
      });
    },
  };
}
