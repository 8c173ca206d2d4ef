import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake server received, with its JSON body parsed (undefined when empty). */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/collections/c/points/query?wait=true". */
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeReply {
  status?: number;
  /** Sent as JSON; a string is sent as is. */
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeHttpServer {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler (tests script one phase after another). */
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
}

/**
 * A real HTTP/1.1 server on 127.0.0.1 and a free port, standing in for an external service
 * (Gemini, Qdrant, a reranker) in tests. Every request is recorded.
 */
export async function startFakeHttp(handler: FakeHandler): Promise<FakeHttpServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: unknown;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const recorded: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(recorded);
      Promise.resolve()
        .then(() => current(recorded))
        .then(async (reply) => {
          if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          const payload = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
          res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
          res.end(payload);
        })
        .catch((error: unknown) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: String(error) }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
