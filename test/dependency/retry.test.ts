import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { ModelError, type ModelErrorKind } from "../../src/models/errors.js";
import { DEFAULT_RETRY_POLICY, retryDelayMs, withRetry } from "../../src/dependency/retry.js";

const fast = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };

function failingTimes(times: number, kind: ModelErrorKind) {
  let calls = 0;
  const call = async () => {
    calls++;
    if (calls <= times) throw new ModelError(kind, "triage", `${kind} #${calls}`);
    return "ok";
  };
  return { call, calls: () => calls };
}

describe("the retry policy", () => {
  it("defaults to 3 attempts from 0.5 s, doubling up to 4 s, with ±25% jitter — the same as the configuration's defaults", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 4_000, jitter: 0.25 });
    expect(loadConfig({}).models.retry).toEqual(DEFAULT_RETRY_POLICY);
    const at = (attempt: number, random: number) => retryDelayMs(DEFAULT_RETRY_POLICY, attempt, () => random);
    expect([at(1, 0), at(1, 0.5), at(1, 1)]).toEqual([375, 500, 625]);
    expect([at(2, 0.5), at(3, 0.5), at(4, 0.5), at(5, 0.5)]).toEqual([1_000, 2_000, 4_000, 4_000]);
  });

  it("retries timeouts, 5xx, 429 and malformed output, up to the attempt limit", async () => {
    for (const kind of ["timeout", "server", "rate_limited", "malformed_output"] as const) {
      const twice = failingTimes(2, kind);
      await expect(withRetry(twice.call, fast)).resolves.toBe("ok");
      expect([kind, twice.calls()]).toEqual([kind, 3]);
      const always = failingTimes(9, kind);
      await expect(withRetry(always.call, fast)).rejects.toThrow(`${kind} #3`);
      expect(always.calls()).toBe(3);
    }
  });

  it("never retries client or configuration errors, nor errors that are not ModelErrors", async () => {
    for (const kind of ["client", "configuration"] as const) {
      const once = failingTimes(1, kind);
      await expect(withRetry(once.call, fast)).rejects.toThrow(`${kind} #1`);
      expect(once.calls()).toBe(1);
    }
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new TypeError("a bug");
      }, fast),
    ).rejects.toThrow("a bug");
    expect(calls).toBe(1);
  });

  it("gives up with the last error when a retry is not allowed, and reports each retry it makes", async () => {
    const delays: number[] = [];
    const retried: number[] = [];
    const failing = failingTimes(9, "server");
    await expect(
      withRetry(
        failing.call,
        { ...fast, initialDelayMs: 10, maxDelayMs: 100 },
        {
          allowRetry: (delay) => {
            delays.push(delay);
            return delays.length < 2;
          },
          onRetry: (_error, attempt) => retried.push(attempt),
        },
      ),
    ).rejects.toThrow("server #2");
    expect(delays).toEqual([10, 20]);
    expect(retried).toEqual([1]);
  });

  it("stops waiting when the signal aborts, rejecting with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error("deadline");
    const failing = failingTimes(9, "server");
    setTimeout(() => controller.abort(reason), 20);
    await expect(withRetry(failing.call, { ...fast, initialDelayMs: 5_000, maxDelayMs: 5_000 }, { signal: controller.signal })).rejects.toBe(reason);
    expect(failing.calls()).toBe(1);
  });
});
