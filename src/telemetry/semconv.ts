/**
 * The OpenTelemetry semantic-convention attribute names frontdesk sets (semantic conventions
 * 1.45). Copied rather than imported from @opentelemetry/semantic-conventions/incubating, as its
 * authors advise for attributes that are not stable yet (GenAI, the Connect and gRPC specifics).
 */

// RPC (stable): server spans are named by rpc.method.
export const RPC_SYSTEM_NAME = "rpc.system.name";
/** Fully qualified: "frontdesk.v1.AgentService/Turn". */
export const RPC_METHOD = "rpc.method";
/** The gRPC code's name: "OK", "ABORTED". */
export const RPC_STATUS_CODE = "rpc.status_code";
// RPC, the pre-1.38 names most tracing back ends still read (rpc.method is the stable one above).
export const RPC_SYSTEM = "rpc.system";
export const RPC_SERVICE = "rpc.service";
/** The numeric gRPC status, on gRPC and gRPC-Web calls. */
export const RPC_GRPC_STATUS_CODE = "rpc.grpc.status_code";
/** The Connect error code ("invalid_argument"), on failed Connect-protocol calls. */
export const RPC_CONNECT_RPC_ERROR_CODE = "rpc.connect_rpc.error_code";
export const ERROR_TYPE = "error.type";

// GenAI client spans (development status).
export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
export const GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
export const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
export const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";

// Database client spans (stable).
export const DB_SYSTEM_NAME = "db.system.name";
export const DB_NAMESPACE = "db.namespace";
export const DB_OPERATION_NAME = "db.operation.name";
export const DB_QUERY_SUMMARY = "db.query.summary";
export const SERVER_ADDRESS = "server.address";
export const SERVER_PORT = "server.port";
