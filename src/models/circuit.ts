import { ModelError, type ModelErrorKind } from "./errors.js";
import type { ModelProvider } from "./provider.js";

/**
 * A circuit breaker around the model provider. After `failures` consecutive calls that failed the
 * way an outage fails (timeouts, 5xx, 429) it opens: for `openMs` every call fails at once with
 * "unavailable" (not retried, so a turn hands off in milliseconds instead of spending its time on
 * a provider that is down), and readiness reports the models down. Then one trial call is let
 * through (half-open): its success closes the circuit, its failure opens it again.
 *
 * Malformed output and client errors do not count: they are the request's or the model's fault,
 * not an outage. Aborted calls do not count either.
 */
export type CircuitState = "closed" | "open" | "half_open";

export interface ModelCircuit {
  readonly provider: ModelProvider;
  state(): CircuitState;
}

export interface CircuitOptions {
  failures: number;
  openMs: number;
  now?: () => number;
}

const OUTAGE_KINDS: ReadonlySet<ModelErrorKind> = new Set(["timeout", "server", "rate_limited"]);

export function withCircuit(inner: ModelProvider, options: CircuitOptions): ModelCircuit {
  const now = options.now ?? Date.now;
  let consecutive = 0;
  let openedAt: number | null = null;
  // In half-open, only one call at a time is the trial.
  let trialRunning = false;

  const state = (): CircuitState => {
    if (openedAt === null) return "closed";
    return now() - openedAt >= options.openMs ? "half_open" : "open";
  };

  const provider: ModelProvider = {
    id: inner.id,
    async invoke(role, input, callOptions) {
      const current = state();
      if (current === "open" || (current === "half_open" && trialRunning)) {
        throw new ModelError("unavailable", role, `the ${inner.id} provider's circuit is open after ${consecutive} consecutive failures`);
      }
      const trial = current === "half_open";
      if (trial) trialRunning = true;
      try {
        const response = await inner.invoke(role, input, callOptions);
        consecutive = 0;
        openedAt = null;
        return response;
      } catch (error) {
        if (error instanceof ModelError && OUTAGE_KINDS.has(error.kind)) {
          consecutive++;
          if (trial || consecutive >= options.failures) openedAt = now();
        } else if (trial && error instanceof ModelError) {
          // The provider answered (with something unusable): it is reachable.
          consecutive = 0;
          openedAt = null;
        }
        throw error;
      } finally {
        if (trial) trialRunning = false;
      }
    },
  };
  return { provider, state };
}
