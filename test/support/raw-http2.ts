import http2 from "node:http2";

/**
 * Requests written byte by byte over node:http2, for what no well-behaved client sends: a gRPC
 * frame whose string field holds invalid UTF-8, a truncated message, an unknown grpc-encoding,
 * a deadline longer than a timer can hold. The tests read the status the way a plain gRPC,
 * gRPC-Web or Connect client would, from the raw response.
 */

/** A protobuf field on the wire: a string/bytes/message field (wire type 2) with the given raw bytes. */
export function lengthDelimited(fieldNumber: number, value: Uint8Array | string): Uint8Array {
  const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
  return concat([varint((fieldNumber << 3) | 2), varint(bytes.length), bytes]);
}

export function varint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Uint8Array.from(out);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** A length-prefixed message (gRPC, gRPC-Web, Connect streaming): flags byte, big-endian length, bytes. */
export function envelope(message: Uint8Array, flags = 0): Uint8Array {
  const out = new Uint8Array(5 + message.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

export interface RawResponse {
  status: number;
  headers: http2.IncomingHttpHeaders;
  /** HTTP/2 trailers (gRPC); empty for a trailers-only response. */
  trailers: http2.IncomingHttpHeaders;
  body: Buffer;
}

export async function rawRequest(baseUrl: string, path: string, headers: Record<string, string>, body: Uint8Array): Promise<RawResponse> {
  const session = http2.connect(baseUrl);
  session.on("error", () => undefined);
  try {
    return await new Promise<RawResponse>((resolve, reject) => {
      const req = session.request({ ":method": "POST", ":path": path, ...headers });
      let status = 0;
      let responseHeaders: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      req.on("response", (h) => {
        responseHeaders = h;
        status = Number(h[":status"]);
      });
      req.on("trailers", (t) => (trailers = t));
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("error", reject);
      req.on("close", () => resolve({ status, headers: responseHeaders, trailers, body: Buffer.concat(chunks) }));
      req.end(Buffer.from(body));
    });
  } finally {
    session.close();
  }
}

export interface WireStatus {
  /** The gRPC status code (numeric, as grpc-status carries it). */
  code: number;
  message: string;
}

/** gRPC: grpc-status in the trailers, or in the headers of a trailers-only response. */
export function grpcStatus(res: RawResponse): WireStatus {
  const source = res.trailers["grpc-status"] !== undefined ? res.trailers : res.headers;
  return { code: Number(source["grpc-status"]), message: decodeURIComponent(String(source["grpc-message"] ?? "")) };
}

/** gRPC-Web: the trailers are the body's last frame (flag 0x80), as "name: value" lines. */
export function grpcWebStatus(res: RawResponse): WireStatus {
  let offset = 0;
  while (offset + 5 <= res.body.length) {
    const flags = res.body[offset] ?? 0;
    const length = res.body.readUInt32BE(offset + 1);
    const data = res.body.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
    if ((flags & 0x80) === 0) continue;
    const fields = new Map<string, string>();
    for (const line of data.toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    return { code: Number(fields.get("grpc-status")), message: decodeURIComponent(fields.get("grpc-message") ?? "") };
  }
  return grpcStatus(res);
}

const CONNECT_CODES: Record<string, number> = {
  canceled: 1,
  unknown: 2,
  invalid_argument: 3,
  deadline_exceeded: 4,
  not_found: 5,
  already_exists: 6,
  permission_denied: 7,
  resource_exhausted: 8,
  failed_precondition: 9,
  aborted: 10,
  out_of_range: 11,
  unimplemented: 12,
  internal: 13,
  unavailable: 14,
  data_loss: 15,
  unauthenticated: 16,
};

/** Connect unary: an error is a JSON body `{"code": "invalid_argument", "message": …}`; success is code 0. */
export function connectStatus(res: RawResponse): WireStatus {
  if (res.status === 200) return { code: 0, message: "" };
  const error = JSON.parse(res.body.toString("utf8")) as { code?: string; message?: string };
  return { code: CONNECT_CODES[error.code ?? ""] ?? -1, message: error.message ?? "" };
}

/** Connect streaming: the last frame (flag 0x02) is the end-stream JSON, `{"error": {…}}` on failure. */
export function connectStreamStatus(res: RawResponse): WireStatus {
  let offset = 0;
  while (offset + 5 <= res.body.length) {
    const flags = res.body[offset] ?? 0;
    const length = res.body.readUInt32BE(offset + 1);
    const data = res.body.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
    if ((flags & 0x02) === 0) continue;
    const end = JSON.parse(data.toString("utf8")) as { error?: { code?: string; message?: string } };
    if (end.error === undefined) return { code: 0, message: "" };
    return { code: CONNECT_CODES[end.error.code ?? ""] ?? -1, message: end.error.message ?? "" };
  }
  throw new Error(`no end-stream frame in a ${res.status} response of ${res.body.length} bytes`);
}
