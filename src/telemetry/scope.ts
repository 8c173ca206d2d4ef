import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request a piece of work belongs to, carried by AsyncLocalStorage from the RPC interceptor
 * through the graph, the model calls and storage, so that every log line of a request carries its
 * request id and trace id without a logger being threaded through every function.
 */
export interface RequestScope {
  /** The TurnRequest's request_id once the turn adopts it; before that, the caller's x-request-id or a generated one. */
  requestId: string;
  /** The W3C trace id of the request's RPC span (32 hex digits). */
  traceId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it starts) in `scope`. */
export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the running request, or undefined outside one (start-up, background sweeps). */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

// Printable ASCII without spaces: an id the caller chose, never free text, and short.
const SAFE_ID = /^[\x21-\x7e]{1,128}$/u;

/** True when `id` may stand in log lines as a request id. */
export function isSafeRequestId(id: string): boolean {
  return SAFE_ID.test(id);
}

/**
 * The running request takes the caller's own id for the rest of its lines (a TurnRequest's
 * request_id), so logs can be found by the id the caller knows. Ignored outside a request, and
 * for an empty or unsafe id.
 */
export function adoptRequestId(id: string): void {
  const scope = storage.getStore();
  if (scope !== undefined && id !== "" && isSafeRequestId(id)) scope.requestId = id;
}

/**
 * pino's `mixin`: the scope's request id and trace id on every line logged inside a request.
 * Lines outside one get nothing extra.
 */
export function logMixin(): { requestId?: string; traceId?: string } {
  const scope = storage.getStore();
  return scope === undefined ? {} : { requestId: scope.requestId, traceId: scope.traceId };
}
