import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { RunTree } from "langsmith";
import { describe, expect, it } from "vitest";
import { skipUntracedRunTrees } from "../../src/agent/steps.js";

/**
 * The run-tree shortcut (src/agent/steps.ts): with it, LangChain's runnables run without the
 * untraced langsmith RunTree it builds as a config carrier; a caller asking for one explicitly
 * still gets it. (test/telemetry/langsmith.test.ts proves a LangSmith tracer's runs unchanged
 * with the shortcut installed.)
 */
describe("skipUntracedRunTrees", () => {
  const storeInside = (avoid?: boolean) =>
    AsyncLocalStorageProviderSingleton.runWithConfig({ tags: ["t"] }, () => AsyncLocalStorageProviderSingleton.getInstance().getStore(), avoid);

  it("runs a runnable's callback without a root RunTree once installed, and is idempotent", () => {
    // A real AsyncLocalStorage, as LangGraph installs on import.
    expect(storeInside()).toBeInstanceOf(RunTree);
    skipUntracedRunTrees();
    skipUntracedRunTrees();
    expect(storeInside()).toBeUndefined();
    expect(storeInside(true)).toBeUndefined();
    expect(storeInside(false)).toBeInstanceOf(RunTree);
  });
});
