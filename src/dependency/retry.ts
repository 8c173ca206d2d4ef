import { DependencyError } from "./errors.js";

/** How a call to another service is retried: attempts, exponential delays with jitter. */

export interface RetryPolicy {
  /** Total attempts including the first; default 3. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. Default 500 ms. */
  initialDelayMs: number;
  /** Upper bound of one delay; default 4000 ms. */
  maxDelayMs: number;
  /** ± fraction of random jitter on each delay, so replicas do not retry in lockstep; default 0.25. */
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 4_000, jitter: 0.25 };

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function retryDelayMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
}

export interface RetryOptions {
  signal?: AbortSignal;
  /** Reports each retry (for logs and stats). */
  onRetry?: (error: DependencyError, attempt: number) => void;
  /** Asked before waiting `delayMs` for another attempt; false gives up with the last error (e.g. the turn's time is short). */
  allowRetry?: (delayMs: number) => boolean;
  random?: () => number;
}

/**
 * Runs `call` until it succeeds, the error is not retryable (only timeouts, 5xx, 429 and
 * malformed output are), or attempts run out; then rethrows the last error. Aborts are never
 * retried.
 */
export async function withRetry<T>(call: (attempt: number) => Promise<T>, policy: RetryPolicy, options: RetryOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (!(error instanceof DependencyError) || !error.retryable || attempt >= policy.maxAttempts) throw error;
      const delay = retryDelayMs(policy, attempt, options.random);
      if (options.allowRetry?.(delay) === false) throw error;
      options.onRetry?.(error, attempt);
      await sleep(delay, options.signal);
    }
  }
}
