import type { Tracer } from "@opentelemetry/api";
import type { Config } from "../config/config.js";
import { ConfigError } from "../config/config.js";
import { silentLogger, type Logger } from "../domain/logger.js";
import { createMemoryPersistence } from "./memory.js";
import type { Persistence } from "./ports.js";
import type { SharedDocumentStore } from "../domain/documents.js";
import { createPostgresPersistence, openPostgresDocumentStore } from "./postgres/index.js";
import { createFilePersistence } from "./sqlite/index.js";

/** The persistence configuration asks for. Only the composition root imports this (it loads pg and better-sqlite3). */
export async function createPersistence(config: Config, logger: Logger = silentLogger, tracer?: Tracer): Promise<Persistence> {
  const kind = config.persistence.checkpointer;
  switch (kind) {
    case "memory":
      return createMemoryPersistence(config.watch);
    case "file":
      return createFilePersistence(config.persistence.dataDir, config.watch);
    case "postgres": {
      const databaseUrl = config.persistence.databaseUrl;
      if (databaseUrl === null) throw new ConfigError("FRONTDESK_CHECKPOINTER=postgres needs DATABASE_URL");
      return createPostgresPersistence({ databaseUrl, settings: config.persistence.postgres, watch: config.watch, logger, ...(tracer === undefined ? {} : { tracer }) });
    }
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown checkpointer ${String(unreachable)}`);
    }
  }
}

/** The shared document store FRONTDESK_DOCUMENT_STORE=postgres asks for (on DATABASE_URL, with the Postgres settings). */
export async function createSharedDocumentStore(config: Config, logger: Logger = silentLogger, tracer?: Tracer): Promise<SharedDocumentStore> {
  const backend = config.retrieval.backend;
  if (backend.kind !== "embedded" || backend.documentStore.kind !== "postgres") throw new ConfigError("the shared document store needs FRONTDESK_DOCUMENT_STORE=postgres");
  const { databaseUrl } = backend.documentStore;
  return openPostgresDocumentStore({ databaseUrl, settings: config.persistence.postgres, logger, ...(tracer === undefined ? {} : { tracer }) });
}
