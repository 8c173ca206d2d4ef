import type Database from "better-sqlite3";
import { ConfigError, type DocumentStoreConfig } from "../../config/config.js";
import type { SharedDocumentStore } from "../../domain/documents.js";
import { createMemoryDocumentStore, createSqliteDocumentStore, type DocumentStore } from "./document-store.js";

/** Where the embedded index's ingested documents are: in this process (memory, the SQLite file) or shared by the replicas. */
export type OpenedStore = { kind: "local"; store: DocumentStore } | { kind: "shared"; store: SharedDocumentStore; pollMs: number };

export async function openStore(
  config: DocumentStoreConfig,
  options: { openDatabase: () => Database.Database; openSharedStore?: () => Promise<SharedDocumentStore> },
): Promise<{ store: OpenedStore; database: Database.Database | null; close: () => Promise<void> }> {
  switch (config.kind) {
    case "memory":
      return { store: { kind: "local", store: createMemoryDocumentStore() }, database: null, close: async () => {} };
    case "file": {
      const database = options.openDatabase();
      return {
        store: { kind: "local", store: createSqliteDocumentStore(database) },
        database,
        close: async () => {
          database.close();
        },
      };
    }
    case "postgres": {
      if (options.openSharedStore === undefined) throw new ConfigError("FRONTDESK_DOCUMENT_STORE=postgres is not available here");
      const shared = await options.openSharedStore();
      return { store: { kind: "shared", store: shared, pollMs: config.pollMs }, database: null, close: () => shared.close() };
    }
    default: {
      const unreachable: never = config;
      throw new ConfigError(`unknown document store ${JSON.stringify(unreachable)}`);
    }
  }
}
