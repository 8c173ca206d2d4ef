import type { Logger } from "pino";
import type { ReadinessProbe, ServiceRole } from "../domain/readiness.js";

/** What one probe found. `reason` is coarse on purpose: /readyz answers unauthenticated callers. */
export interface DependencyStatus {
  readonly name: string;
  readonly up: boolean;
  readonly reason?: "timeout" | "unavailable";
  readonly latencyMs: number;
}

export interface ReadinessReport {
  readonly dependencies: readonly DependencyStatus[];
  /** When the round of probes finished (Date.now()). */
  readonly checkedAt: number;
}

export interface Readiness {
  /**
   * The latest round of probes, run again only when older than `cacheMs`; callers arriving
   * while a round runs share it, so a burst of health checks costs one query per dependency.
   */
  report(): Promise<ReadinessReport>;
  /** Whether every probe a service needs was up in `report` ("" and undefined role: every probe). */
  upFor(report: ReadinessReport, role: ServiceRole | null): boolean;
  readonly cacheMs: number;
}

export interface ReadinessOptions {
  probes: readonly ReadinessProbe[];
  cacheMs: number;
  timeoutMs: number;
  logger: Logger;
  now?: () => number;
}

interface ProbeResult {
  status: DependencyStatus;
  /** Why it is down, for the log line only. */
  err?: unknown;
}

async function runProbe(probe: ReadinessProbe, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`readiness probe ${probe.name} timed out after ${timeoutMs} ms`));
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    // A probe that ignores its signal still counts as down once the time is up.
    const outcome = await Promise.race([probe.check(controller.signal).then(() => "up" as const), timedOut]);
    if (outcome === "up") return { status: { name: probe.name, up: true, latencyMs: elapsed() } };
    return { status: { name: probe.name, up: false, reason: "timeout", latencyMs: elapsed() }, err: controller.signal.reason };
  } catch (err) {
    return { status: { name: probe.name, up: false, reason: controller.signal.aborted ? "timeout" : "unavailable", latencyMs: elapsed() }, err };
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness(options: ReadinessOptions): Readiness {
  const { probes, cacheMs, timeoutMs, logger } = options;
  const now = options.now ?? Date.now;
  const needs = new Map(probes.map((p) => [p.name, p.needs]));
  let last: ReadinessReport | null = null;
  let running: Promise<ReadinessReport> | null = null;
  const wasUp = new Map<string, boolean>();

  const round = async (): Promise<ReadinessReport> => {
    const results = await Promise.all(probes.map((p) => runProbe(p, timeoutMs)));
    for (const { status, err } of results) {
      // One line per change, with the cause, rather than one per probe.
      if (wasUp.get(status.name) === status.up) continue;
      if (status.up) logger.info({ dependency: status }, `readiness: ${status.name} is up`);
      else logger.warn({ dependency: status, err }, `readiness: ${status.name} is down`);
      wasUp.set(status.name, status.up);
    }
    return { dependencies: results.map((r) => r.status), checkedAt: now() };
  };

  return {
    cacheMs,
    report() {
      if (last !== null && now() - last.checkedAt < cacheMs) return Promise.resolve(last);
      running ??= round().then((report) => {
        last = report;
        running = null;
        return report;
      });
      return running;
    },
    upFor(report, role) {
      return report.dependencies.every((d) => d.up || (role !== null && !(needs.get(d.name) ?? []).includes(role)));
    },
  };
}
