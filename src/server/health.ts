import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import type { ServiceRole } from "../domain/readiness.js";
import type { Readiness, ReadinessReport } from "./readiness.js";

/**
 * Serving status per service name ("" is the whole server), shared by the Health service, the
 * /readyz probe and server.ts. A service is SERVING while every dependency it needs answered the
 * latest probes (readiness.ts) and the server is not shutting down; "" needs all of them.
 */
export interface HealthState {
  /** undefined for a service not on this port. */
  check(service: string): Promise<Status | undefined>;
  list(): Promise<Map<string, Status>>;
  /** The probes behind the statuses (fresh within the readiness cache time). */
  report(): Promise<ReadinessReport>;
  /** Marks every service NOT_SERVING and ends open Watch streams so they do not hold shutdown. */
  shutdown(): void;
  readonly shuttingDown: boolean;
  /** Calls `listener` on shutdown; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** How often a Watch stream looks again. */
  readonly pollMs: number;
}

/** The services on the port: wire name and role ("" has none: it needs everything). */
export function createHealthState(services: ReadonlyMap<string, ServiceRole>, readiness: Readiness): HealthState {
  const listeners = new Set<() => void>();
  let shuttingDown = false;
  const statusIn = (report: ReadinessReport, service: string): Status | undefined => {
    const role = service === "" ? null : services.get(service);
    if (role === undefined) return undefined;
    return !shuttingDown && readiness.upFor(report, role) ? Status.SERVING : Status.NOT_SERVING;
  };
  return {
    pollMs: readiness.cacheMs,
    async check(service) {
      if (service !== "" && !services.has(service)) return undefined;
      return statusIn(await readiness.report(), service);
    },
    async list() {
      const report = await readiness.report();
      return new Map(["", ...services.keys()].map((name) => [name, statusIn(report, name) ?? Status.SERVICE_UNKNOWN]));
    },
    report: () => readiness.report(),
    get shuttingDown() {
      return shuttingDown;
    },
    shutdown() {
      shuttingDown = true;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Resolves after `ms`, on shutdown or when `signal` aborts, whichever comes first. */
function nextLook(state: HealthState, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = state.subscribe(done);
    signal.addEventListener("abort", done);
    if (signal.aborted) done();
  });
}

/** grpc.health.v1.Health: unauthenticated on purpose, since load balancers and probes call it. */
export function createHealthRoutes(state: HealthState): (router: ConnectRouter) => void {
  return (router) => {
    router.service(Health, {
      async check(req) {
        const status = await state.check(req.service);
        if (status === undefined) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
        return { status };
      },
      async list() {
        return { statuses: Object.fromEntries([...(await state.list())].map(([name, status]) => [name, { status }])) };
      },
      async *watch(req, ctx) {
        // Per the protocol, an unknown service is reported (SERVICE_UNKNOWN), not an error. Changes
        // of a dependency are seen at the next look (every readiness cache period), shutdown at once.
        let last: Status | null = null;
        while (!ctx.signal.aborted) {
          const status = (await state.check(req.service)) ?? Status.SERVICE_UNKNOWN;
          if (status !== last) {
            yield { status };
            last = status;
          }
          if (state.shuttingDown) return;
          await nextLook(state, state.pollMs, ctx.signal);
        }
      },
    });
  };
}
