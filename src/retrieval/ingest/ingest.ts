import type { DocumentIndex, UpsertOutcome } from "../document-index.js";
import type { SourceDocument } from "../types.js";
import type { CorpusProblem, CorpusWarning, ParseResult } from "./corpus.js";
import { checkDocument, mergeWarnings, type DocumentRules } from "./rules.js";

/**
 * Ingestion: documents read by read.ts, checked against the size limits (rules.ts), and the
 * valid ones written through a DocumentIndex in batches. Every bad document is reported with
 * where it came from and why; the rest are ingested.
 */

export interface IngestProgress {
  /** Documents read so far (valid or not). */
  read: number;
  /** Documents written to the index so far. */
  written: number;
  failed: number;
}

export interface IngestOptions {
  index: DocumentIndex;
  rules: DocumentRules;
  /** Documents per index.upsert call (FRONTDESK_INGEST_BATCH_DOCUMENTS). */
  batchDocuments: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Called for each bad document as soon as it is found. */
  onProblem?: (problem: CorpusProblem) => void;
  /** Called for each warning of a document that is ingested (a ragged row, a truncated table). */
  onWarning?: (warning: CorpusWarning) => void;
  signal?: AbortSignal;
}

export interface IngestReport {
  added: number;
  replaced: number;
  unchanged: number;
  /** Chunks of the added and replaced documents. */
  chunks: number;
  /** Bad documents, in input order. */
  failed: CorpusProblem[];
  /** What was repaired or bounded in the documents that were written, in input order. */
  warnings: CorpusWarning[];
}

/** The index failed (a dependency is down) part-way; `report` says what was done before. */
export class IngestInterruptedError extends Error {
  override readonly name = "IngestInterruptedError";
  constructor(
    readonly report: IngestReport,
    options: { cause: unknown },
  ) {
    super(`ingestion stopped: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** Checks and writes documents in batches; bad ones are reported and skipped. */
export async function ingestDocuments(results: AsyncIterable<ParseResult>, options: IngestOptions): Promise<IngestReport> {
  const report: IngestReport = { added: 0, replaced: 0, unchanged: 0, chunks: 0, failed: [], warnings: [] };
  const progress: IngestProgress = { read: 0, written: 0, failed: 0 };
  let batch: SourceDocument[] = [];

  const fail = (problem: CorpusProblem) => {
    report.failed.push(problem);
    progress.failed++;
    options.onProblem?.(problem);
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const documents = batch;
    batch = [];
    let outcomes: UpsertOutcome[];
    try {
      outcomes = await options.index.upsert(documents, options.signal);
    } catch (error) {
      if (options.signal?.aborted === true) throw options.signal.reason;
      throw new IngestInterruptedError(report, { cause: error });
    }
    for (const outcome of outcomes) {
      report[outcome.status]++;
      if (outcome.status !== "unchanged") report.chunks += outcome.chunkCount;
    }
    progress.written += documents.length;
    options.onProgress?.({ ...progress });
  };

  for await (const result of results) {
    options.signal?.throwIfAborted();
    progress.read++;
    if (result.kind === "invalid") {
      fail({ source: result.source, reason: result.reason, ...(result.field === undefined ? {} : { field: result.field }) });
    } else {
      const source = result.document.source ?? result.document.id;
      const check = checkDocument(result.document, options.rules);
      if (check.kind === "invalid") fail({ source, field: check.field, reason: check.reason });
      else {
        batch.push(result.document);
        for (const warning of mergeWarnings(result.warnings, check.warnings)) {
          const item = { source, code: warning.code, message: warning.message };
          report.warnings.push(item);
          options.onWarning?.(item);
        }
      }
    }
    if (batch.length >= options.batchDocuments) await flush();
    else options.onProgress?.({ ...progress });
  }
  await flush();
  return report;
}
