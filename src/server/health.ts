import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";

/**
 * Serving status per service name ("" is the whole server), shared by the Health service and
 * server.ts, which flips everything to NOT_SERVING when shutdown begins.
 */
export interface HealthState {
  get(service: string): Status | undefined;
  all(): ReadonlyMap<string, Status>;
  /** Marks every service NOT_SERVING and ends open Watch streams so they do not hold shutdown. */
  shutdown(): void;
  readonly shuttingDown: boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export function createHealthState(services: readonly string[]): HealthState {
  const statuses = new Map<string, Status>([["", Status.SERVING], ...services.map((s) => [s, Status.SERVING] as const)]);
  const listeners = new Set<() => void>();
  let shuttingDown = false;
  return {
    get: (service) => statuses.get(service),
    all: () => statuses,
    get shuttingDown() {
      return shuttingDown;
    },
    shutdown() {
      shuttingDown = true;
      for (const key of statuses.keys()) statuses.set(key, Status.NOT_SERVING);
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Resolves on the next health change or when `signal` aborts, whichever comes first. */
function nextChange(state: HealthState, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      unsubscribe();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const unsubscribe = state.subscribe(done);
    signal.addEventListener("abort", done);
    if (signal.aborted) done();
  });
}

/** grpc.health.v1.Health: unauthenticated on purpose, since load balancers and probes call it. */
export function createHealthRoutes(state: HealthState): (router: ConnectRouter) => void {
  return (router) => {
    router.service(Health, {
      check(req) {
        const status = state.get(req.service);
        if (status === undefined) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
        return { status };
      },
      list() {
        return { statuses: Object.fromEntries([...state.all()].map(([name, status]) => [name, { status }])) };
      },
      async *watch(req, ctx) {
        // Per the protocol, an unknown service is reported (SERVICE_UNKNOWN), not an error.
        let last: Status | null = null;
        while (!ctx.signal.aborted) {
          const status = state.get(req.service) ?? Status.SERVICE_UNKNOWN;
          if (status !== last) {
            yield { status };
            last = status;
          }
          if (state.shuttingDown) return;
          await nextChange(state, ctx.signal);
        }
      },
    });
  };
}
