import type { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { LangChainTracer } from "@langchain/core/tracers/tracer_langchain";
import { Client } from "langsmith";
import type { Config } from "../config/config.js";

/** LangChain's LangSmith tracer for the graph's runs, and how to drain what it still has to send. */
export interface LangSmithTracing {
  callbacks: BaseCallbackHandler[];
  /** Waits until every run handed to the client has been sent (shutdown, tests). */
  flush(): Promise<void>;
}

/**
 * With LANGSMITH_TRACING (or LANGCHAIN_TRACING_V2) and LANGSMITH_API_KEY, every turn's graph run
 * — each node, its inputs and outputs — goes to LangSmith through LangChain's own tracer. The
 * client is built here from the validated configuration (endpoint, key, project) instead of
 * letting LangChain read the environment; the graph carries it as a callback, and LangChain adds
 * no second tracer of its own when the same variables are also in the environment.
 */
export function createLangSmithTracing(settings: NonNullable<Config["telemetry"]["langsmith"]>): LangSmithTracing {
  const client = new Client({ apiUrl: settings.endpoint, apiKey: settings.apiKey });
  const tracer = new LangChainTracer({ client, projectName: settings.project });
  return { callbacks: [tracer], flush: () => client.awaitPendingTraceBatches() };
}
