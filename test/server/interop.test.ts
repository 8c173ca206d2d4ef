import * as grpc from "@grpc/grpc-js";
import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { ThreadClosedSchema } from "../../gen/frontdesk/v1/thread_pb.js";
import { EscalationReason } from "../../gen/frontdesk/v1/turn_pb.js";
import { decodeStatus, loadService, metadata, serverStream, unary } from "../support/grpc-js.js";
import { ACME_KEY, answerResult, escalation, progress, startServer, type Running } from "./helpers.js";

/** The shapes these tests read from proto-loader's plain objects (enums as strings, oneofs named). */
interface PlainTurnResult {
  threadId: string;
  outcome: string;
  answer?: { text: string; kind: string; citations: { chunkId: string }[] };
}
interface PlainStreamEvent {
  event: "progress" | "result";
  progress?: { node: string; seq: number; phase: string };
  result?: PlainTurnResult;
}

const request = { threadId: "t-1", userId: "u-1", text: "Is third-party cover mandatory?" };

let s: Running;
let client: grpc.Client;
const service = loadService();

beforeAll(async () => {
  s = await startServer();
  client = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await s.close();
});
beforeEach(() => {
  s.fake.script = async (_input, { onProgress }) => {
    onProgress?.(progress(1, "triage", "started"));
    onProgress?.(progress(2, "triage", "completed"));
    return { kind: "completed", result: answerResult };
  };
});

describe("plain gRPC (@grpc/grpc-js + @grpc/proto-loader)", () => {
  test("unary Turn", async () => {
    const res = (await unary(client, service.Turn, request, metadata(ACME_KEY))) as { result: PlainTurnResult };
    expect(res.result.threadId).toBe("t-1");
    expect(res.result.outcome).toBe("answer");
    expect(res.result.answer?.kind).toBe("ANSWER_KIND_GROUNDED");
    expect(res.result.answer?.citations.map((c) => c.chunkId)).toEqual(["motor-tp-en#0", "motor-body-en#2"]);
    expect(s.fake.calls.at(-1)?.input.tenantId).toBe("acme");
  });

  test("server-streaming StreamTurn", async () => {
    const events = (await serverStream(client, service.StreamTurn, { turn: request }, metadata(ACME_KEY))) as PlainStreamEvent[];
    expect(events.map((e) => e.event)).toEqual(["progress", "progress", "result"]);
    expect(events.map((e) => e.progress?.seq)).toEqual([1, 2, undefined]);
    expect(events[1]?.progress?.phase).toBe("PHASE_COMPLETED");
    expect(events[2]?.result?.answer?.text).toBe(answerResult.outcome.kind === "answer" ? answerResult.outcome.text : "");
  });

  test("UNAUTHENTICATED without a key", async () => {
    const err = (await unary(client, service.Turn, request, metadata(null)).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  test("FAILED_PRECONDITION carries ThreadClosed in grpc-status-details-bin", async () => {
    s.fake.script = async () => ({ kind: "thread_closed", handoff: escalation });
    const err = (await unary(client, service.Turn, request, metadata(ACME_KEY)).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    const [raw] = err.metadata.get("grpc-status-details-bin");
    expect(raw).toBeInstanceOf(Buffer);
    const status = decodeStatus(raw as Buffer);
    expect(status.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(status.details.map((d) => d.typeUrl)).toEqual(["type.googleapis.com/frontdesk.v1.ThreadClosed"]);
    const detail = fromBinary(ThreadClosedSchema, status.details[0]?.value ?? new Uint8Array());
    expect(detail.threadId).toBe("t-1");
    expect(detail.handoff?.reason).toBe(EscalationReason.RESTRICTED_INTENT);
    expect(detail.handoff?.handoffContext?.rewrittenQuery).toBe("dispute claim payout");
  });

  test("INVALID_ARGUMENT names the field", async () => {
    const err = (await unary(client, service.Turn, { ...request, threadId: "" }, metadata(ACME_KEY)).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toBe("thread_id: must be 1-128 characters of [A-Za-z0-9._:-]");
  });
});

describe("gRPC-Web (Connect's gRPC-Web transport)", () => {
  const grpcWeb = () =>
    createClient(
      AgentService,
      createGrpcWebTransport({
        baseUrl: s.baseUrl,
        httpVersion: "2",
        interceptors: [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${ACME_KEY}`);
            return next(req);
          },
        ],
      }),
    );

  test("unary and streaming", async () => {
    const { result } = await grpcWeb().turn(request);
    expect(result?.outcome.case).toBe("answer");
    const cases: (string | undefined)[] = [];
    for await (const m of grpcWeb().streamTurn({ turn: request })) cases.push(m.event.case);
    expect(cases).toEqual(["progress", "progress", "result"]);
  });

  test("the ThreadClosed detail survives gRPC-Web too", async () => {
    s.fake.script = async () => ({ kind: "thread_closed", handoff: escalation });
    const err = await grpcWeb()
      .turn(request)
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toBeInstanceOf(ConnectError);
    if (!(err instanceof ConnectError)) return;
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(err.findDetails(ThreadClosedSchema)[0]?.handoff?.reason).toBe(EscalationReason.RESTRICTED_INTENT);
  });
});
