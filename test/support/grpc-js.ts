import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { PACKAGE_ROOT } from "../../src/config/config.js";

/** A plain @grpc/grpc-js client of AgentService, loading the .proto files like any gRPC caller. */
export type Method = grpc.MethodDefinition<object, object>;

export function loadService(): { Turn: Method; StreamTurn: Method; GetThread: Method } {
  const definition = protoLoader.loadSync("frontdesk/v1/agent_service.proto", {
    includeDirs: [path.join(PACKAGE_ROOT, "proto")],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const service = definition["frontdesk.v1.AgentService"];
  if (service === undefined || !("Turn" in service) || !("StreamTurn" in service) || !("GetThread" in service)) {
    throw new Error("frontdesk.v1.AgentService not found in the loaded proto");
  }
  return { Turn: service.Turn as Method, StreamTurn: service.StreamTurn as Method, GetThread: service.GetThread as Method };
}

export function metadata(key: string | null): grpc.Metadata {
  const md = new grpc.Metadata();
  if (key !== null) md.set("authorization", `Bearer ${key}`);
  return md;
}

export function unary(client: grpc.Client, method: Method, request: object, md: grpc.Metadata): Promise<object> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, request, md, (err, res) => {
      if (err) reject(err);
      else resolve(res ?? {});
    });
  });
}

export function serverStream(client: grpc.Client, method: Method, request: object, md: grpc.Metadata): Promise<object[]> {
  return new Promise((resolve, reject) => {
    const call = client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, md);
    const out: object[] = [];
    call.on("data", (m: object) => out.push(m));
    call.on("error", reject);
    call.on("end", () => resolve(out));
  });
}

/**
 * google.rpc.Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
 * decoded by hand, so the test relies on nothing but the wire format a plain gRPC client sees.
 */
export function decodeStatus(bytes: Uint8Array): { code: number; message: string; details: { typeUrl: string; value: Uint8Array }[] } {
  const reader = new BinaryReader(bytes);
  const status: ReturnType<typeof decodeStatus> = { code: 0, message: "", details: [] };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) status.code = reader.int32();
    else if (field === 2) status.message = reader.string();
    else if (field === 3) {
      const anyReader = new BinaryReader(reader.bytes());
      const detail: { typeUrl: string; value: Uint8Array } = { typeUrl: "", value: new Uint8Array() };
      while (anyReader.pos < anyReader.len) {
        const [f, wt] = anyReader.tag();
        if (f === 1) detail.typeUrl = anyReader.string();
        else if (f === 2) detail.value = anyReader.bytes();
        else anyReader.skip(wt);
      }
      status.details.push(detail);
    } else reader.skip(wireType);
  }
  return status;
}
