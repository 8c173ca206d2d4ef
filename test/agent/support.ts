import path from "node:path";
import type { Taxonomy } from "../../src/domain/taxonomy.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { loadBundle } from "../../src/app/bundle.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import type { AgentBundle } from "../../src/agent/bundle.js";
import type { AgentDeps, AgentSettings } from "../../src/agent/deps.js";
import { compileGraph } from "../../src/agent/graph.js";
import { createPolicy } from "../../src/agent/policy.js";
import { createGates, type GateReading, type Gates } from "../../src/agent/gates.js";
import { createTurnService } from "../../src/service/turns.js";
import type { NodeProgressEvent, TurnInput, TurnResult } from "../../src/domain/turn.js";
import type { TurnAttempt, TurnService } from "../../src/service/types.js";
import { ModelError } from "../../src/models/errors.js";
import type { ModelProvider } from "../../src/models/provider.js";
import { ROLE_SCHEMAS, type Role, type RoleIO } from "../../src/models/roles.js";
import type { Persistence } from "../../src/persistence/index.js";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import type { Chunk, RetrievalRequest, RetrievedChunk, Retriever } from "../../src/retrieval/index.js";

export const bundle = loadBundle(path.join(PACKAGE_ROOT, "bundle"));

/** The shipped gate classifier, as the service runs it. */
export const bundleGates: Gates = createGates(bundle.gates);

/**
 * Gates that are never sure: every turn the policy lists do not decide goes to the (scripted)
 * triage model, so graph tests about model calls, budgets and retries keep one triage call.
 * Tests of the classifier's routing pass `bundleGates`.
 */
export const unsureGates: Gates = {
  read(): GateReading {
    const scores = Object.fromEntries(bundle.gates.classes.map((c) => [c, c === "knowledge" ? 0.5 : 0.05])) as GateReading["scores"];
    return { label: "knowledge", probability: 0.5, confident: false, scores };
  },
};

export const defaultSettings: AgentSettings = {
  budgets: { retrievalRounds: 2, clarifyStreak: 2, regenerations: 1, modelCalls: 8 },
  limits: { historyTurns: 6, summaryMaxChars: 1_200, replayRecords: 20 },
  retrieval: { topK: 6 },
  grading: { minConfidence: 0.45, sufficientScore: 0.55, insufficientScore: 0.25, ambiguityMargin: 0.12, outOfScopeCoverage: 0.7, maxClarifyOptions: 4 },
  clarifyWithModel: false,
  // Scripted models stand in for a real model: the uncertain band asks them.
  gradeWithModel: true,
  retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2, jitter: 0 },
  handoffReserveMs: 0,
};

type Script = { [R in Role]?: (input: RoleIO[R]["input"], call: number) => RoleIO[R]["output"] | Promise<RoleIO[R]["output"]> };

/** A model whose every role answers from a script; unscripted roles fail the test loudly. */
export function scriptedModels(script: Script): ModelProvider & { calls: Role[] } {
  const calls: Role[] = [];
  return {
    id: "scripted",
    calls,
    async invoke<R extends Role>(role: R, input: RoleIO[R]["input"], options?: { signal?: AbortSignal }) {
      if (options?.signal?.aborted) throw options.signal.reason;
      calls.push(role);
      const handler = script[role] as ((input: RoleIO[R]["input"], call: number) => RoleIO[R]["output"] | Promise<RoleIO[R]["output"]>) | undefined;
      if (handler === undefined) throw new Error(`unscripted model role ${role}`);
      const output = await handler(input, calls.filter((r) => r === role).length);
      return { output: ROLE_SCHEMAS[role].parse(output) as RoleIO[R]["output"], usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

export const failing = (kind: ModelError["kind"]) => (): never => {
  throw new ModelError(kind, "test", `scripted ${kind}`);
};

export function chunk(chunkId: string, text: string, meta: Partial<Chunk> = {}): Chunk {
  const [documentId, index] = chunkId.split("#");
  return {
    chunkId,
    documentId: documentId!,
    chunkIndex: Number(index ?? 0),
    tenantId: "default",
    title: meta.title ?? documentId!,
    product: meta.product ?? documentId!.replace(/-(en|fa)$/u, ""),
    domain: meta.domain ?? "motor",
    lang: meta.lang ?? "en",
    section: meta.section ?? "",
    sectionPath: meta.sectionPath ?? (meta.section === undefined || meta.section === "" ? [] : meta.section.split(" > ")),
    text,
    unit: meta.unit ?? { kind: "paragraph" },
  };
}

/**
 * A retriever that answers from a script. Its taxonomy, unless given, is built from every chunk it
 * has returned so far: the corpus a test's fake knows of is what it has shown.
 */
export function fakeRetriever(respond: (request: RetrievalRequest) => Array<{ chunk: Chunk; score: number }>, taxonomy?: Taxonomy): Retriever & { requests: RetrievalRequest[] } {
  const requests: RetrievalRequest[] = [];
  const shown = new Map<string, Chunk>();
  return {
    requests,
    taxonomy: async () =>
      taxonomy ??
      buildTaxonomy(
        [...new Set([...shown.values()].map((c) => c.documentId))].map((id) => {
          const chunks = [...shown.values()].filter((c) => c.documentId === id);
          const first = chunks[0]!;
          return { id, title: first.title, product: first.product, domain: first.domain, lang: first.lang, text: chunks.map((c) => c.text).join("\n") };
        }),
      ),
    async retrieve(request, signal) {
      if (signal?.aborted) throw signal.reason;
      requests.push(request);
      const hits: RetrievedChunk[] = respond(request).map(({ chunk, score }) => ({ chunk, score, stages: { fusedScore: score }, neighbors: [] }));
      for (const hit of hits) shown.set(hit.chunk.chunkId, hit.chunk);
      return { hits };
    },
  };
}

export interface Harness {
  service: TurnService;
  persistence: Persistence;
  deps: AgentDeps;
}

export function harness(options: {
  models: ModelProvider;
  retriever: Retriever;
  /** Default unsureGates: the triage model decides what the policy lists do not. */
  gates?: Gates;
  settings?: Partial<AgentSettings>;
  persistence?: Persistence;
  /** Default: a clock that advances 5 ms per reading. */
  now?: () => number;
  /** Default: the shipped bundle. */
  bundle?: AgentBundle;
}): Harness {
  const persistence = options.persistence ?? createMemoryPersistence();
  let id = 0;
  let clock = 1_000;
  const deps: AgentDeps = {
    models: options.models,
    retriever: options.retriever,
    profiles: persistence.profiles,
    policy: createPolicy(options.bundle ?? bundle),
    gates: options.gates ?? unsureGates,
    bundle: options.bundle ?? bundle,
    settings: { ...defaultSettings, ...options.settings },
    now: options.now ?? (() => (clock += 5)),
    newId: () => `turn-${++id}`,
    logger: silentLogger,
  };
  const service = createTurnService({
    graph: compileGraph(deps, persistence.saver),
    transaction: persistence.saver,
    locks: persistence.locks,
    profiles: persistence.profiles,
    events: persistence.events,
    eraseThread: (key) => persistence.eraseThread(key),
    taxonomy: (tenantId, signal) => options.retriever.taxonomy(tenantId, signal),
    now: deps.now,
    newId: deps.newId,
    logger: silentLogger,
    redaction: deps.bundle.redaction,
  });
  return { service, persistence, deps };
}

export const turn = (text: string, patch: Partial<TurnInput> = {}): TurnInput => ({
  tenantId: "default",
  threadId: "thread-1",
  userId: "user-1",
  text,
  requestId: "",
  ...patch,
});

/** The result of a turn that must have completed (not refused, busy or replayed). */
export function completed(attempt: TurnAttempt): TurnResult {
  if (attempt.kind !== "completed") throw new Error(`expected completed, got ${attempt.kind}`);
  return attempt.result;
}

/** Runs a turn that must complete: its result and the nodes it went through. */
export async function runCompleted(h: Harness, text: string): Promise<{ result: TurnResult; path: string[] }> {
  const events: NodeProgressEvent[] = [];
  const result = completed(await h.service.runTurn(turn(text), { onProgress: (e) => events.push(e) }));
  return { result, path: events.filter((e) => e.phase === "completed").map((e) => e.node) };
}

/** Two rows of a device price table (value band × Monthly | Annual), as the chunker renders them. */
export function guardPriceRows(): Chunk[] {
  const row = (i: number, label: string, monthly: string, annual: string) =>
    chunk(`guard-en#${i}`, `Premium (rials) — ${label} — Monthly: ${monthly}; Annual: ${annual}`, {
      title: "Guard Device Insurance",
      product: "guard",
      domain: "devices",
      unit: {
        kind: "row",
        table: "guard-en:t0",
        caption: "Premium (rials)",
        rowLabel: label,
        cells: [
          { header: "Device value", value: label },
          { header: "Monthly", value: monthly },
          { header: "Annual", value: annual },
        ],
        rowHeaderColumn: 0,
      },
    });
  return [row(1, "Up to 20,000,000 rials", "190,000", "1,990,000"), row(2, "20,000,001–50,000,000 rials", "350,000", "3,850,000")];
}
