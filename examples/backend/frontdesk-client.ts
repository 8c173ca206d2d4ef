/**
 * The connection to frontdesk, made once when your backend starts and shared by every request.
 *
 * One HTTP/2 connection carries all calls at once (each call is a stream on it), so do not create
 * a client per user message. The imports are the code generated from frontdesk's protos — here
 * the repository's gen/; in your project, the output of `buf generate` on proto/frontdesk/v1
 * with protoc-gen-es — and @connectrpc/connect(-node).
 */
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { DocumentService } from "../../gen/frontdesk/v1/document_service_pb.js";

export interface FrontdeskClients {
  /** Turns and threads. */
  agent: Client<typeof AgentService>;
  /** Here only for GetChunk: a citation's chunk id to the passage it cites. */
  documents: Client<typeof DocumentService>;
  /** Closes the connection (at shutdown), so the process can exit. */
  close(): void;
}

export function connectFrontdesk(options: {
  /** e.g. "http://frontdesk:8080" (plain HTTP/2 inside your network) or "https://…" with TLS. */
  baseUrl: string;
  /** Your API key. It decides the tenant: every thread and document is scoped to it. */
  apiKey: string;
}): FrontdeskClients {
  const apiKey: Interceptor = (next) => (request) => {
    request.header.set("authorization", `Bearer ${options.apiKey}`);
    return next(request);
  };
  const sessionManager = new Http2SessionManager(options.baseUrl);
  // The gRPC protocol: what any other gRPC stack speaks too. createConnectTransport works the same.
  const transport = createGrpcTransport({ baseUrl: options.baseUrl, sessionManager, interceptors: [apiKey] });
  return {
    agent: createClient(AgentService, transport),
    documents: createClient(DocumentService, transport),
    close: () => sessionManager.abort(),
  };
}
