import type http from "node:http";
import type http2 from "node:http2";

type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;
type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: NodeResponse) => void;

/**
 * Percent-encodes a grpc-message value the way the gRPC spec asks: only bytes outside 0x20–0x7E,
 * and "%" itself. connect-es writes encodeURIComponent(message), which also escapes ":", "/", ","…;
 * @grpc/grpc-js decodes with decodeURI, which leaves exactly those escaped, so grpc-js callers saw
 * "thread_id%3A must be …". Every spec-following decoder reads both encodings the same way.
 */
export function specEncodeGrpcMessage(value: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return value;
  }
  let out = "";
  for (const byte of Buffer.from(decoded, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function rewrite(headers: unknown): void {
  if (typeof headers !== "object" || headers === null) return;
  const record = headers as Record<string, unknown>;
  const message = record["grpc-message"];
  if (typeof message === "string") record["grpc-message"] = specEncodeGrpcMessage(message);
}

/**
 * Wraps a Node request handler so grpc-message (in trailers, or in headers for trailers-only
 * responses) is re-encoded per the spec. Connect and gRPC-Web responses are left untouched.
 */
export function withSpecGrpcMessage(handler: Handler): Handler {
  return (req, res) => {
    if (String(req.headers["content-type"] ?? "").startsWith("application/grpc") && !String(req.headers["content-type"]).startsWith("application/grpc-web")) {
      const addTrailers = res.addTrailers.bind(res) as (headers: unknown) => void;
      res.addTrailers = ((headers: unknown) => {
        rewrite(headers);
        addTrailers(headers);
      }) as typeof res.addTrailers;
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => unknown;
      res.writeHead = ((...args: unknown[]) => {
        for (const arg of args) rewrite(arg);
        return writeHead(...args);
      }) as typeof res.writeHead;
    }
    handler(req, res);
  };
}
