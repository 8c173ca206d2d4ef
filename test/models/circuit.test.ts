import { describe, expect, test } from "vitest";
import { withCircuit } from "../../src/models/circuit.js";
import { ModelError, type ModelErrorKind } from "../../src/models/errors.js";
import type { ModelProvider } from "../../src/models/provider.js";

/** A provider that fails with `failing` (or answers when null), counting the calls that reach it. */
function scripted(): { provider: ModelProvider; failing: ModelErrorKind | null; calls: number } {
  const state = {
    failing: null as ModelErrorKind | null,
    calls: 0,
    provider: {
      id: "scripted",
      async invoke(role: string) {
        state.calls++;
        if (state.failing !== null) throw new ModelError(state.failing, role, `simulated ${state.failing}`);
        return { output: {} as never, usage: { inputTokens: 1, outputTokens: 1 } };
      },
    } as ModelProvider,
  };
  return state;
}

const call = (p: ModelProvider) =>
  p.invoke("triage", {} as never).then(
    () => "ok",
    (e: unknown) => (e instanceof ModelError ? e.kind : "other"),
  );

describe("the model provider's circuit", () => {
  test("opens after N consecutive outage failures, refuses at once (unavailable, not retryable), lets one trial through after openMs", async () => {
    const inner = scripted();
    let now = 0;
    const circuit = withCircuit(inner.provider, { failures: 3, openMs: 1_000, now: () => now });
    inner.failing = "timeout";
    expect([await call(circuit.provider), await call(circuit.provider)]).toEqual(["timeout", "timeout"]);
    expect(circuit.state()).toBe("closed");
    expect(await call(circuit.provider)).toBe("timeout");
    expect(circuit.state()).toBe("open");

    const refused = await circuit.provider.invoke("triage", {} as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ModelError);
    expect((refused as ModelError).kind).toBe("unavailable");
    expect((refused as ModelError).retryable).toBe(false);
    expect(inner.calls).toBe(3);

    now = 1_000;
    expect(circuit.state()).toBe("half_open");
    // The trial fails: open again, for another openMs.
    expect(await call(circuit.provider)).toBe("timeout");
    expect(circuit.state()).toBe("open");
    expect(inner.calls).toBe(4);

    now = 2_000;
    inner.failing = null;
    expect(await call(circuit.provider)).toBe("ok");
    expect(circuit.state()).toBe("closed");
  });

  test("a success in between resets the count; malformed output and client errors never open it", async () => {
    const inner = scripted();
    const circuit = withCircuit(inner.provider, { failures: 2, openMs: 1_000 });
    inner.failing = "server";
    await call(circuit.provider);
    inner.failing = null;
    await call(circuit.provider);
    inner.failing = "rate_limited";
    await call(circuit.provider);
    expect(circuit.state()).toBe("closed");
    for (const kind of ["malformed_output", "client"] as const) {
      inner.failing = kind;
      for (let i = 0; i < 5; i++) await call(circuit.provider);
    }
    expect(circuit.state()).toBe("closed");
  });

  test("half-open lets only one trial run at a time", async () => {
    let release: () => void = () => undefined;
    let now = 0;
    let calls = 0;
    let failing = true;
    const provider: ModelProvider = {
      id: "slow",
      async invoke(role) {
        calls++;
        if (failing) throw new ModelError("server", role, "down");
        await new Promise<void>((resolve) => (release = resolve));
        return { output: {} as never, usage: { inputTokens: 0, outputTokens: 0 } };
      },
    };
    const circuit = withCircuit(provider, { failures: 1, openMs: 10, now: () => now });
    await call(circuit.provider);
    failing = false;
    now = 10;
    const trial = call(circuit.provider);
    expect(await call(circuit.provider)).toBe("unavailable");
    release();
    expect(await trial).toBe("ok");
    expect(calls).toBe(2);
    expect(circuit.state()).toBe("closed");
  });
});
