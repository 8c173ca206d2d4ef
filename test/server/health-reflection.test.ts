import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { create, createFileRegistry, fromBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import {
  ServerReflection as ReflectionV1,
  type ServerReflectionRequest,
  type ServerReflectionRequestSchema,
  type ServerReflectionResponse,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { ACME_KEY, answerResult, startServer, waitFor, type Running } from "./helpers.js";

const run = promisify(execFile);
const BUF = path.join(PACKAGE_ROOT, "node_modules/.bin/buf");

let s: Running;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe("grpc.health.v1", () => {
  test("Check: the server and AgentService are SERVING, an unknown service is NOT_FOUND", async () => {
    const health = createClient(Health, s.transport(null));
    expect((await health.check({ service: "" })).status).toBe(Status.SERVING);
    expect((await health.check({ service: "frontdesk.v1.AgentService" })).status).toBe(Status.SERVING);
    const err = await health.check({ service: "nope.v1.Nope" }).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.NotFound });
  });

  test("List", async () => {
    const { statuses } = await createClient(Health, s.transport(null)).list({});
    expect(Object.fromEntries(Object.entries(statuses).map(([k, v]) => [k, v.status]))).toEqual({
      "": Status.SERVING,
      "frontdesk.v1.AgentService": Status.SERVING,
    });
  });

  test("Watch: SERVING, then NOT_SERVING when shutdown begins, then the stream ends", async () => {
    const own = await startServer();
    const seen: Status[] = [];
    const watching = (async () => {
      for await (const m of createClient(Health, own.transport(null)).watch({ service: "frontdesk.v1.AgentService" })) seen.push(m.status);
    })();
    await waitFor(() => seen.length === 1);
    await own.close();
    await watching;
    expect(seen).toEqual([Status.SERVING, Status.NOT_SERVING]);
  });

  test("Watch of an unknown service reports SERVICE_UNKNOWN", async () => {
    const controller = new AbortController();
    const seen: Status[] = [];
    const watching = (async () => {
      for await (const m of createClient(Health, s.transport(null)).watch({ service: "nope" }, { signal: controller.signal })) {
        seen.push(m.status);
        controller.abort();
      }
    })().catch((e: unknown) => ConnectError.from(e));
    const err = await watching;
    expect(seen).toEqual([Status.SERVICE_UNKNOWN]);
    expect(err).toMatchObject({ code: Code.Canceled });
  });
});

describe("server reflection, driven by hand", () => {
  /** One bidi call: send every request, collect one response per request. */
  async function reflect(requests: MessageInitShape<typeof ServerReflectionRequestSchema>[]): Promise<ServerReflectionResponse[]> {
    const client = createClient(ReflectionV1, s.transport(null));
    async function* send() {
      yield* requests;
    }
    const out: ServerReflectionResponse[] = [];
    for await (const res of client.serverReflectionInfo(send())) out.push(res);
    return out;
  }

  function fileNames(res: ServerReflectionResponse | undefined): string[] {
    if (res?.messageResponse.case !== "fileDescriptorResponse") return [];
    return res.messageResponse.value.fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b).name);
  }

  test("list_services, file_containing_symbol, file_by_filename and NOT_FOUND on one stream", async () => {
    const [list, bySymbol, byMethod, byFile, unknown] = await reflect([
      { host: "h", messageRequest: { case: "listServices", value: "" } },
      { messageRequest: { case: "fileContainingSymbol", value: "frontdesk.v1.AgentService" } },
      { messageRequest: { case: "fileContainingSymbol", value: "frontdesk.v1.AgentService.StreamTurn" } },
      { messageRequest: { case: "fileByFilename", value: "frontdesk/v1/turn.proto" } },
      { messageRequest: { case: "fileContainingSymbol", value: "frontdesk.v1.Nope" } },
    ]);
    expect(list?.validHost).toBe("h");
    expect(list?.originalRequest?.messageRequest.case).toBe("listServices");
    expect(list?.messageResponse.case === "listServicesResponse" && list.messageResponse.value.service.map((x) => x.name)).toEqual([
      "frontdesk.v1.AgentService",
      "grpc.health.v1.Health",
      "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection",
    ]);
    // The file first, then its imports: every file before the files it imports.
    expect(fileNames(bySymbol)).toEqual([
      "frontdesk/v1/agent_service.proto",
      "frontdesk/v1/watch.proto",
      "frontdesk/v1/thread.proto",
      "frontdesk/v1/turn.proto",
      "google/protobuf/timestamp.proto",
      "google/protobuf/struct.proto",
    ]);
    expect(fileNames(byMethod)[0]).toBe("frontdesk/v1/agent_service.proto");
    expect(fileNames(byFile)).toEqual(["frontdesk/v1/turn.proto", "google/protobuf/timestamp.proto", "google/protobuf/struct.proto"]);
    expect(unknown?.messageResponse).toEqual(expect.objectContaining({ case: "errorResponse", value: expect.objectContaining({ errorCode: Code.NotFound }) }));
  });

  test("the descriptors are complete: a registry built from them knows every method and message", async () => {
    const [agent, message] = await reflect([
      { messageRequest: { case: "fileContainingSymbol", value: "frontdesk.v1.AgentService" } },
      { messageRequest: { case: "fileContainingSymbol", value: "frontdesk.v1.HandoffContext" } },
    ]);
    expect(fileNames(message)[0]).toBe("frontdesk/v1/turn.proto");
    const bytes = agent?.messageResponse.case === "fileDescriptorResponse" ? agent.messageResponse.value.fileDescriptorProto : [];
    // A FileDescriptorSet lists dependencies first: the reverse of the response's order.
    const set = create(FileDescriptorSetSchema, { file: bytes.map((b) => fromBinary(FileDescriptorProtoSchema, b)).reverse() });
    const registry = createFileRegistry(set);
    expect(registry.getService("frontdesk.v1.AgentService")?.methods.map((m) => m.name)).toEqual([
      "StreamTurn",
      "Turn",
      "GetThread",
      "WatchThread",
      "WatchTenant",
      "DeleteThread",
      "DeleteUserMemory",
    ]);
    expect(registry.getMessage("frontdesk.v1.HandoffContext")?.fields.map((f) => f.name)).toContain("user_profile");
  });

  test("v1alpha answers too", async () => {
    const client = createClient(ReflectionV1Alpha, s.transport(null));
    async function* send() {
      yield { messageRequest: { case: "listServices" as const, value: "" } };
    }
    const names: string[] = [];
    for await (const res of client.serverReflectionInfo(send())) {
      if (res.messageResponse.case === "listServicesResponse") names.push(...res.messageResponse.value.service.map((x) => x.name));
    }
    expect(names).toContain("frontdesk.v1.AgentService");
  });

  test("an empty request is answered with an error, not a broken stream", async () => {
    const [res] = await reflect([{} satisfies Partial<ServerReflectionRequest>]);
    expect(res?.messageResponse.case).toBe("errorResponse");
  });
});

describe("buf curl against the live server (no proto files)", () => {
  test("--list-methods via reflection", async () => {
    const { stdout } = await run(BUF, ["curl", "--list-methods", "--http2-prior-knowledge", `http://127.0.0.1:${s.port}`]);
    expect(stdout.trim().split("\n")).toEqual([
      "frontdesk.v1.AgentService/DeleteThread",
      "frontdesk.v1.AgentService/DeleteUserMemory",
      "frontdesk.v1.AgentService/GetThread",
      "frontdesk.v1.AgentService/StreamTurn",
      "frontdesk.v1.AgentService/Turn",
      "frontdesk.v1.AgentService/WatchTenant",
      "frontdesk.v1.AgentService/WatchThread",
      "grpc.health.v1.Health/Check",
      "grpc.health.v1.Health/List",
      "grpc.health.v1.Health/Watch",
      "grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    ]);
  });

  test("a reflective call of AgentService/Turn with JSON and the bearer header", async () => {
    s.fake.script = async () => ({ kind: "completed", result: answerResult });
    const { stdout } = await run(BUF, [
      "curl",
      "--http2-prior-knowledge",
      "-H",
      `authorization: Bearer ${ACME_KEY}`,
      "-d",
      JSON.stringify({ threadId: "t-curl", userId: "u-1", text: "Is third-party cover mandatory?" }),
      `http://127.0.0.1:${s.port}/frontdesk.v1.AgentService/Turn`,
    ]);
    const body = JSON.parse(stdout) as { result: { answer: { text: string; kind: string } } };
    expect(body.result.answer.kind).toBe("ANSWER_KIND_GROUNDED");
    expect(s.fake.calls.at(-1)?.input).toMatchObject({ tenantId: "acme", threadId: "t-curl" });
  });

  test("the same over the gRPC protocol, with the v1alpha reflection fallback", async () => {
    const { stdout } = await run(BUF, [
      "curl",
      "--http2-prior-knowledge",
      "--protocol",
      "grpc",
      "--reflect-protocol",
      "grpc-v1alpha",
      "-d",
      "{}",
      `http://127.0.0.1:${s.port}/grpc.health.v1.Health/Check`,
    ]);
    expect(JSON.parse(stdout)).toEqual({ status: "SERVING" });
  });
});
