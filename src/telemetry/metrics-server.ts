import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServerOptions {
  registry: Registry;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Default "/metrics". */
  path?: string;
}

export interface MetricsServer {
  readonly host: string;
  readonly port: number;
  /** e.g. http://127.0.0.1:9464/metrics */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Prometheus scrape endpoint on its own plain HTTP/1.1 listener (FRONTDESK_METRICS_ADDR),
 * never on the service's port: a scraper needs no API key, and the public port serves nothing
 * but the RPCs. GET (and HEAD) of the path only; anything else is 404 or 405.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const path = options.path ?? "/metrics";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://metrics");
    if (url.pathname !== path) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("method not allowed\n");
      return;
    }
    options.registry.metrics().then(
      (body) => {
        res.writeHead(200, { "content-type": options.registry.contentType });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("metrics unavailable\n");
      },
    );
  });
  // A scrape is one short request: idle keep-alive connections must not hold close() up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(new Error(`cannot listen for metrics on ${options.host}:${options.port}: ${err.message}`, { cause: err }));
    server.once("error", onError);
    server.listen(options.port, options.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    host: options.host,
    port,
    url: `http://${hostForUrl}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
