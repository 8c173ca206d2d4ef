import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { configuredTenants, createSharedDocumentStore } from "../app/index.js";
import { loadBundle } from "../app/bundle.js";
import { ConfigError, loadConfig, type Config } from "../config/config.js";
import type { Fields } from "../documents/index.js";
import { silentLogger, type Logger } from "../domain/logger.js";
import { openLocalDatabase } from "../persistence/sqlite/database.js";
import { isLanguage } from "../text/language.js";
import {
  checkDocument,
  countDocuments,
  createIngestTarget,
  createInstructionDetector,
  documentRules,
  fileLimits,
  ingestDocuments,
  IngestInterruptedError,
  inputKind,
  mergeWarnings,
  readDocuments,
  type CorpusProblem,
  type CorpusWarning,
  type IngestProgress,
  type IngestReport,
  type IngestTarget,
  type ReadOptions,
} from "../retrieval/index.js";
import type { CommandIo } from "./chat.js";
import { oneLine } from "./serve.js";

export const INGEST_HELP = `Usage: frontdesk ingest PATH [options]

Ingest documents for one tenant: a folder of document files (searched recursively, README files
skipped), a JSONL file with one document per line ({"id", "title", "product", "domain", "lang",
"body"}, body in Markdown), or a single file. Files are .md, .markdown, .txt, .html, .htm, .docx
or .pdf; a file's metadata comes from its front matter (or HTML <meta name="frontdesk:*"> tags),
else from a <file>.metadata.json sidecar ({"metadataAttributes": {"product": "travel", ...}},
the Bedrock Knowledge Bases format), else from the flags below.

Every bad document (a missing field, an id, product or domain that is not a slug, not UTF-8, no
text (a scanned PDF, a DOCX of images), a file over FRONTDESK_MAX_FILE_BYTES, a chunk over the
size limit, a duplicate id) is reported with its path and the reason; the others are ingested.
What was repaired (a ragged table row, a table cut at FRONTDESK_MAX_TABLE_ROWS) is reported as a
warning. Re-ingesting an unchanged document does nothing; a changed one replaces its chunks.

Where documents go: with Qdrant (QDRANT_URL), into the collection, served at once. With the
embedded retriever, into the data directory (FRONTDESK_DATA_DIR), indexed by the server at its
next start; to update a running server without a restart, use DocumentService instead.

Options:
  --tenant T    the tenant that owns the documents (default: the only configured tenant)
  --title T     metadata for documents that do not say it themselves (front matter, sidecar)
  --product P   (a slug)
  --domain D    (a slug)
  --lang L      (fa or en)
  --id ID       the id, for a single file only (a slug)
  --dry-run     check every document and report problems, writing nothing
  -h, --help    show this help

Exit status: 0 when every document was ingested, 1 when some failed or the vector store or
embedder failed part-way, 2 for a usage or configuration error.
`;

/** Draws progress: a bar on a terminal, nothing but the problem lines otherwise. */
interface Progress {
  start(total: number): void;
  update(progress: IngestProgress): void;
  /** A line above the bar (a problem report). */
  log(line: string): void;
  stop(): void;
}

function isTTY(stream: NodeJS.WritableStream): boolean {
  return "isTTY" in stream && stream.isTTY === true;
}

function createProgress(stream: NodeJS.WritableStream): Progress {
  if (!isTTY(stream)) {
    return { start() {}, update() {}, log: (line) => void stream.write(`${line}\n`), stop() {} };
  }
  const bars = new cliProgress.MultiBar(
    {
      // The stream type cli-progress declares is NodeJS.WritableStream; a terminal stream is one.
      stream,
      format: "ingesting {bar} {value}/{total} documents | {written} written | {failed} failed",
      hideCursor: false,
      gracefulExit: false,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(total) {
      bar = bars.create(total, 0, { written: 0, failed: 0 });
    },
    update(progress) {
      bar?.update(progress.read, { written: progress.written, failed: progress.failed });
    },
    log(line) {
      bars.log(`${line}\n`);
    },
    stop() {
      // Flush lines logged since the last redraw, then draw the final state.
      bars.update();
      bars.stop();
    },
  };
}

function summary(report: IngestReport, tenant: string, target: string): string {
  const written = report.added + report.replaced + report.unchanged;
  return (
    `ingested ${written} document(s) into ${target} for tenant ${tenant}: ` +
    `${report.added} added, ${report.replaced} replaced, ${report.unchanged} unchanged (${report.chunks} chunks written); ` +
    `${report.failed.length} failed\n`
  );
}

function problemLine(problem: CorpusProblem): string {
  return `frontdesk ingest: ${problem.source}: ${problem.reason}`;
}

/** Only the ingestion check's warnings reach the terminal: "<document>: warning: n of m chunks…". */
function flaggedLogger(progress: Progress): Logger {
  return {
    ...silentLogger,
    warn(obj: { documentId?: unknown; instructionChunks?: unknown; chunkCount?: unknown }) {
      if (typeof obj.documentId !== "string" || typeof obj.instructionChunks !== "number") return;
      progress.log(
        `frontdesk ingest: ${obj.documentId}: warning: ${obj.instructionChunks} of ${String(obj.chunkCount)} chunk(s) hold text addressed to the assistant (a planted instruction?); it is withheld at retrieval`,
      );
    },
  };
}

function warningLine(warning: CorpusWarning): string {
  return `frontdesk ingest: ${warning.source}: warning: ${warning.message}`;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;

/** The metadata flags as defaults, each checked as the document rules would check it. */
function metadataDefaults(values: Partial<Record<"id" | "title" | "product" | "domain" | "lang", string>>, kind: string): Fields {
  if (values.id !== undefined && kind !== "file") throw new ConfigError("--id names one document: use it with a single file, not a folder or JSONL");
  const defaults: Fields = {};
  for (const field of ["id", "title", "product", "domain", "lang"] as const) {
    const value = values[field]?.trim();
    if (value === undefined) continue;
    if (value === "") throw new ConfigError(`--${field} must not be empty`);
    if (field !== "title" && field !== "lang" && !SLUG.test(value)) throw new ConfigError(`--${field} ${value}: expected a slug (lower-case letters, digits and single dashes)`);
    if (field === "lang" && !isLanguage(value)) throw new ConfigError(`--lang ${value}: expected fa or en`);
    defaults[field] = value;
  }
  return defaults;
}

function chooseTenant(config: Config, requested: string | undefined): string {
  const tenants = configuredTenants(config);
  if (requested === undefined) {
    if (tenants.length === 1 && tenants[0] !== undefined) return tenants[0];
    throw new ConfigError(`--tenant is required when several tenants are configured (${tenants.join(", ")})`);
  }
  if (!tenants.includes(requested)) throw new ConfigError(`--tenant ${requested} is not a configured tenant (${tenants.join(", ")})`);
  return requested;
}

export async function ingestCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      tenant: { type: "string" },
      title: { type: "string" },
      product: { type: "string" },
      domain: { type: "string" },
      lang: { type: "string" },
      id: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(INGEST_HELP);
    return 0;
  }
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) {
    io.stderr.write(`frontdesk ingest: expected exactly one PATH\n\n${INGEST_HELP}`);
    return 2;
  }

  let config: Config;
  let tenantId: string;
  let readOptions: ReadOptions;
  try {
    config = loadConfig(io.env);
    tenantId = chooseTenant(config, values.tenant);
    const defaults = metadataDefaults(values, await inputKind(path));
    readOptions = { tenantId, defaults, limits: fileLimits(documentRules(config)), maxIdChars: config.limits.maxIdChars };
  } catch (err) {
    io.stderr.write(`frontdesk ingest: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return 2;
  }

  const progress = createProgress(io.stderr);
  if (values["dry-run"] === true) return dryRun(path, readOptions, config, tenantId, io, progress);

  let target: IngestTarget;
  try {
    // The bundle's instruction detector checks every document written (docs/detector.md): a
    // flagged one is named on stderr with its count, never its text.
    const detector = createInstructionDetector(loadBundle(config.bundleDir).detector);
    target = await createIngestTarget(config, {
      logger: flaggedLogger(progress),
      detector,
      openDatabase: () => openLocalDatabase(config.persistence.dataDir),
      openSharedStore: () => createSharedDocumentStore(config),
    });
  } catch (err) {
    const code = err instanceof ConfigError ? 2 : 1;
    io.stderr.write(`frontdesk ingest: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return code;
  }
  try {
    progress.start(await countDocuments(path));
    const report = await ingestDocuments(readDocuments(path, readOptions), {
      index: target.documents,
      rules: target.rules,
      batchDocuments: config.ingest.batchDocuments,
      onProgress: (p) => progress.update(p),
      onProblem: (problem) => progress.log(problemLine(problem)),
      onWarning: (warning) => progress.log(warningLine(warning)),
    });
    progress.stop();
    io.stdout.write(summary(report, tenantId, target.description));
    return report.failed.length > 0 ? 1 : 0;
  } catch (err) {
    progress.stop();
    if (err instanceof IngestInterruptedError) io.stdout.write(summary(err.report, tenantId, target.description));
    io.stderr.write(`frontdesk ingest: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  } finally {
    await target.close();
  }
}

async function dryRun(path: string, readOptions: ReadOptions, config: Config, tenantId: string, io: CommandIo, progress: Progress): Promise<number> {
  const rules = documentRules(config);
  progress.start(await countDocuments(path));
  let read = 0;
  let valid = 0;
  let failed = 0;
  for await (const result of readDocuments(path, readOptions)) {
    read++;
    let problem: CorpusProblem | null = null;
    if (result.kind === "invalid") {
      problem = { source: result.source, reason: result.reason };
    } else {
      const source = result.document.source ?? result.document.id;
      const check = checkDocument(result.document, rules);
      if (check.kind === "invalid") problem = { source, reason: check.reason };
      else for (const warning of mergeWarnings(result.warnings, check.warnings)) progress.log(warningLine({ source, ...warning }));
    }
    if (problem === null) valid++;
    else {
      failed++;
      progress.log(problemLine(problem));
    }
    progress.update({ read, written: 0, failed });
  }
  progress.stop();
  io.stdout.write(`dry run for tenant ${tenantId}: ${valid} document(s) would be ingested; ${failed} failed; nothing was written\n`);
  return failed > 0 ? 1 : 0;
}
