import { randomUUID } from "node:crypto";
import { loadBundle } from "./config/bundle.js";
import type { Config } from "./config/config.js";
import { ConfigError } from "./config/config.js";
import type { Logger } from "./domain/logger.js";
import { settingsFromConfig, type AgentDeps } from "./agent/deps.js";
import { compileGraph } from "./agent/graph.js";
import { createPolicy } from "./agent/policy.js";
import { createTurnService } from "./agent/turn-service.js";
import type { TurnService } from "./agent/types.js";
import { createModelProvider, type ModelProvider } from "./models/index.js";
import { createPersistence, type Persistence } from "./persistence/index.js";
import { createEmbeddedRetriever, createLocalEmbedder, loadCorpusDir } from "./retrieval/index.js";
import type { Chunk } from "./retrieval/types.js";

/** The running service's parts, wired once from configuration (the composition root). */
export interface App {
  turnService: TurnService;
  /** Tenants the service serves (from API keys, or the default tenant). */
  tenants: string[];
  /** Retrieval domains a request may name (from the config bundle); others are INVALID_ARGUMENT. */
  domains: readonly string[];
  /** An indexed chunk by id, for a tenant: lets evaluation check answers against their cited text. */
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

  const retriever = createEmbeddedRetriever({
    embedder: createLocalEmbedder(),
    candidates: config.retrieval.candidates,
    rrfK: config.retrieval.rrfK,
    contextWindow: config.retrieval.contextWindow,
  });
  // The bundled sample corpus (or FRONTDESK_CORPUS_DIR) is served to every configured tenant.
  for (const tenantId of tenants) {
    for (const dir of [config.retrieval.corpusDir, ...(overrides.extraCorpusDirs ?? [])]) {
      const corpus = await loadCorpusDir(dir, { tenantId, domains: bundle.domains });
      for (const problem of corpus.problems) logger.warn({ source: problem.source, reason: problem.reason }, "corpus document skipped");
      if (corpus.documents.length === 0) throw new ConfigError(`no documents could be loaded from ${dir}`);
      await retriever.add(corpus.documents);
    }
  }
  logger.info({ chunks: retriever.size, tenants, corpus: config.retrieval.corpusDir }, "corpus indexed");

  const persistence = overrides.persistence ?? (await createPersistence(config, logger));
  const now = overrides.now ?? Date.now;
  const deps: AgentDeps = {
    models: overrides.models ?? createModelProvider(config, bundle),
    retriever,
    profiles: persistence.profiles,
    policy: createPolicy(bundle),
    bundle,
    settings: settingsFromConfig(config),
    now,
    newId: randomUUID,
    logger,
  };
  logger.info({ provider: deps.models.id, bundle: bundle.version }, "model provider ready");
  const graph = compileGraph(deps, persistence.saver);
  const turnService = createTurnService({
    graph,
    transaction: persistence.saver,
    locks: persistence.locks,
    profiles: persistence.profiles,
    events: persistence.events,
    eraseThread: (key) => persistence.eraseThread(key),
    defaultLanguage: bundle.defaultLanguage,
    now,
    newId: randomUUID,
    logger,
  });
  return {
    turnService,
    tenants,
    domains: bundle.domains,
    getChunk: (tenantId, chunkId) => retriever.getChunk(tenantId, chunkId),
    async close() {
      await persistence.close();
    },
  };
}
