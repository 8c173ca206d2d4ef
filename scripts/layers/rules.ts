/**
 * The import rules of src/, as data, in one place. scripts/check-layers.ts (`npm run lint:layers`,
 * part of `npm test`) checks every import in src/ against them, and renders the picture and rule
 * list of docs/architecture.md from them (`npm run docs:layers`), so the two cannot drift apart.
 *
 * Paths are repository-relative with "/" separators. A path names a folder and everything under
 * it, or one file when it ends in ".ts".
 */

/**
 * The layers of src/, outer first. A folder may import any folder on a later row (inner), never one
 * on an earlier row (outer), and never another folder on its own row: folders on one row are
 * alternatives or peers that stay apart. Every folder of src/ must be on a row, so a new folder
 * gets a place before it gets importers.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["src/cli"],
  // The evaluation harness: driven by the CLI's `eval` command, it composes the app in-process.
  ["src/eval"],
  // The composition root: the only place that picks implementations (see IMPORTERS).
  ["src/app"],
  // Both ends of the wire: the server and the client that the CLI's chat and `eval --target` use.
  ["src/server", "src/client"],
  // Translation between generated messages and domain values, shared by both ends.
  ["src/wire"],
  ["src/service"],
  ["src/agent"],
  ["src/retrieval", "src/models", "src/persistence", "src/reading"],
  ["src/documents", "src/learn"],
  // Leaves: config reads files and the environment and imports only text; anyone may import its types.
  // Telemetry (metrics, the tracer, the request scope of log lines) is injected into every layer.
  ["src/config", "src/domain", "src/dependency", "src/telemetry"],
  ["src/text"],
];

/** A target that only some folders or files may import. */
export interface ImporterRule {
  readonly target: string;
  readonly only: readonly string[];
  readonly why: string;
}

export const IMPORTERS: readonly ImporterRule[] = [
  {
    target: "gen",
    only: ["src/server", "src/wire", "src/client"],
    why: "generated messages stay at the edge; everything inside speaks domain types",
  },
  {
    target: "src/persistence/factory.ts",
    only: ["src/app"],
    why: "the factory loads every backend (pg, better-sqlite3); only the composition root chooses one",
  },
  {
    target: "src/telemetry/tracing.ts",
    only: ["src/app"],
    why: "the OpenTelemetry SDK is set up once, by the composition root; everything else speaks @opentelemetry/api",
  },
  {
    target: "src/telemetry/metrics-server.ts",
    only: ["src/cli"],
    why: "only the entry point listens, for metrics as for the service",
  },
];

/** npm packages that only some places may load (value imports) or name (type-only imports). */
export interface PackageRule {
  readonly packages: readonly string[];
  /** Where a value import (one that loads the package at run time) may stand. */
  readonly load: readonly string[];
  /** Where, besides `load`, an `import type` (erased by the compiler) may stand. */
  readonly types: readonly string[];
  readonly why: string;
}

export const PACKAGES: readonly PackageRule[] = [
  {
    packages: ["pg", "better-sqlite3"],
    load: ["src/persistence/postgres", "src/persistence/sqlite", "src/cli/db.ts"],
    // The embedded retriever's document store and the embedding cache are handed the open
    // better-sqlite3 handle (opened by src/persistence/sqlite/database.ts, passed in by src/app)
    // and name its type.
    types: ["src/retrieval"],
    why: "database drivers load only in their adapters, so loading the agent never loads a driver",
  },
  {
    packages: ["@langchain/langgraph-checkpoint-postgres"],
    load: ["src/persistence/postgres"],
    types: [],
    why: "the Postgres checkpointer is the Postgres adapter's",
  },
  {
    packages: ["@langchain/langgraph-checkpoint-sqlite"],
    load: ["src/persistence/sqlite"],
    types: [],
    why: "the SQLite checkpointer is the SQLite adapter's",
  },
  {
    packages: ["@qdrant/js-client-rest"],
    load: ["src/retrieval/qdrant"],
    types: [],
    why: "the Qdrant client is the Qdrant backend's",
  },
  {
    packages: ["@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-proto", "@opentelemetry/resources", "@opentelemetry/context-async-hooks", "@opentelemetry/core"],
    load: ["src/telemetry/tracing.ts"],
    types: [],
    why: "the OpenTelemetry SDK is the composition root's (through src/telemetry/tracing.ts); code uses @opentelemetry/api",
  },
  {
    packages: ["prom-client"],
    load: ["src/telemetry"],
    types: [],
    why: "metrics are declared once, in src/telemetry/metrics.ts, and reach other layers as the Telemetry object",
  },
  {
    packages: ["langsmith"],
    load: ["src/app"],
    types: [],
    why: "LangSmith tracing is wired by the composition root alone",
  },
];

/** Groups of folders inside one layer that never import each other: alternative implementations. */
export const APART: readonly (readonly string[])[] = [
  ["src/retrieval/embedded", "src/retrieval/qdrant"],
  ["src/models/gemini", "src/models/offline"],
  ["src/persistence/postgres", "src/persistence/sqlite"],
];

/** Folders whose public API is one index: from outside the folder, only that file may be imported. */
export const ENTRIES: readonly { readonly folder: string; readonly entry: string }[] = [
  { folder: "src/retrieval", entry: "src/retrieval/index.ts" },
  { folder: "src/wire", entry: "src/wire/index.ts" },
  { folder: "src/documents", entry: "src/documents/index.ts" },
  { folder: "src/learn", entry: "src/learn/index.ts" },
];
