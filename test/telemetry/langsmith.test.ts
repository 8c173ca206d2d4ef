import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { startFakeHttp } from "../support/fake-http.js";
import { startRealServer } from "../e2e/support.js";
import { skipUntracedRunTrees } from "../../src/agent/steps.js";

/**
 * LangSmith tracing, without the network: with LANGSMITH_TRACING and a key, the graph's runs are
 * sent by LangChain's tracer to LANGSMITH_ENDPOINT — here a fake LangSmith API on 127.0.0.1 that
 * records what it receives. What this proves: the callback path is wired and a turn's node runs
 * reach the endpoint with the key and project. What it does not: that a real LangSmith accepts
 * them (its ingestion API is LangChain's and langsmith's business, not tested here).
 */

describe("LangSmith tracing", () => {
  it("sends a turn's graph run and its nodes to LANGSMITH_ENDPOINT with the key and project", async () => {
    // Process-wide once any app without LangSmith started: a tracer's runs must not depend on it.
    skipUntracedRunTrees();
    const fake = await startFakeHttp(() => ({ body: {} }));
    try {
      const server = await startRealServer({
        LANGSMITH_TRACING: "true",
        LANGSMITH_API_KEY: "lsv2-test-key-0123456789",
        LANGSMITH_ENDPOINT: fake.url,
        LANGSMITH_PROJECT: "frontdesk-telemetry-test",
      });
      try {
        const { result } = await server.client.turn({ threadId: "ls-1", userId: "u-1", text: "What is the minimum deductible for motor body insurance?" });
        expect(result?.outcome.case).toBe("answer");
      } finally {
        // Closing the app waits until the client has sent every pending run.
        await server.close();
      }
      const ingest = fake.requests.filter((r) => r.method === "POST" && r.url.startsWith("/runs"));
      expect(ingest.length).toBeGreaterThan(0);
      for (const request of ingest) expect(request.headers["x-api-key"]).toBe("lsv2-test-key-0123456789");
      const sent = ingest.map((r) => (typeof r.body === "string" ? r.body : JSON.stringify(r.body))).join("\n");
      expect(sent).toContain("frontdesk-telemetry-test");
      for (const node of ["load_memory", "triage", "retrieve", "generate", "record_turn"]) expect(sent).toContain(`"${node}"`);
    } finally {
      await fake.close();
    }
  });

  it("is off unless switched on, and refuses to start switched on without a key", () => {
    expect(loadConfig({}).telemetry.langsmith).toBeNull();
    expect(loadConfig({ LANGCHAIN_TRACING_V2: "true", LANGSMITH_API_KEY: "k" }).telemetry.langsmith).toEqual({
      apiKey: "k",
      endpoint: "https://api.smith.langchain.com",
      project: "frontdesk",
    });
    expect(() => loadConfig({ LANGSMITH_TRACING: "true" })).toThrow("LANGSMITH_TRACING (or LANGCHAIN_TRACING_V2) needs LANGSMITH_API_KEY");
  });
});
