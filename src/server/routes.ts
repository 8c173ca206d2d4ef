import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "pino";
import { AgentService, StreamTurnResponseSchema, type StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import type { TurnRequest, TurnResult as WireTurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import type { ThreadEvent as WireThreadEvent } from "../../gen/frontdesk/v1/watch_pb.js";
import type { NodeProgressEvent, TurnInput } from "../domain/turn.js";
import type { ThreadWatch, TurnService } from "../service/types.js";
import type { Config } from "../config/config.js";
import { createAuthInterceptor, createTenantResolver, requireTenant, type TenantResolver } from "./auth.js";
import { refusedAttemptError, toConnectError } from "./errors.js";
import { progressToWire, threadToWire, turnResultToWire, watchItemToWire, watchStartedToWire } from "../wire/index.js";
import { createAsyncQueue } from "./queue.js";
import { validateDeleteUserMemoryRequest, validateGetThreadRequest, validateTurnRequest, type Validation } from "./validate.js";

export interface AgentRoutesOptions {
  turnService: TurnService;
  config: Config;
  logger: Logger;
  /** Defaults to one built from config.auth. */
  tenants?: TenantResolver;
  /** Fires when the server starts shutting down: watch streams end at once instead of holding the shutdown for its grace period. */
  draining?: AbortSignal;
}

function accept<T>(v: Validation<T>): T {
  if (v.kind === "invalid") throw new ConnectError(v.message, Code.InvalidArgument);
  return v.input;
}

function procedure(ctx: HandlerContext): string {
  return `${ctx.service.typeName}/${ctx.method.name}`;
}

interface TurnRun {
  signal: AbortSignal;
  /** Stops the deadline timer. */
  dispose(): void;
}

/**
 * The turn's signal: the caller's (cancel, client deadline, server shutdown) combined with the
 * server-side turn deadline, whose reason is a DEADLINE_EXCEEDED ConnectError so that the same
 * "the signal's reason is the answer" rule in errors.ts covers it.
 */
function startRun(ctxSignal: AbortSignal, timeoutMs: number): TurnRun {
  const local = new AbortController();
  const timer = setTimeout(() => {
    local.abort(new ConnectError(`turn exceeded the server's time limit (${timeoutMs} ms)`, Code.DeadlineExceeded));
  }, timeoutMs);
  return { signal: AbortSignal.any([ctxSignal, local.signal]), dispose: () => clearTimeout(timer) };
}

export function createAgentRoutes(options: AgentRoutesOptions): (router: ConnectRouter) => void {
  const { turnService, config, logger } = options;
  const tenants = options.tenants ?? createTenantResolver(config.auth);

  const validTurn = (req: TurnRequest | undefined, ctx: HandlerContext): TurnInput => {
    const tenantId = requireTenant(ctx);
    if (req === undefined) throw new ConnectError("turn: required", Code.InvalidArgument);
    return { tenantId, ...accept(validateTurnRequest(req, config.limits)) };
  };

  /** Runs one turn and returns its wire result, or throws the one wire error it maps to. */
  const runTurn = async (input: TurnInput, ctx: HandlerContext, callerSignal: AbortSignal, onProgress?: (event: NodeProgressEvent) => void): Promise<WireTurnResult> => {
    const run = startRun(callerSignal, config.server.turnTimeoutMs);
    try {
      const attempt = await turnService.runTurn(input, {
        signal: run.signal,
        timeLimitMs: config.server.turnTimeoutMs,
        ...(onProgress ? { onProgress } : {}),
      });
      if (attempt.kind === "completed" || attempt.kind === "replayed") return turnResultToWire(attempt.result);
      throw refusedAttemptError(attempt, input.threadId);
    } catch (err) {
      throw toConnectError(err, { signal: run.signal, logger, procedure: procedure(ctx) });
    } finally {
      run.dispose();
    }
  };

  /**
   * A watch stream: `started`, then the watched turns' events until the caller leaves, the
   * watcher falls behind (its last message says so), or the server shuts down (UNAVAILABLE).
   */
  async function* watchStream(filter: { tenantId: string; threadId?: string }, ctx: HandlerContext): AsyncGenerator<WireThreadEvent> {
    let watch: ThreadWatch;
    try {
      watch = await turnService.watch(filter);
    } catch (err) {
      throw toConnectError(err, { signal: ctx.signal, logger, procedure: procedure(ctx) });
    }
    const stop = () => watch.close();
    ctx.signal.addEventListener("abort", stop, { once: true });
    options.draining?.addEventListener("abort", stop, { once: true });
    try {
      yield watchStartedToWire(filter.threadId ?? "");
      for await (const item of watch) yield watchItemToWire(item);
      if (options.draining?.aborted === true) throw new ConnectError("server is shutting down, watch again", Code.Unavailable);
    } finally {
      ctx.signal.removeEventListener("abort", stop);
      options.draining?.removeEventListener("abort", stop);
      watch.close();
    }
  }

  const impl: ServiceImpl<typeof AgentService> = {
    async turn(req, ctx) {
      return { result: await runTurn(validTurn(req, ctx), ctx, ctx.signal) };
    },

    async *streamTurn(req, ctx) {
      // Validation and auth fail before any progress is sent, as a plain error.
      const input = validTurn(req.turn, ctx);
      const queue = createAsyncQueue<StreamTurnResponse>();
      const onProgress = (event: NodeProgressEvent) => {
        queue.push(create(StreamTurnResponseSchema, { event: { case: "progress", value: progressToWire(event) } }));
      };
      // Stops the turn if the stream is torn down before the turn ends (a write failed, the
      // caller left without the cancellation reaching ctx.signal).
      const abandon = new AbortController();
      let settled = false;
      runTurn(input, ctx, AbortSignal.any([ctx.signal, abandon.signal]), onProgress).then(
        (result) => {
          settled = true;
          queue.push(create(StreamTurnResponseSchema, { event: { case: "result", value: result } }));
          queue.close();
        },
        (err: unknown) => {
          settled = true;
          queue.fail(err);
        },
      );
      try {
        yield* queue;
      } finally {
        if (!settled) abandon.abort(new ConnectError("stream closed", Code.Canceled));
      }
    },

    async getThread(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { threadId } = accept(validateGetThreadRequest(req, config.limits));
      try {
        const view = await turnService.getThread(tenantId, threadId);
        if (view === null) throw new ConnectError("thread_id: no such thread", Code.NotFound);
        return { thread: threadToWire(view) };
      } catch (err) {
        throw toConnectError(err, { signal: ctx.signal, logger, procedure: procedure(ctx) });
      }
    },

    async *watchThread(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { threadId } = accept(validateGetThreadRequest(req, config.limits));
      for await (const event of watchStream({ tenantId, threadId }, ctx)) yield { event };
    },

    async *watchTenant(_req, ctx) {
      const tenantId = requireTenant(ctx);
      for await (const event of watchStream({ tenantId }, ctx)) yield { event };
    },

    async deleteThread(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { threadId } = accept(validateGetThreadRequest(req, config.limits));
      try {
        const attempt = await turnService.deleteThread(tenantId, threadId);
        if (attempt.kind === "busy") throw new ConnectError("turn in progress", Code.Aborted);
        return { existed: attempt.existed };
      } catch (err) {
        throw toConnectError(err, { signal: ctx.signal, logger, procedure: procedure(ctx) });
      }
    },

    async deleteUserMemory(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { userId } = accept(validateDeleteUserMemoryRequest(req, config.limits));
      try {
        return await turnService.deleteUserMemory(tenantId, userId);
      } catch (err) {
        throw toConnectError(err, { signal: ctx.signal, logger, procedure: procedure(ctx) });
      }
    },
  };

  return (router) => {
    router.service(AgentService, impl, { interceptors: [createAuthInterceptor(tenants)] });
  };
}
