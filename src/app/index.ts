import { randomUUID } from "node:crypto";
import { loadBundle } from "./bundle.js";
import type { Config } from "../config/config.js";
import type { Logger } from "../domain/logger.js";
import { settingsFromConfig, type AgentDeps } from "../agent/deps.js";
import { compileGraph } from "../agent/graph.js";
import { createPolicy } from "../agent/policy.js";
import { createGates } from "../agent/gates.js";
import { createTurnService } from "../service/turns.js";
import type { TurnService } from "../service/types.js";
import { createModelProvider, type ModelProvider } from "../models/index.js";
import { type Persistence } from "../persistence/index.js";
import { createPersistence } from "../persistence/factory.js";
import { openLocalDatabase } from "../persistence/sqlite/database.js";
import { createRetrievalBackend, type Chunk, type DocumentIndex, type DocumentRules } from "../retrieval/index.js";

/** The running service's parts, wired once from configuration (the composition root). */
export interface App {
  turnService: TurnService;
  /** Tenants the service serves (from API keys, or the default tenant). */
  tenants: string[];
  /** Retrieval domains a request may name (from the config bundle); others are INVALID_ARGUMENT. */
  domains: readonly string[];
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
  close(): Promise<void>;
}

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
}

export async function createApp(config: Config, logger: Logger, overrides: AppOverrides = {}): Promise<App> {
  const bundle = loadBundle(config.bundleDir);
  const tenants = configuredTenants(config);

  // The start-up corpus (the bundled sample, or FRONTDESK_CORPUS_DIR) is served to every configured
  // tenant; ingested documents come from the data directory or the Qdrant collection.
  const retrieval = await createRetrievalBackend(config, {
    logger,
    tenants,
    domains: bundle.domains,
    openDatabase: () => openLocalDatabase(config.persistence.dataDir),
    ...(overrides.extraCorpusDirs === undefined ? {} : { extraCorpusDirs: overrides.extraCorpusDirs }),
  });
  const { retriever } = retrieval;

  let persistence: Persistence;
  try {
    persistence = overrides.persistence ?? (await createPersistence(config, logger));
  } catch (error) {
    await retrieval.close();
    throw error;
  }
  const now = overrides.now ?? Date.now;
  const deps: AgentDeps = {
    models: overrides.models ?? createModelProvider(config, bundle),
    retriever,
    profiles: persistence.profiles,
    policy: createPolicy(bundle),
    gates: createGates(bundle.gates),
    bundle,
    settings: settingsFromConfig(config),
    now,
    newId: randomUUID,
    logger,
  };
  logger.info({ provider: deps.models.id, bundle: bundle.version }, "model provider ready");
  const gates = bundle.gates.artefact;
  logger.info(
    { trainingDataSha256: gates.training.trainingDataSha256, examples: gates.training.examples, heldBackAccuracy: gates.metrics.test.accuracy },
    "gate classifier ready",
  );
  const graph = compileGraph(deps, persistence.saver);
  const turnService = createTurnService({
    graph,
    transaction: persistence.saver,
    locks: persistence.locks,
    profiles: persistence.profiles,
    events: persistence.events,
    eraseThread: (key) => persistence.eraseThread(key),
    now,
    newId: randomUUID,
    logger,
  });
  return {
    turnService,
    tenants,
    domains: bundle.domains,
    documents: retrieval.documents,
    documentRules: retrieval.rules,
    getChunk(tenantId, chunkId) {
      if (retrieval.chunkLookup === null) throw new Error("App.getChunk needs the embedded retriever; with Qdrant use documents.getChunk");
      return retrieval.chunkLookup(tenantId, chunkId);
    },
    async close() {
      await persistence.close();
      await retrieval.close();
    },
  };
}
