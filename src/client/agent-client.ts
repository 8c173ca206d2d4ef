import { type ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { ThreadClosedSchema } from "../../gen/frontdesk/v1/thread_pb.js";
import type { NodeProgressEvent } from "../domain/turn.js";
import { escalationFromWire, progressFromWire, turnResultFromWire, type ReceivedEscalation, type ReceivedTurnResult } from "../wire/index.js";

export interface AgentClientOptions {
  /** e.g. http://127.0.0.1:8080 (https with TLS). */
  baseUrl: string;
  /** Sent as `authorization: Bearer <key>`; omitted when empty. */
  apiKey?: string | undefined;
  /** A PEM certificate to trust (a self-signed server). */
  ca?: string | Buffer | undefined;
}

export interface TurnCall {
  threadId: string;
  userId: string;
  text: string;
  domain?: string;
  requestId?: string;
  locale?: string;
}

/** One message of a StreamTurn, in domain terms. */
export type TurnStreamItem = { kind: "progress"; progress: NodeProgressEvent } | { kind: "result"; result: ReceivedTurnResult };

export interface AgentClient {
  /** One turn: every node's progress, then exactly one result. Errors are ConnectErrors with a code. */
  streamTurn(call: TurnCall, options?: { timeoutMs?: number; signal?: AbortSignal }): AsyncIterable<TurnStreamItem>;
  /** The generated client, for the RPCs without a domain wrapper here. */
  raw: Client<typeof AgentService>;
  /** Ends the HTTP/2 session, so the process can exit. */
  close(): void;
}

function bearer(apiKey: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${apiKey}`);
    return next(req);
  };
}

/** FAILED_PRECONDITION on a turn: the stored handoff of the closed thread, when the server sent it. */
export function threadClosedHandoff(error: ConnectError): ReceivedEscalation | undefined {
  const handoff = error.findDetails(ThreadClosedSchema)[0]?.handoff;
  return handoff === undefined ? undefined : escalationFromWire(handoff);
}

/** AgentService over one HTTP/2 session, speaking the domain's types (chat, eval --target). */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const sessionManager = new Http2SessionManager(options.baseUrl, undefined, options.ca !== undefined ? { ca: options.ca } : undefined);
  const raw = createClient(
    AgentService,
    createConnectTransport({
      baseUrl: options.baseUrl,
      httpVersion: "2",
      sessionManager,
      interceptors: options.apiKey !== undefined && options.apiKey !== "" ? [bearer(options.apiKey)] : [],
    }),
  );
  return {
    raw,
    async *streamTurn(call, callOptions = {}) {
      const turn = { threadId: call.threadId, userId: call.userId, text: call.text, domain: call.domain ?? "", requestId: call.requestId ?? "", locale: call.locale ?? "" };
      const stream = raw.streamTurn(
        { turn },
        { ...(callOptions.timeoutMs !== undefined ? { timeoutMs: callOptions.timeoutMs } : {}), ...(callOptions.signal ? { signal: callOptions.signal } : {}) },
      );
      for await (const message of stream) {
        const event = message.event;
        if (event.case === "progress") yield { kind: "progress", progress: progressFromWire(event.value) };
        else if (event.case === "result") yield { kind: "result", result: turnResultFromWire(event.value) };
      }
    },
    close: () => sessionManager.abort(),
  };
}
