import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { ThreadClosedSchema } from "../../gen/frontdesk/v1/thread_pb.js";
import type { TurnAttempt } from "../service/types.js";
import { escalationToWire } from "../wire/index.js";

/** The attempt kinds that are not a result: each has exactly one wire error. */
export type RefusedAttempt = Exclude<TurnAttempt, { kind: "completed" } | { kind: "replayed" }>;

function assertNever(value: never): never {
  throw new Error(`unhandled attempt: ${JSON.stringify(value)}`);
}

export function refusedAttemptError(attempt: RefusedAttempt, threadId: string): ConnectError {
  switch (attempt.kind) {
    case "thread_closed":
      // The stored handoff rides along as a typed detail, so the caller can re-run its transfer
      // without another round trip (grpc-status-details-bin on gRPC, "details" on Connect).
      return new ConnectError("thread was handed over to a person", Code.FailedPrecondition, undefined, [
        { desc: ThreadClosedSchema, value: { threadId, handoff: escalationToWire(attempt.handoff) } },
      ]);
    case "busy":
      return new ConnectError("turn in progress", Code.Aborted);
    case "request_conflict":
      return new ConnectError("request_id: already used with a different text", Code.InvalidArgument);
    case "unknown_domain":
      return new ConnectError(`domain: must be one of: ${attempt.domains.length > 0 ? attempt.domains.join(", ") : "(no documents yet)"}`, Code.InvalidArgument);
    default:
      return assertNever(attempt);
  }
}

export interface ErrorContext {
  /** The signal the failed work ran under; when it fired, its reason is the answer. */
  signal: AbortSignal;
  logger: Logger;
  /** e.g. "frontdesk.v1.AgentService/Turn", for the log line. */
  procedure: string;
}

/**
 * The one translation of thrown errors to wire errors. Messages of unknown errors never cross the
 * wire: the caller gets a generic INTERNAL, the log gets the original (kept as `cause`).
 */
export function toConnectError(err: unknown, ctx: ErrorContext): ConnectError {
  // Cancellation first: whatever the aborted work threw (AbortError, a wrapped error), the reason
  // on the signal is the truth — CANCELED or DEADLINE_EXCEEDED as Connect or our deadline set it.
  if (ctx.signal.aborted) return ConnectError.from(ctx.signal.reason, Code.Canceled);
  if (err instanceof ConnectError) return err;
  if (err instanceof Error && err.name === "StorageUnavailableError") {
    ctx.logger.warn({ err, procedure: ctx.procedure }, "storage unavailable");
    return new ConnectError("storage unavailable, retry with the same request_id", Code.Unavailable, undefined, undefined, err);
  }
  if (err instanceof Error && err.name === "RetrievalUnavailableError") {
    ctx.logger.warn({ err, procedure: ctx.procedure }, "retrieval unavailable");
    return new ConnectError("retrieval unavailable (embedder or vector store), retry later", Code.Unavailable, undefined, undefined, err);
  }
  if (err instanceof Error && err.name === "InvalidPageTokenError") {
    return new ConnectError("page_token: not a token this service issued", Code.InvalidArgument, undefined, undefined, err);
  }
  if (err instanceof Error && err.name === "WatchLimitError") {
    return new ConnectError("too many watchers on this server, retry later", Code.ResourceExhausted, undefined, undefined, err);
  }
  ctx.logger.error({ err, procedure: ctx.procedure }, "turn failed with an unexpected error");
  return new ConnectError("internal error", Code.Internal, undefined, undefined, err);
}
