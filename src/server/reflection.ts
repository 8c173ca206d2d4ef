import { toBinary, type DescFile, type DescService } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectRouter } from "@connectrpc/connect";
import { ServerReflection as ReflectionV1, type ServerReflectionRequest as RequestV1 } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ReflectionV1Alpha, type ServerReflectionRequest as RequestV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";

/** The two versions' responses have the same shape; this is the part that differs per request. */
type MessageResponse =
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "listServicesResponse"; value: { service: { name: string }[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } };

type MessageRequest = RequestV1["messageRequest"] | RequestV1Alpha["messageRequest"];

/** The served services, indexed by file name and by fully-qualified symbol. */
export interface ReflectionIndex {
  readonly services: readonly string[];
  answer(request: MessageRequest): MessageResponse;
}

function notFound(message: string): MessageResponse {
  return { case: "errorResponse", value: { errorCode: Code.NotFound, errorMessage: message } };
}

/**
 * The file first, then its transitive imports, each once (what grpcurl and buf curl expect),
 * every file before the files it imports: read backwards, the list is a valid
 * FileDescriptorSet order (each file after its dependencies), also when imports share files.
 */
function withDependencies(file: DescFile): DescFile[] {
  const seen = new Set<string>();
  const postOrder: DescFile[] = [];
  const visit = (f: DescFile) => {
    if (seen.has(f.name)) return;
    seen.add(f.name);
    for (const dep of f.dependencies) visit(dep);
    postOrder.push(f);
  };
  visit(file);
  return postOrder.reverse();
}

export function createReflectionIndex(services: readonly DescService[]): ReflectionIndex {
  const files = new Map<string, DescFile>();
  const symbols = new Map<string, DescFile>();
  for (const service of services) {
    for (const file of withDependencies(service.file)) {
      if (files.has(file.name)) continue;
      files.set(file.name, file);
      for (const type of nestedTypes(file)) {
        symbols.set(type.typeName, file);
        if (type.kind === "service") {
          for (const method of type.methods) symbols.set(`${type.typeName}.${method.name}`, file);
        }
      }
    }
  }
  // Serialised once: descriptors do not change while the process runs.
  const encoded = new Map<string, Uint8Array>();
  const encode = (file: DescFile): Uint8Array => {
    let bytes = encoded.get(file.name);
    if (bytes === undefined) {
      // `file.proto` is the FileDescriptorProto the generator embedded (its name keeps ".proto").
      bytes = toBinary(FileDescriptorProtoSchema, file.proto);
      encoded.set(file.name, bytes);
    }
    return bytes;
  };
  const filesResponse = (file: DescFile): MessageResponse => ({
    case: "fileDescriptorResponse",
    value: { fileDescriptorProto: withDependencies(file).map(encode) },
  });
  const serviceNames = services.map((s) => s.typeName);

  return {
    services: serviceNames,
    answer(request) {
      switch (request.case) {
        case "listServices":
          return { case: "listServicesResponse", value: { service: serviceNames.map((name) => ({ name })) } };
        case "fileByFilename": {
          // DescFile.name has no ".proto" suffix; requests use the import path with it.
          const file = files.get(request.value.replace(/\.proto$/u, ""));
          return file ? filesResponse(file) : notFound(`file not found: ${request.value}`);
        }
        case "fileContainingSymbol": {
          const file = symbols.get(request.value.replace(/^\./u, ""));
          return file ? filesResponse(file) : notFound(`symbol not found: ${request.value}`);
        }
        case "fileContainingExtension":
          return notFound(`no extensions of ${request.value.containingType} are served`);
        case "allExtensionNumbersOfType":
          return symbols.has(request.value)
            ? { case: "allExtensionNumbersResponse", value: { baseTypeName: request.value, extensionNumber: [] } }
            : notFound(`type not found: ${request.value}`);
        case undefined:
          return { case: "errorResponse", value: { errorCode: Code.InvalidArgument, errorMessage: "empty request" } };
        default: {
          const unhandled: never = request;
          return notFound(`unsupported request ${JSON.stringify(unhandled)}`);
        }
      }
    },
  };
}

/**
 * grpc.reflection.v1 and v1alpha (older grpcurl and buf curl fall back to it). Unauthenticated:
 * it reveals only the public contract, which is what `buf curl` needs to call without protos.
 */
export function createReflectionRoutes(index: ReflectionIndex): (router: ConnectRouter) => void {
  return (router) => {
    router.service(ReflectionV1, {
      async *serverReflectionInfo(requests) {
        for await (const req of requests) {
          yield { validHost: req.host, originalRequest: req, messageResponse: index.answer(req.messageRequest) };
        }
      },
    });
    router.service(ReflectionV1Alpha, {
      async *serverReflectionInfo(requests) {
        for await (const req of requests) {
          yield { validHost: req.host, originalRequest: req, messageResponse: index.answer(req.messageRequest) };
        }
      },
    });
  };
}
