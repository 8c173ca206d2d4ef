import * as grpc from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { StreamTurnRequestSchema } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { UpsertDocumentsRequestSchema } from "../../gen/frontdesk/v1/document_service_pb.js";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { clampDeadlineHeaders, MAX_DEADLINE_MS } from "../../src/server/deadline.js";
import { locateDecodeProblem } from "../../src/server/request-gate.js";
import { loadService, metadata } from "../support/grpc-js.js";
import { concat, envelope, grpcStatus, lengthDelimited, rawRequest } from "../support/raw-http2.js";
import { ACME_KEY, answerResult, sleep, startServer, untilAborted, type Running } from "./helpers.js";

// What happens to a request at the edge, before connect-es reads it: deadlines clamped to what a
// timer holds, malformed messages located. End to end (with the thread untouched) in
// test/e2e/hostile-input.test.ts.

const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;

describe("clampDeadlineHeaders", () => {
  const clamp = (init: Record<string, string>) => {
    const header = new Headers(init);
    clampDeadlineHeaders(header);
    return Object.fromEntries(header);
  };

  test("a deadline past 2^31 - 1 ms becomes that, in the header's own format", () => {
    expect(MAX_DEADLINE_MS).toBe(2_147_483_647);
    expect(clamp({ "grpc-timeout": "2592000S" })).toEqual({ "grpc-timeout": "2147483S" });
    expect(clamp({ "grpc-timeout": "99999999H" })).toEqual({ "grpc-timeout": "2147483S" });
    expect(clamp({ "connect-timeout-ms": "2592000000" })).toEqual({ "connect-timeout-ms": "2147483647" });
  });

  test("shorter deadlines, and values connect-es refuses itself, are left as they are", () => {
    expect(clamp({ "grpc-timeout": "2147483S", "connect-timeout-ms": "2147483647" })).toEqual({ "grpc-timeout": "2147483S", "connect-timeout-ms": "2147483647" });
    expect(clamp({ "grpc-timeout": "100m" })).toEqual({ "grpc-timeout": "100m" });
    expect(clamp({ "grpc-timeout": "123456789S" })).toEqual({ "grpc-timeout": "123456789S" });
    expect(clamp({ "connect-timeout-ms": "-1" })).toEqual({ "connect-timeout-ms": "-1" });
  });
});

describe("locateDecodeProblem", () => {
  const NOT_UTF8 = Uint8Array.from([0xc3, 0x28]);
  const turn = (patch: Uint8Array) => concat([toBinary(TurnRequestSchema, create(TurnRequestSchema, { threadId: "t-1", userId: "u-1" })), patch]);

  test("names the field, as a path of proto names, with the index of a repeated field", () => {
    expect(locateDecodeProblem(TurnRequestSchema, turn(lengthDelimited(3, NOT_UTF8)))).toBe("text: not valid UTF-8");
    expect(locateDecodeProblem(StreamTurnRequestSchema, lengthDelimited(1, turn(lengthDelimited(2, NOT_UTF8))))).toBe("turn.user_id: not valid UTF-8");
    const doc = (title: Uint8Array | string) => concat([lengthDelimited(1, "d-1"), lengthDelimited(2, title)]);
    const upsert = concat([lengthDelimited(1, doc("ok")), lengthDelimited(1, doc("ok")), lengthDelimited(1, doc(NOT_UTF8))]);
    expect(locateDecodeProblem(UpsertDocumentsRequestSchema, upsert)).toBe("documents[2].title: not valid UTF-8");
  });

  test("a broken field, a wrong wire type, broken framing", () => {
    expect(locateDecodeProblem(TurnRequestSchema, turn(Uint8Array.from([0x1a, 0x05, 0x61])))).toBe("text: not a valid protobuf field (premature EOF)");
    expect(locateDecodeProblem(TurnRequestSchema, turn(Uint8Array.from([0x18, 0x01])))).toBe("text: not a valid protobuf field (wire type 0, expected 2)");
    expect(locateDecodeProblem(TurnRequestSchema, Uint8Array.from([0x0f]))).toBe("request: not a valid protobuf message (illegal tag: field no 1 wire type 7)");
    expect(locateDecodeProblem(StreamTurnRequestSchema, lengthDelimited(1, Uint8Array.from([0x0f])))).toBe(
      "turn: not a valid protobuf message (illegal tag: field no 1 wire type 7)",
    );
  });

  test("a valid message has no problem", () => {
    expect(locateDecodeProblem(TurnRequestSchema, turn(lengthDelimited(3, "hello")))).toBeNull();
  });
});

describe("a 30-day deadline against the server's own turn limit", () => {
  let s: Running;
  let client: grpc.Client;
  const service = loadService();
  beforeAll(async () => {
    s = await startServer({ env: { FRONTDESK_TURN_TIMEOUT_MS: "300" } });
    client = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    client.close();
    await s.close();
  });

  const call = () =>
    new Promise<{ err: grpc.ServiceError | null; ms: number }>((resolve) => {
      const started = Date.now();
      client.makeUnaryRequest(
        service.Turn.path,
        service.Turn.requestSerialize,
        service.Turn.responseDeserialize,
        { threadId: "t-1", userId: "u-1", text: "hi" },
        metadata(ACME_KEY),
        { deadline: Date.now() + THIRTY_DAYS_MS },
        (err) => resolve({ err, ms: Date.now() - started }),
      );
    });

  // A fake turn that takes `ms` unless its signal fires first, as a real turn does.
  const takes =
    (ms: number) =>
    async (_input: unknown, { signal }: { signal?: AbortSignal }) => {
      await Promise.race([sleep(ms), untilAborted(signal)]);
      return { kind: "completed" as const, result: answerResult };
    };

  test("a turn that takes a while is answered, not cut off at once", async () => {
    s.fake.script = takes(50);
    const { err } = await call();
    expect(err).toBeNull();
  });

  test("FRONTDESK_TURN_TIMEOUT_MS still ends a turn that runs too long: DEADLINE_EXCEEDED with the server's message", async () => {
    s.fake.script = async (_input, { signal }) => untilAborted(signal);
    const { err, ms } = await call();
    expect({ code: err?.code, details: err?.details }).toEqual({ code: grpc.status.DEADLINE_EXCEEDED, details: "turn exceeded the server's time limit (300 ms)" });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(s.fake.calls.at(-1)?.signal?.aborted).toBe(true);
  });

  test("the raw header reaches the same clamp: a 30-day grpc-timeout is not DEADLINE_EXCEEDED", async () => {
    s.fake.script = takes(20);
    const body = envelope(toBinary(TurnRequestSchema, create(TurnRequestSchema, { threadId: "t-1", userId: "u-1", text: "hi" })));
    const res = await rawRequest(
      s.baseUrl,
      "/frontdesk.v1.AgentService/Turn",
      { "content-type": "application/grpc", te: "trailers", "grpc-timeout": "2592000S", authorization: `Bearer ${ACME_KEY}` },
      body,
    );
    expect(grpcStatus(res)).toEqual({ code: 0, message: "" });
  });
});
