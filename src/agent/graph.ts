import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { END, START, StateGraph, type BaseCheckpointSaver, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { inSpan, noopTelemetry, secondsSince, type Telemetry } from "../telemetry/index.js";
import type { AgentDeps } from "./deps.js";
import { clarifyNode } from "./nodes/clarify.js";
import { contextualizeNode } from "./nodes/contextualize.js";
import { escalateNode } from "./nodes/escalate.js";
import { generateNode } from "./nodes/generate.js";
import { gradeNode } from "./nodes/grade.js";
import { loadMemoryNode } from "./nodes/load-memory.js";
import { NODES, type NodeName } from "./nodes/names.js";
import { recordTurnNode } from "./nodes/record-turn.js";
import { retrieveNode } from "./nodes/retrieve.js";
import { triageNode } from "./nodes/triage.js";
import { verifyNode } from "./nodes/verify.js";
import { writeMemoryNode } from "./nodes/write-memory.js";
import { nodeStep, routedStep } from "./steps.js";
import { AgentState, type AgentStateUpdate, type AgentStateValue } from "./state.js";

/**
 * Routing: pure functions of the state, so every route is testable without a database or a
 * model. A recorded escalation always wins; budgets were applied by the node that spent them.
 */
type Route<T extends string> = (state: AgentStateValue) => T;

export const routeAfterTriage: Route<"escalate" | "generate" | "contextualize"> = (state) => {
  if (state.escalation !== null) return NODES.escalate;
  switch (state.intent) {
    case "chitchat":
    case "out_of_scope":
      return NODES.generate;
    case "knowledge":
      return NODES.contextualize;
    case "account":
    case "handoff_request":
    case null:
      // Account and handoff intents always carry an escalation; reaching here is a bug.
      throw new Error(`triage left intent ${String(state.intent)} without an escalation`);
  }
};

export const routeAfterContextualize: Route<"escalate" | "retrieve"> = (state) => (state.escalation !== null ? NODES.escalate : NODES.retrieve);

export const routeAfterRetrieve: Route<"escalate" | "grade"> = (state) => (state.escalation !== null ? NODES.escalate : NODES.grade);

export const routeAfterGrade: Route<"escalate" | "generate" | "clarify" | "retrieve"> = (state) => {
  if (state.escalation !== null) return NODES.escalate;
  // Out of scope, confirmed by retrieval: the bundle's reply.
  if (state.intent === "out_of_scope") return NODES.generate;
  switch (state.grading?.verdict) {
    case "sufficient":
      return NODES.generate;
    case "ambiguous":
      return NODES.clarify;
    case "insufficient":
      return NODES.retrieve;
    case undefined:
      throw new Error("grade produced no verdict");
  }
};

export const routeAfterClarify: Route<"escalate" | "record_turn"> = (state) => (state.escalation !== null ? NODES.escalate : NODES.recordTurn);

export const routeAfterGenerate: Route<"escalate" | "record_turn" | "verify"> = (state) => {
  if (state.escalation !== null) return NODES.escalate;
  // Chitchat and out-of-scope replies are final: they state no facts to verify.
  return state.outcome !== null ? NODES.recordTurn : NODES.verify;
};

export const routeAfterVerify: Route<"escalate" | "write_memory" | "generate"> = (state) => {
  if (state.escalation !== null) return NODES.escalate;
  return state.verification?.grounded === true ? NODES.writeMemory : NODES.generate;
};

type Node = (state: AgentStateValue, config: LangGraphRunnableConfig) => Promise<AgentStateUpdate>;

/**
 * Each node starts on a fresh turn of the event loop. A turn with the offline model is one long
 * chain of promise continuations; without these boundaries the server could neither flush
 * progress events to the client nor notice a cancelled call until the whole turn was over.
 * Each run is also a span (named by the node, a child of the RPC's) and a sample of the node
 * duration histogram; the name is LangGraph's own `langgraph_node`, one of NODES.
 */
const freshTicks =
  (telemetry: Telemetry) =>
  (node: Node): Node =>
  async (state, config) => {
    await yieldToEventLoop();
    if (config.signal?.aborted) throw config.signal.reason;
    const name = String(config.metadata?.["langgraph_node"] ?? "unknown");
    const startedMs = performance.now();
    try {
      return await inSpan(telemetry.tracer, `node ${name}`, { "frontdesk.node": name }, () => node(state, config));
    } finally {
      telemetry.metrics.nodeDuration.observe({ node: name }, secondsSince(startedMs));
    }
  };

/**
 * Builds the turn graph; compile with a checkpointer to keep threads. A node followed by a choice
 * returns its route as a Command (src/agent/steps.ts), decided by the route function above from
 * the state it leaves; `ends` lists where it may go.
 */
export function buildGraph(deps: AgentDeps) {
  const onFreshTick = freshTicks(deps.telemetry ?? noopTelemetry());
  const node = (name: NodeName, fn: Node) => nodeStep(name, onFreshTick(fn));
  const routed = <T extends NodeName>(name: NodeName, fn: Node, route: Route<T>) => routedStep(name, onFreshTick(fn), route);
  return new StateGraph(AgentState)
    .addNode(NODES.loadMemory, node(NODES.loadMemory, loadMemoryNode(deps)))
    .addNode(NODES.triage, routed(NODES.triage, triageNode(deps), routeAfterTriage), { ends: [NODES.escalate, NODES.generate, NODES.contextualize] })
    .addNode(NODES.contextualize, routed(NODES.contextualize, contextualizeNode(deps), routeAfterContextualize), { ends: [NODES.escalate, NODES.retrieve] })
    .addNode(NODES.retrieve, routed(NODES.retrieve, retrieveNode(deps), routeAfterRetrieve), { ends: [NODES.escalate, NODES.grade] })
    .addNode(NODES.grade, routed(NODES.grade, gradeNode(deps), routeAfterGrade), { ends: [NODES.escalate, NODES.generate, NODES.clarify, NODES.retrieve] })
    .addNode(NODES.clarify, routed(NODES.clarify, clarifyNode(deps), routeAfterClarify), { ends: [NODES.escalate, NODES.recordTurn] })
    .addNode(NODES.generate, routed(NODES.generate, generateNode(deps), routeAfterGenerate), { ends: [NODES.escalate, NODES.recordTurn, NODES.verify] })
    .addNode(NODES.verify, routed(NODES.verify, verifyNode(deps), routeAfterVerify), { ends: [NODES.escalate, NODES.writeMemory, NODES.generate] })
    .addNode(NODES.escalate, node(NODES.escalate, escalateNode(deps)))
    .addNode(NODES.writeMemory, node(NODES.writeMemory, writeMemoryNode(deps)))
    .addNode(NODES.recordTurn, node(NODES.recordTurn, recordTurnNode(deps)))
    .addEdge(START, NODES.loadMemory)
    .addEdge(NODES.loadMemory, NODES.triage)
    .addEdge(NODES.escalate, NODES.recordTurn)
    .addEdge(NODES.writeMemory, NODES.recordTurn)
    .addEdge(NODES.recordTurn, END);
}

export function compileGraph(deps: AgentDeps, checkpointer: BaseCheckpointSaver) {
  return buildGraph(deps).compile({ checkpointer });
}

export type CompiledAgentGraph = ReturnType<typeof compileGraph>;
