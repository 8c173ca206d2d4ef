import { randomUUID } from "node:crypto";
import { loadBundle } from "./bundle.js";
import type { Config } from "../config/config.js";
import type { Logger } from "../domain/logger.js";
import { settingsFromConfig, type AgentDeps } from "../agent/deps.js";
import { compileGraph } from "../agent/graph.js";
import { skipUntracedRunTrees } from "../agent/steps.js";
import { createPolicy } from "../agent/policy.js";
import { createGates } from "../agent/gates.js";
import { createOutgoingCheck } from "../agent/outgoing.js";
import { createTurnService } from "../service/turns.js";
import type { TurnService } from "../service/types.js";
import { createModelProvider, type ModelProvider } from "../models/index.js";
import { withCircuit } from "../models/circuit.js";
import type { ReadinessProbe } from "../domain/readiness.js";
import type { Persistence } from "../persistence/index.js";
import { createPersistence, createSharedDocumentStore } from "../persistence/factory.js";
import { openLocalDatabase } from "../persistence/sqlite/database.js";
import { createInstructionDetector, createRetrievalBackend, type Chunk, type DocumentIndex, type DocumentRules } from "../retrieval/index.js";
import { createTelemetry, type Telemetry } from "../telemetry/index.js";
import { createTracing } from "../telemetry/tracing.js";
import { instrumentEvents, instrumentLocks, instrumentModels, instrumentRetriever, instrumentTransaction, instrumentTurnService } from "./instrument.js";
import { createLangSmithTracing } from "./langsmith.js";

/** The running service's parts, wired once from configuration (the composition root). */
export interface App {
  turnService: TurnService;
  /** Tenants the service serves (from API keys, or the default tenant). */
  tenants: string[];
  /** The documents behind retrieval, for DocumentService. */
  documents: DocumentIndex;
  /** The size limits documents are checked against before they are written. */
  documentRules: DocumentRules;
  /**
   * An indexed chunk by id, for a tenant: lets evaluation check answers against their cited text.
   * Synchronous, so only the embedded retriever has it; with Qdrant it throws (use
   * `documents.getChunk`, which is asynchronous).
   */
  getChunk(tenantId: string, chunkId: string): Chunk | undefined;
  /** Metrics (for the scrape listener and the server's RPC metrics), the tracer, spans still to export. */
  telemetry: Telemetry;
  /** One per configured dependency (PostgreSQL, Qdrant, the model circuit): what readiness asks. */
  probes: readonly ReadinessProbe[];
  close(): Promise<void>;
}

/** Where `frontdesk ingest` writes with FRONTDESK_DOCUMENT_STORE=postgres (the CLI may not pick implementations itself). */
export { createSharedDocumentStore } from "../persistence/factory.js";

/** Tenants known from configuration: every key's tenant, or the default tenant without keys. */
export function configuredTenants(config: Config): string[] {
  return config.auth.apiKeys.length > 0 ? [...new Set(config.auth.apiKeys.map((k) => k.tenantId))] : [config.auth.defaultTenant];
}

/** Parts a test (or an embedding program) may supply instead of the configured ones. */
export interface AppOverrides {
  models?: ModelProvider;
  persistence?: Persistence;
  now?: () => number;
  /**
   * Directories loaded after the configured corpus, for every tenant: test-only documents (the
   * evaluation's fixtures) that must never ship in the bundled corpus.
   */
  extraCorpusDirs?: readonly string[];
  /** Instead of the configured telemetry (tests: an in-memory span exporter, a registry of their own). */
  telemetry?: Telemetry;
}

/**
 * Telemetry from configuration: Prometheus instruments with process metrics, and a tracer that
 * exports over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (else gives ids only, for the logs).
 */
export function createConfiguredTelemetry(config: Config): Telemetry {
  const { otlp, serviceName } = config.telemetry;
  const tracing = createTracing({ serviceName, otlpEndpoint: otlp?.endpoint ?? null, ...(otlp === null ? {} : { otlpHeaders: otlp.headers }) });
  return createTelemetry({ tracer: tracing.tracer, extract: tracing.extract, shutdown: tracing.shutdown });
}

export async function createApp(config: Config, logger: Logger, overrides: AppOverrides = {}): Promise<App> {
  const bundle = loadBundle(config.bundleDir);
  const tenants = configuredTenants(config);
  const telemetry = overrides.telemetry ?? createConfiguredTelemetry(config);

  // The start-up corpus (the bundled sample, or FRONTDESK_CORPUS_DIR) is served to every configured
  // tenant; ingested documents come from the data directory, PostgreSQL or the Qdrant collection.
  const retrieval = await createRetrievalBackend(config, {
    logger,
    tenants,
    openDatabase: () => openLocalDatabase(config.persistence.dataDir),
    openSharedStore: () => createSharedDocumentStore(config, logger, telemetry.tracer),
    detector: createInstructionDetector(bundle.detector),
    ...(overrides.extraCorpusDirs === undefined ? {} : { extraCorpusDirs: overrides.extraCorpusDirs }),
  });
  const retriever = instrumentRetriever(retrieval.retriever, config.retrieval.backend.kind, telemetry);

  let persistence: Persistence;
  try {
    persistence = overrides.persistence ?? (await createPersistence(config, logger, telemetry.tracer));
  } catch (error) {
    await retrieval.close();
    throw error;
  }
  if (persistence.poolStats !== undefined) telemetry.metrics.addPoolSource(persistence.poolStats);
  const now = overrides.now ?? Date.now;
  // Inside the instrumentation, so calls the open circuit refuses are counted ("unavailable").
  const circuit = withCircuit(overrides.models ?? createModelProvider(config, bundle), config.models.circuit);
  const deps: AgentDeps = {
    models: instrumentModels(circuit.provider, bundle, telemetry),
    retriever,
    lexicon: retrieval.lexicon,
    profiles: persistence.profiles,
    policy: createPolicy(bundle),
    gates: createGates(bundle.gates),
    bundle,
    outgoing: createOutgoingCheck({ prompts: Object.values(bundle.prompts).flatMap((parts) => Object.values(parts)), policy: bundle.policy }),
    settings: settingsFromConfig(config),
    now,
    newId: randomUUID,
    logger,
    telemetry,
  };
  logger.info({ provider: deps.models.id, bundle: bundle.version }, "model provider ready");
  const gateArtefact = bundle.gates.artefact;
  logger.info(
    { trainingDataSha256: gateArtefact.training.trainingDataSha256, examples: gateArtefact.training.examples, heldBackAccuracy: gateArtefact.metrics.test.accuracy },
    "gate classifier ready",
  );
  const langsmith = config.telemetry.langsmith === null ? null : createLangSmithTracing(config.telemetry.langsmith);
  if (langsmith === null) skipUntracedRunTrees();
  const compiled = compileGraph(deps, persistence.saver);
  const graph = langsmith === null ? compiled : compiled.withConfig({ callbacks: langsmith.callbacks });
  if (langsmith !== null) logger.info({ project: config.telemetry.langsmith?.project }, "LangSmith tracing on");
  const turnService = instrumentTurnService(
    createTurnService({
      graph,
      transaction: instrumentTransaction(persistence.saver, persistence.kind, telemetry),
      locks: instrumentLocks(persistence.locks, telemetry),
      profiles: persistence.profiles,
      events: instrumentEvents(persistence.events, telemetry),
      eraseThread: (key) => persistence.eraseThread(key),
      taxonomy: (tenantId, signal) => retriever.taxonomy(tenantId, signal),
      now,
      newId: randomUUID,
      logger,
      redaction: bundle.redaction,
    }),
    telemetry,
  );
  const probes: ReadinessProbe[] = [
    {
      name: "models",
      needs: ["agent"],
      check: async () => {
        if (circuit.state() === "open") throw new Error(`the ${circuit.provider.id} provider's circuit is open`);
      },
    },
  ];
  const ping = persistence.ping;
  if (ping !== undefined) probes.push({ name: "postgres", needs: ["agent"], check: (signal) => ping(signal) });
  const retrievalPing = retrieval.ping;
  if (retrievalPing !== undefined) probes.push({ name: "qdrant", needs: ["agent", "documents"], check: (signal) => retrievalPing(signal) });
  return {
    turnService,
    tenants,
    probes,
    documents: retrieval.documents,
    documentRules: retrieval.rules,
    getChunk(tenantId, chunkId) {
      if (retrieval.chunkLookup === null) throw new Error("App.getChunk needs the embedded retriever; with Qdrant use documents.getChunk");
      return retrieval.chunkLookup(tenantId, chunkId);
    },
    telemetry,
    async close() {
      await persistence.close();
      await retrieval.close();
      await langsmith?.flush();
      // Spans still buffered go out; a test's own telemetry is the test's to stop.
      if (overrides.telemetry === undefined) await telemetry.shutdown();
    },
  };
}
