import { isUtf8 } from "node:buffer";
import { fromBinary, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Compression, UniversalServerRequest } from "@connectrpc/connect/protocol";

/**
 * The request message, read once at the edge before connect-es parses it, so that a message the
 * caller got wrong is INVALID_ARGUMENT naming the field (`text: not valid UTF-8`). connect-es
 * reports any binary decoding failure as INTERNAL ("parse binary: …", before interceptors run, so
 * no handler can translate it) and decodes JSON bodies leniently (invalid UTF-8 became U+FFFD in
 * the stored text). Everything else — a frame connect-es would refuse for another reason (size,
 * count, unknown encoding, broken compression) — is left for connect-es to answer as it does.
 *
 * Only unary and server-streaming calls are read here: their single request message has to
 * arrive whole before the handler runs anyway.
 */
export interface RequestGate {
  check(req: UniversalServerRequest, input: DescMessage): Promise<GateResult>;
}

export type GateResult =
  /** Pass `req` on: the same bytes, replayed. */
  | { kind: "pass"; req: UniversalServerRequest }
  /** Refuse with `error`; `req` carries an empty message instead of the caller's bytes. */
  | { kind: "malformed"; req: UniversalServerRequest; error: ConnectError };

export interface RequestGateOptions {
  /** The largest message connect-es accepts; a bigger body is left for it to refuse. */
  readMaxBytes: number;
  /** The request compressions connect-es is configured with. */
  compressions: readonly Compression[];
}

/** How a protocol frames its request message, by content type. */
interface Framing {
  /** gRPC, gRPC-Web and Connect streaming prefix each message with a flags byte and a length. */
  enveloped: boolean;
  json: boolean;
  /** The header naming the message compression in this protocol. */
  encodingHeader: string;
}

const COMPRESSED_FLAG = 0x01;
const ENVELOPE_HEADER_BYTES = 5;
// protobuf-es's own default nesting limit.
const MAX_DEPTH = 100;

function framingOf(contentType: string | null): Framing | null {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const grpc = /^application\/grpc(?:-web)?(?:\+(proto|json))?$/u.exec(type);
  if (grpc !== null) return { enveloped: true, json: grpc[1] === "json", encodingHeader: "grpc-encoding" };
  const connectStream = /^application\/connect\+(proto|json)$/u.exec(type);
  if (connectStream !== null) return { enveloped: true, json: connectStream[1] === "json", encodingHeader: "connect-content-encoding" };
  const connectUnary = /^application\/(proto|json)$/u.exec(type);
  if (connectUnary !== null) return { enveloped: false, json: connectUnary[1] === "json", encodingHeader: "content-encoding" };
  return null;
}

type Body = { kind: "whole"; bytes: Uint8Array } | { kind: "partial"; replay: AsyncIterable<Uint8Array> };

/** Reads the body up to `limit` bytes; beyond it (or on a read error) hands back a replay of all of it. */
async function readBody(body: AsyncIterable<Uint8Array>, limit: number): Promise<Body> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const it = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await it.next();
      if (next.done === true) return { kind: "whole", bytes: Buffer.concat(chunks, size) };
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size > limit) return { kind: "partial", replay: replay(chunks, it, null) };
    }
  } catch (err) {
    return { kind: "partial", replay: replay(chunks, null, { err }) };
  }
}

async function* replay(chunks: Uint8Array[], rest: AsyncIterator<Uint8Array> | null, failure: { err: unknown } | null): AsyncGenerator<Uint8Array> {
  yield* chunks;
  if (failure !== null) throw failure.err;
  if (rest === null) return;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return;
    yield next.value;
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function envelope(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(ENVELOPE_HEADER_BYTES + message.length);
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, ENVELOPE_HEADER_BYTES);
  return out;
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function fieldPath(path: string, field: DescField, index: number): string {
  const name = path === "" ? field.name : `${path}.${field.name}`;
  return field.fieldKind === "list" ? `${name}[${index}]` : name;
}

/** The message type of a message or repeated-message field, and whether a field holds strings. */
function shapeOf(field: DescField): { message: DescMessage | null; isString: boolean } {
  switch (field.fieldKind) {
    case "scalar":
      return { message: null, isString: field.scalar === ScalarType.STRING };
    case "message":
      return { message: field.message, isString: false };
    case "list":
      if (field.listKind === "message") return { message: field.message, isString: false };
      return { message: null, isString: field.listKind === "scalar" && field.scalar === ScalarType.STRING };
    case "enum":
    case "map":
      return { message: null, isString: false };
    default: {
      const unreachable: never = field;
      throw new Error(`unhandled field kind ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Walks a message that protobuf-es refused and names the first field at fault, as a path of
 * proto field names (`turn.text`, `documents[1].title`); `request` when the fault is in the
 * message's own framing. Null when it finds nothing (the caller then names the message).
 */
export function locateDecodeProblem(desc: DescMessage, bytes: Uint8Array, path = "", depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const here = path === "" ? "request" : path;
  const reader = new BinaryReader(bytes);
  const seen = new Map<number, number>();
  while (reader.pos < reader.len) {
    let fieldNo: number;
    let wireType: WireType;
    try {
      [fieldNo, wireType] = reader.tag();
    } catch (err) {
      return `${here}: not a valid protobuf message (${reason(err)})`;
    }
    const field = desc.fields.find((f) => f.number === fieldNo);
    if (field === undefined) {
      try {
        reader.skip(wireType, fieldNo);
      } catch (err) {
        return `${here}: not a valid protobuf message (${reason(err)})`;
      }
      continue;
    }
    const index = seen.get(fieldNo) ?? 0;
    seen.set(fieldNo, index + 1);
    const name = fieldPath(path, field, index);
    const { message, isString } = shapeOf(field);
    try {
      if (message === null && !isString) {
        reader.skip(wireType, fieldNo);
        continue;
      }
      if (wireType !== WireType.LengthDelimited) return `${name}: not a valid protobuf field (wire type ${wireType}, expected ${WireType.LengthDelimited})`;
      const value = reader.bytes();
      const problem = message === null ? (isUtf8(value) ? null : `${name}: not valid UTF-8`) : locateDecodeProblem(message, value, name, depth + 1);
      if (problem !== null) return problem;
    } catch (err) {
      return `${name}: not a valid protobuf field (${reason(err)})`;
    }
  }
  return null;
}

export function createRequestGate(options: RequestGateOptions): RequestGate {
  const { readMaxBytes, compressions } = options;
  return {
    async check(req, input) {
      const framing = framingOf(req.header.get("content-type"));
      const body = req.body;
      if (framing === null || req.method !== "POST" || body === null || typeof body !== "object" || !(Symbol.asyncIterator in body)) return { kind: "pass", req };
      const encodingName = req.header.get(framing.encodingHeader)?.trim().toLowerCase() ?? "identity";
      const compression = encodingName === "identity" ? null : compressions.find((c) => c.name === encodingName);
      // An encoding the server does not support: connect-es answers UNIMPLEMENTED without reading the body.
      if (compression === undefined) return { kind: "pass", req };

      const read = await readBody(body, readMaxBytes + ENVELOPE_HEADER_BYTES);
      if (read.kind === "partial") return { kind: "pass", req: { ...req, body: read.replay } };
      const passed: GateResult = { kind: "pass", req: { ...req, body: once(read.bytes) } };
      const refuse = (message: string): GateResult => {
        const header = new Headers(req.header);
        header.delete(framing.encodingHeader);
        const empty = framing.json ? new TextEncoder().encode("{}") : new Uint8Array(0);
        return {
          kind: "malformed",
          req: { ...req, header, body: once(framing.enveloped ? envelope(empty) : empty) },
          error: new ConnectError(message, Code.InvalidArgument),
        };
      };

      let data = read.bytes;
      let compressed = !framing.enveloped && compression !== null;
      if (framing.enveloped) {
        const bytes = read.bytes;
        // Exactly one data frame, whole; anything else is connect-es's to refuse.
        if (bytes.length < ENVELOPE_HEADER_BYTES) return passed;
        const flags = bytes[0] ?? 0;
        const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
        if (bytes.length !== ENVELOPE_HEADER_BYTES + length || (flags & ~COMPRESSED_FLAG) !== 0) return passed;
        data = bytes.subarray(ENVELOPE_HEADER_BYTES);
        compressed = (flags & COMPRESSED_FLAG) !== 0;
        if (compressed && compression === null) return refuse(`request: compressed message without an encoding (set ${framing.encodingHeader})`);
      }
      if (compressed && compression !== null) {
        try {
          data = await compression.decompress(data, readMaxBytes);
        } catch {
          return passed;
        }
      }

      if (framing.json) return isUtf8(data) ? passed : refuse("request: not valid UTF-8");
      try {
        fromBinary(input, data);
        return passed;
      } catch (err) {
        return refuse(locateDecodeProblem(input, data) ?? `request: not a valid protobuf message (${reason(err)})`);
      }
    },
  };
}
