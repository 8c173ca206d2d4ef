import { performance } from "node:perf_hooks";
import { Code, ConnectError } from "@connectrpc/connect";
import { createAgentClient } from "../client/agent-client.js";
import type { ReceivedTurnResult } from "../wire/index.js";
import { createEmbeddedRetriever, createLocalEmbedder, loadCorpusDir, type Chunk } from "../retrieval/index.js";
import { emptyObservation, type EvalTarget, type ObservedTurn, type TurnRequest } from "./target.js";

/** The chunks of a corpus, by id: what a remote target's citations are checked against. */
export interface ChunkIndex {
  getChunk(chunkId: string): Chunk | undefined;
  /** Document ids loaded from each directory, in the order given. */
  documentIds: string[][];
}

const LOCAL_TENANT = "eval";

/**
 * Indexes corpus directories the way the service does (same loader, same chunker), so chunk ids
 * cited by a server that serves the same files resolve to the same text here.
 */
export async function loadChunkIndex(dirs: readonly string[]): Promise<ChunkIndex> {
  const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
  const documentIds: string[][] = [];
  for (const dir of dirs) {
    const { documents } = await loadCorpusDir(dir, { tenantId: LOCAL_TENANT });
    await retriever.add(documents);
    documentIds.push(documents.map((d) => d.id));
  }
  return { getChunk: (chunkId) => retriever.getChunk(LOCAL_TENANT, chunkId), documentIds };
}

export interface RemoteTargetOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  apiKey?: string;
  chunks: ChunkIndex;
  /** Test-only documents the server was started with (none unless the caller says so). */
  fixtures?: ReadonlySet<string>;
  /** Per-turn deadline. Default 60 s. */
  timeoutMs?: number;
}

function observeResult(result: ReceivedTurnResult): Omit<ObservedTurn, "nodes" | "latencyMs"> {
  const base = {
    language: result.language,
    citations: [] as ObservedTurn["citations"],
    claims: [] as ObservedTurn["claims"],
    options: [] as ObservedTurn["options"],
    reason: null,
    detail: "",
    rewrittenQuery: null,
    topChunks: [] as ObservedTurn["topChunks"],
    modelCalls: result.stats.modelCalls,
  };
  const outcome = result.outcome;
  switch (outcome.kind) {
    case "answer":
      return {
        ...base,
        outcome: outcome.answerKind === "grounded" ? "answer" : outcome.answerKind,
        text: outcome.text,
        citations: outcome.citations.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId })),
        claims: outcome.claims.map((c) => ({ text: c.text, chunkIds: [...c.chunkIds] })),
      };
    case "clarify":
      return {
        ...base,
        outcome: "clarify",
        text: [outcome.question, ...outcome.options.map((o) => o.label)].join("\n"),
        options: outcome.options.map((o) => ({ label: o.label, documentId: o.documentId, product: o.product })),
      };
    case "escalate":
      return {
        ...base,
        outcome: "escalate",
        text: outcome.message,
        reason: outcome.reason,
        detail: outcome.detail,
        rewrittenQuery: outcome.handoff.rewrittenQuery,
        topChunks: outcome.handoff.topChunks,
      };
    case "none":
      return { ...base, outcome: "error", text: "", detail: "the result carried no outcome" };
  }
}

/**
 * A running frontdesk server, through the generated Connect client over HTTP/2: each turn is one
 * StreamTurn, so the node trail (with the rewritten query in contextualize's summary) is seen
 * exactly as other consumers see it.
 */
export function createRemoteTarget(options: RemoteTargetOptions): EvalTarget {
  const client = createAgentClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    label: options.baseUrl,
    fixtures: options.fixtures ?? new Set(),
    getChunk: (chunkId) => options.chunks.getChunk(chunkId),
    async runTurn(request: TurnRequest): Promise<ObservedTurn> {
      const nodes: ObservedTurn["nodes"] = [];
      const started = performance.now();
      let result: ReceivedTurnResult | undefined;
      try {
        const call = { threadId: request.threadId, userId: request.userId, text: request.text, ...(request.domain !== undefined ? { domain: request.domain } : {}) };
        for await (const item of client.streamTurn(call, { timeoutMs })) {
          if (item.kind === "progress" && item.progress.phase === "completed") nodes.push({ node: item.progress.node, summary: item.progress.summary });
          if (item.kind === "result") result = item.result;
        }
      } catch (err) {
        const error = ConnectError.from(err);
        const latencyMs = performance.now() - started;
        if (error.code === Code.FailedPrecondition) return { ...emptyObservation("refused", error.rawMessage, latencyMs), nodes };
        return { ...emptyObservation("error", `${Code[error.code]}: ${error.rawMessage}`, latencyMs), nodes };
      }
      const latencyMs = performance.now() - started;
      if (result === undefined) return { ...emptyObservation("error", "the stream ended without a result", latencyMs), nodes };
      return { ...observeResult(result), nodes, latencyMs };
    },
    async close() {
      client.close();
    },
  };
}
