import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";

export interface AgentClientOptions {
  /** e.g. http://127.0.0.1:8080 (https with TLS). */
  baseUrl: string;
  /** Sent as `authorization: Bearer <key>`; omitted when empty. */
  apiKey?: string | undefined;
  /** A PEM certificate to trust (a self-signed server). */
  ca?: string | Buffer | undefined;
}

export interface AgentClient {
  client: Client<typeof AgentService>;
  /** Ends the HTTP/2 session, so the process can exit. */
  close(): void;
}

function bearer(apiKey: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${apiKey}`);
    return next(req);
  };
}

/** The generated Connect client of AgentService over one HTTP/2 session (chat, eval --target). */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const sessionManager = new Http2SessionManager(options.baseUrl, undefined, options.ca !== undefined ? { ca: options.ca } : undefined);
  const client = createClient(
    AgentService,
    createConnectTransport({
      baseUrl: options.baseUrl,
      httpVersion: "2",
      sessionManager,
      interceptors: options.apiKey !== undefined && options.apiKey !== "" ? [bearer(options.apiKey)] : [],
    }),
  );
  return { client, close: () => sessionManager.abort() };
}
