import { cors as connectCors } from "@connectrpc/connect";
import type { NodeRequest, NodeResponse } from "./adapter.js";

/**
 * CORS for browsers calling the port (Connect and gRPC-Web through @connectrpc/connect-web):
 * the allowed origins come from FRONTDESK_CORS_ORIGINS; the methods and headers are Connect's
 * (`cors` of @connectrpc/connect) plus frontdesk's own. A request from an origin not on the list
 * gets no CORS headers (the browser then keeps the answer from the page) and a refused preflight.
 */
export interface Cors {
  /**
   * Adds the response headers an allowed origin needs. Returns true when it answered the request
   * itself (a preflight), false when the request goes on to the handler.
   */
  apply(req: NodeRequest, res: NodeResponse): boolean;
}

/** Headers frontdesk reads beyond Connect's: the API key and the caller's request and trace ids. */
const APP_REQUEST_HEADERS = ["Authorization", "X-Api-Key", "X-Request-Id", "Traceparent", "Tracestate"];

export function createCors(origins: readonly string[], maxAgeS: number): Cors | null {
  if (origins.length === 0) return null;
  const anyOrigin = origins.includes("*");
  const allowed = new Set(origins);
  const allowMethods = connectCors.allowedMethods.join(", ");
  const allowHeaders = [...connectCors.allowedHeaders, ...APP_REQUEST_HEADERS].join(", ");
  const exposeHeaders = connectCors.exposedHeaders.join(", ");
  return {
    apply(req, res) {
      const origin = req.headers.origin;
      const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
      // The answer depends on the origin: caches must not hand one origin's answer to another.
      res.setHeader("Vary", preflight ? "Origin, Access-Control-Request-Method, Access-Control-Request-Headers" : "Origin");
      const ok = typeof origin === "string" && (anyOrigin || allowed.has(origin.toLowerCase()));
      if (ok) {
        // The origin itself rather than "*", so the answer is the same whatever the list holds.
        res.setHeader("Access-Control-Allow-Origin", origin);
        if (!preflight) res.setHeader("Access-Control-Expose-Headers", exposeHeaders);
      }
      if (!preflight) return false;
      if (!ok) {
        res.statusCode = 403;
        res.end();
        return true;
      }
      res.setHeader("Access-Control-Allow-Methods", allowMethods);
      res.setHeader("Access-Control-Allow-Headers", allowHeaders);
      res.setHeader("Access-Control-Max-Age", String(maxAgeS));
      res.statusCode = 204;
      res.end();
      return true;
    },
  };
}
