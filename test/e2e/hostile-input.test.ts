import * as grpc from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentSchema } from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Thread } from "../../gen/frontdesk/v1/thread_pb.js";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { createOfflineModelProvider } from "../../src/models/offline/index.js";
import type { ModelProvider } from "../../src/models/provider.js";
import { loadService, metadata } from "../support/grpc-js.js";
import {
  concat,
  connectStatus,
  connectStreamStatus,
  envelope,
  grpcStatus,
  grpcWebStatus,
  lengthDelimited,
  rawRequest,
  type RawResponse,
  type WireStatus,
} from "../support/raw-http2.js";
import { startRealServer, type RealServer } from "./support.js";

// Every case here is bad input sent to the real application (offline model, bundled corpus,
// in-memory threads): each asserts the status code and message a caller gets, and that the thread
// it named is exactly as it was — no turn recorded, nothing half-written.

const THREAD = "hostile-1";
/** Two bytes that are not UTF-8: 0xC3 starts a two-byte sequence, 0x28 ("(") cannot continue it. */
const NOT_UTF8 = Uint8Array.from([0x68, 0x69, 0xc3, 0x28]);

/** A TurnRequest on the wire, field by field (thread_id = 1, user_id = 2, text = 3, request_id = 4). */
function turnBytes(fields: { threadId?: Uint8Array | string; userId?: Uint8Array | string; text?: Uint8Array | string; requestId?: Uint8Array | string }): Uint8Array {
  return concat([
    lengthDelimited(1, fields.threadId ?? THREAD),
    lengthDelimited(2, fields.userId ?? "u-1"),
    lengthDelimited(3, fields.text ?? "What is the minimum deductible for motor body insurance?"),
    ...(fields.requestId === undefined ? [] : [lengthDelimited(4, fields.requestId)]),
  ]);
}

const TURN = "/frontdesk.v1.AgentService/Turn";
const STREAM_TURN = "/frontdesk.v1.AgentService/StreamTurn";
const UPSERT = "/frontdesk.v1.DocumentService/UpsertDocuments";
const GRPC = { "content-type": "application/grpc", te: "trailers" };
const GRPC_WEB = { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" };
const CONNECT_PROTO = { "content-type": "application/proto", "connect-protocol-version": "1" };
const CONNECT_JSON = { "content-type": "application/json", "connect-protocol-version": "1" };
const CONNECT_STREAM = { "content-type": "application/connect+proto", "connect-protocol-version": "1" };

let server: RealServer;
let baseUrl: string;
let before: Thread;

async function thread(): Promise<Thread> {
  return (await server.client.getThread({ threadId: THREAD })).thread!;
}

async function documentIds(): Promise<string[]> {
  const ids: string[] = [];
  let pageToken = "";
  do {
    const page = await server.documents.listDocuments({ pageToken, pageSize: 1_000 });
    ids.push(...page.documents.map((d) => d.id));
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  return ids.sort();
}

beforeAll(async () => {
  server = await startRealServer();
  baseUrl = `http://127.0.0.1:${server.port}`;
  await server.client.turn(create(TurnRequestSchema, { threadId: THREAD, userId: "u-1", text: "Hello" }));
  before = await thread();
  expect(before.turnCount).toBe(1);
});
afterAll(() => server.close());

/** The status a raw request got, read the way its protocol carries it. */
type Reader = (res: RawResponse) => WireStatus;

describe("malformed messages are INVALID_ARGUMENT naming the field, never INTERNAL, and the thread is untouched", () => {
  const cases: [string, string, Record<string, string>, Uint8Array, Reader, string][] = [
    ["gRPC Turn, invalid UTF-8 in text", TURN, GRPC, envelope(turnBytes({ text: NOT_UTF8 })), grpcStatus, "text: not valid UTF-8"],
    ["gRPC Turn, invalid UTF-8 in user_id", TURN, GRPC, envelope(turnBytes({ userId: NOT_UTF8 })), grpcStatus, "user_id: not valid UTF-8"],
    ["gRPC Turn, invalid UTF-8 in request_id", TURN, GRPC, envelope(turnBytes({ requestId: NOT_UTF8 })), grpcStatus, "request_id: not valid UTF-8"],
    ["gRPC StreamTurn, invalid UTF-8 in turn.text", STREAM_TURN, GRPC, envelope(lengthDelimited(1, turnBytes({ text: NOT_UTF8 }))), grpcStatus, "turn.text: not valid UTF-8"],
    [
      "gRPC Turn, text's length runs past the message",
      TURN,
      GRPC,
      envelope(concat([lengthDelimited(1, THREAD), lengthDelimited(2, "u-1"), Uint8Array.from([0x1a, 0x50, 0x68])])),
      grpcStatus,
      "text: not a valid protobuf field (premature EOF)",
    ],
    ["gRPC Turn, bytes that are no protobuf message", TURN, GRPC, envelope(Uint8Array.from([0x0f, 0xff, 0xff])), grpcStatus, "request: not a valid protobuf message"],
    ["gRPC-Web Turn, invalid UTF-8 in text", TURN, GRPC_WEB, envelope(turnBytes({ text: NOT_UTF8 })), grpcWebStatus, "text: not valid UTF-8"],
    ["Connect unary binary, invalid UTF-8 in text", TURN, CONNECT_PROTO, turnBytes({ text: NOT_UTF8 }), connectStatus, "text: not valid UTF-8"],
    [
      "Connect unary JSON, invalid UTF-8 in text",
      TURN,
      CONNECT_JSON,
      concat([Buffer.from(`{"threadId":"${THREAD}","userId":"u-1","text":"`), NOT_UTF8, Buffer.from('"}')]),
      connectStatus,
      "request: not valid UTF-8",
    ],
    [
      "Connect streaming StreamTurn, invalid UTF-8 in turn.text",
      STREAM_TURN,
      CONNECT_STREAM,
      envelope(lengthDelimited(1, turnBytes({ text: NOT_UTF8 }))),
      connectStreamStatus,
      "turn.text: not valid UTF-8",
    ],
    [
      "gRPC Turn, a compressed frame without a grpc-encoding",
      TURN,
      GRPC,
      envelope(turnBytes({}), 1),
      grpcStatus,
      "request: compressed message without an encoding (set grpc-encoding)",
    ],
  ];

  it.each(cases)("%s", async (_name, path, headers, body, read, message) => {
    const status = read(await rawRequest(baseUrl, path, headers, body));
    expect(status).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      message: message.startsWith("request: not a valid protobuf message") ? expect.stringMatching(/^request: not a valid protobuf message/u) : message,
    });
    expect(await thread()).toEqual(before);
  });

  it("an unsupported grpc-encoding is UNIMPLEMENTED, naming the encodings the server accepts", async () => {
    const res = await rawRequest(baseUrl, TURN, { ...GRPC, "grpc-encoding": "snappy" }, envelope(turnBytes({}), 1));
    expect(grpcStatus(res)).toEqual({ code: grpc.status.UNIMPLEMENTED, message: 'unknown compression "snappy": supported encodings are gzip,br' });
    expect(res.trailers["grpc-accept-encoding"] ?? res.headers["grpc-accept-encoding"]).toBe("gzip,br");
    expect(await thread()).toEqual(before);
  });

  it("DocumentService: invalid UTF-8 in a document's title names the document, and nothing is written", async () => {
    const ids = await documentIds();
    const document = toBinary(DocumentSchema, create(DocumentSchema, { id: "hostile-doc", title: "T", product: "p", domain: "motor", lang: "en", body: "Body text." }));
    const bad = concat([document, lengthDelimited(2, NOT_UTF8)]); // a later occurrence of a field wins: the title is now the bad bytes
    const body = envelope(concat([lengthDelimited(1, document), lengthDelimited(1, bad)]));
    expect(grpcStatus(await rawRequest(baseUrl, UPSERT, GRPC, body))).toEqual({ code: grpc.status.INVALID_ARGUMENT, message: "documents[1].title: not valid UTF-8" });
    expect(await documentIds()).toEqual(ids);
  });
});

describe("control characters and blank text", () => {
  const turnWith = (patch: Record<string, string>) => server.client.turn(create(TurnRequestSchema, { threadId: THREAD, userId: "u-1", text: "hello", ...patch }));
  const refused = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error("expected INVALID_ARGUMENT");
      },
      (e: unknown) => ConnectError.from(e),
    );

  it.each([
    ["zero-width characters only", { text: "\u200B\u200C\u200D\u2060\uFEFF" }, "text: must not be blank"],
    ["zero-width characters, spaces and controls", { text: " \u200B\u0007\n\t\u0085\u00A0" }, "text: must not be blank"],
    ["a NUL in text", { text: "hello\u0000world" }, "text: must not contain control characters (U+0000 at character 6)"],
    ["an escape sequence in text", { text: "hi \u001b[2J" }, "text: must not contain control characters (U+001B at character 4)"],
    ["a C1 control in text", { text: "hi\u0085there" }, "text: must not contain control characters (U+0085 at character 3)"],
    ["a control character in thread_id", { threadId: "t\u0007" }, "thread_id: must not contain control characters (U+0007 at character 2)"],
    ["a control character in user_id", { userId: "u\u0000" }, "user_id: must not contain control characters (U+0000 at character 2)"],
    ["a control character in request_id", { requestId: "r\u009b1" }, "request_id: must not contain control characters (U+009B at character 2)"],
  ])("%s: INVALID_ARGUMENT, the thread untouched", async (_name, patch, message) => {
    const error = await refused(turnWith(patch));
    expect({ code: error.code, message: error.rawMessage }).toEqual({ code: Code.InvalidArgument, message });
    expect(await thread()).toEqual(before);
  });

  it("newlines and tabs are text; a ZWNJ inside Persian words is a letter joiner, not blank", async () => {
    const first = (await server.client.turn(create(TurnRequestSchema, { threadId: "hostile-zwnj", userId: "u-1", text: "می‌خواهم\tبدانم\nحداقل فرانشیز بیمه بدنه چقدر است؟" })))
      .result!;
    expect(first.language).toBe("fa");
    const stored = (await server.client.getThread({ threadId: "hostile-zwnj" })).thread!;
    expect(stored.turnCount).toBe(1);
    expect(stored.recentTurns[0]?.userText).toBe("می‌خواهم\tبدانم\nحداقل فرانشیز بیمه بدنه چقدر است؟");
  });

  it("DocumentService: a control character in a document's title is refused with the document's index, nothing written", async () => {
    const ids = await documentIds();
    const document = (title: string, id: string) => ({ id, title, product: "p", domain: "motor", lang: "en", body: "Body text." });
    const error = await refused(server.documents.upsertDocuments({ documents: [document("Fine", "hostile-a"), document("Glass\u001b[31m cover", "hostile-b")] }));
    expect({ code: error.code, message: error.rawMessage }).toEqual({
      code: Code.InvalidArgument,
      message: "documents[1].title: must not contain control characters (U+001B at character 6)",
    });
    const blank = await refused(server.documents.upsertDocuments({ documents: [document("\u200B \u200D", "hostile-c")] }));
    expect({ code: blank.code, message: blank.rawMessage }).toEqual({ code: Code.InvalidArgument, message: "documents[0].title: must not be blank" });
    expect(await documentIds()).toEqual(ids);
  });
});

describe("deadlines longer than a timer can hold", () => {
  const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;

  it("a 30-day deadline from @grpc/grpc-js is clamped, not an immediate DEADLINE_EXCEEDED: the turn runs and is recorded", async () => {
    const service = loadService();
    const client = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    try {
      const response = await new Promise<{ result: { outcome: string } }>((resolve, reject) =>
        client.makeUnaryRequest(
          service.Turn.path,
          service.Turn.requestSerialize,
          service.Turn.responseDeserialize,
          { threadId: "hostile-deadline", userId: "u-1", text: "What is the minimum deductible for motor body insurance?" },
          metadata(null),
          { deadline: Date.now() + THIRTY_DAYS_MS },
          (err, res) => (err ? reject(err) : resolve(res as { result: { outcome: string } })),
        ),
      );
      expect(response.result.outcome).toBe("answer");
      expect((await server.client.getThread({ threadId: "hostile-deadline" })).thread?.turnCount).toBe(1);
    } finally {
      client.close();
    }
  });

  it("a 30-day deadline does not lift FRONTDESK_TURN_TIMEOUT_MS: a model that never answers still ends in time", async () => {
    const offline = createOfflineModelProvider();
    const models: ModelProvider = {
      id: "never-answers",
      async invoke(role, input, options) {
        if (role === "generate") await new Promise(() => undefined); // ignores its signal too
        return offline.invoke(role, input, options);
      },
    };
    const limited = await startRealServer({ FRONTDESK_TURN_TIMEOUT_MS: "1500" }, { models });
    const client = new grpc.Client(`127.0.0.1:${limited.port}`, grpc.credentials.createInsecure());
    const service = loadService();
    try {
      const started = Date.now();
      const outcome = await new Promise<{ err: grpc.ServiceError | null; res: unknown }>((resolve) =>
        client.makeUnaryRequest(
          service.Turn.path,
          service.Turn.requestSerialize,
          service.Turn.responseDeserialize,
          { threadId: "hostile-limit", userId: "u-1", text: "What is the minimum deductible for motor body insurance?" },
          metadata(null),
          { deadline: Date.now() + THIRTY_DAYS_MS },
          (err, res) => resolve({ err, res }),
        ),
      );
      const took = Date.now() - started;
      expect({ code: outcome.err?.code, details: outcome.err?.details }).toEqual({
        code: grpc.status.DEADLINE_EXCEEDED,
        details: "turn exceeded the server's time limit (1500 ms)",
      });
      expect(took).toBeGreaterThanOrEqual(1_450);
      expect(took).toBeLessThan(1_500 + 2_000);
      // Nothing committed: the thread does not exist.
      const missing = await limited.client.getThread({ threadId: "hostile-limit" }).catch((e: unknown) => ConnectError.from(e));
      expect((missing as ConnectError).code).toBe(Code.NotFound);
    } finally {
      client.close();
      await limited.close();
    }
  });

  it.each([
    ["Connect", CONNECT_PROTO, { "connect-timeout-ms": String(THIRTY_DAYS_MS) }, (b: Uint8Array) => b, connectStatus],
    ["gRPC-Web", GRPC_WEB, { "grpc-timeout": `${THIRTY_DAYS_MS / 1000}S` }, envelope, grpcWebStatus],
    ["gRPC, in hours", GRPC, { "grpc-timeout": "99999999H" }, envelope, grpcStatus],
  ] as const)("the same over %s", async (name, headers, timeout, frame, read) => {
    const threadId = `hostile-deadline-${name.replace(/\W/gu, "").toLowerCase()}`;
    const res = await rawRequest(baseUrl, TURN, { ...headers, ...timeout }, frame(turnBytes({ threadId })));
    expect(read(res)).toEqual({ code: 0, message: "" });
    expect((await server.client.getThread({ threadId })).thread?.turnCount).toBe(1);
  });
});
