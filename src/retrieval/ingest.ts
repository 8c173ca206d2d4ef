import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { searchableText, type Chunker } from "./chunker.js";
import { documentFromFields, isDocumentFile, listDocumentFiles, parseDocument, type CorpusProblem, type ParseOptions, type ParseResult } from "./corpus.js";
import type { DocumentIndex, UpsertOutcome } from "./document-index.js";
import type { SourceDocument } from "./types.js";

/**
 * Ingestion: reading documents (a folder of markdown/text files with front matter, or a JSONL
 * file), checking them against the size limits, and writing the valid ones through a
 * DocumentIndex in batches. Every bad document is reported with where it came from and why; the
 * rest are ingested.
 */

/** The size limits every ingested document is held to (the same for the CLI and the API). */
export interface DocumentRules {
  /** The chunker documents will be cut with. */
  chunker: Chunker;
  /** FRONTDESK_MAX_CHUNK_CHARS: the most text embedded for one chunk (title, heading path, text). */
  maxChunkChars: number;
  /** FRONTDESK_MAX_DOCUMENT_CHARS: a document's body. */
  maxDocumentChars: number;
}

export interface DocumentProblem {
  field: "title" | "body";
  reason: string;
}

/**
 * Size problems of an otherwise valid document, or null. A chunk is "over the size limit" when
 * its embedded text (title, heading path and text) exceeds `maxChunkChars`, or when the body holds
 * an unbroken run of characters longer than a chunk: the chunker could only cut it mid-token, and
 * such runs (an inlined image, a table without spaces) are noise in an index, not content.
 */
export function checkDocumentSize(document: SourceDocument, rules: DocumentRules): DocumentProblem | null {
  if (document.body.length > rules.maxDocumentChars) {
    return { field: "body", reason: `body of ${document.body.length} characters is over the limit of ${rules.maxDocumentChars}` };
  }
  const run = longestRun(document.body);
  if (run > rules.chunker.maxChars) {
    return {
      field: "body",
      reason: `chunk over the size limit: an unbroken run of ${run} characters cannot fit in a chunk of ${rules.chunker.maxChars}`,
    };
  }
  for (const chunk of rules.chunker.chunk(document)) {
    const length = searchableText(chunk).length;
    if (length > rules.maxChunkChars) {
      return {
        field: document.title.length + chunk.section.length > rules.maxChunkChars - rules.chunker.maxChars ? "title" : "body",
        reason: `chunk ${chunk.chunkIndex} over the size limit: ${length} characters of title, headings and text (limit ${rules.maxChunkChars})`,
      };
    }
  }
  return null;
}

function longestRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/\S+/gu)) longest = Math.max(longest, match[0].length);
  return longest;
}

export type ReadOptions = Omit<ParseOptions, "source">;

/** Input kinds `readDocuments` understands, decided from the path. */
export type InputKind = "directory" | "jsonl" | "file";

export async function inputKind(path: string): Promise<InputKind> {
  const info = await stat(path);
  if (info.isDirectory()) return "directory";
  if (/\.jsonl$/iu.test(path)) return "jsonl";
  if (isDocumentFile(path)) return "file";
  throw new Error(`${path}: expected a directory, a .jsonl file, or a .md/.txt file`);
}

/** How many documents `readDocuments` will yield for `path` (files, or non-blank JSONL lines), for progress bars. */
export async function countDocuments(path: string): Promise<number> {
  const kind = await inputKind(path);
  switch (kind) {
    case "directory":
      return (await listDocumentFiles(path)).length;
    case "file":
      return 1;
    case "jsonl": {
      let count = 0;
      for await (const line of jsonlLines(path)) if (!isBlank(line.bytes)) count++;
      return count;
    }
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown input ${String(unreachable)}`);
    }
  }
}

/**
 * Reads documents from a directory, a JSONL file or a single file, one result per document, in a
 * deterministic order. A second document with an id already seen in this input is reported and
 * skipped: ids are citation keys, unique per tenant.
 */
export async function* readDocuments(path: string, options: ReadOptions): AsyncGenerator<ParseResult> {
  const kind = await inputKind(path);
  const firstSeen = new Map<string, string>();
  const source = kind === "directory" ? readDirectory(path, options) : kind === "jsonl" ? readJsonl(path, options) : readSingle(path, options);
  for await (const result of source) {
    if (result.kind === "ok") {
      const previous = firstSeen.get(result.document.id);
      if (previous !== undefined) {
        yield { kind: "invalid", source: result.source, field: "id", reason: `duplicate id "${result.document.id}" (first defined in ${previous})` };
        continue;
      }
      firstSeen.set(result.document.id, result.source);
    }
    yield result;
  }
}

async function* readDirectory(dir: string, options: ReadOptions): AsyncGenerator<ParseResult & { source: string }> {
  for (const path of await listDocumentFiles(dir)) yield withSource(parseDocument(await readFile(path), { ...options, source: path }), path);
}

async function* readSingle(path: string, options: ReadOptions): AsyncGenerator<ParseResult & { source: string }> {
  yield withSource(parseDocument(await readFile(path), { ...options, source: path }), path);
}

function withSource(result: ParseResult, source: string): ParseResult & { source: string } {
  return result.kind === "ok" ? { ...result, source } : result;
}

const JSONL_FIELDS = ["id", "title", "product", "domain", "lang", "body"] as const;

/**
 * One document per line: `{"id", "title", "product", "domain", "lang", "body"}`, all strings.
 * Each line is decoded as strict UTF-8 on its own, so one badly encoded line is reported and the
 * others are still read. Blank lines are skipped. The source of a document is `path:line`.
 */
async function* readJsonl(path: string, options: ReadOptions): AsyncGenerator<ParseResult & { source: string }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const { number, bytes } of jsonlLines(path)) {
    if (isBlank(bytes)) continue;
    const source = `${path}:${number}`;
    const invalid = (reason: string, field?: string): ParseResult & { source: string } => ({ kind: "invalid", source, reason, ...(field === undefined ? {} : { field }) });
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      yield invalid("not valid UTF-8");
      continue;
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      yield invalid("not valid JSON");
      continue;
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      yield invalid("not a JSON object");
      continue;
    }
    const fields = new Map(Object.entries(record));
    const wrongType = JSONL_FIELDS.find((field) => fields.has(field) && typeof fields.get(field) !== "string");
    if (wrongType !== undefined) {
      yield invalid(`field "${wrongType}" must be a string`, wrongType);
      continue;
    }
    const get = (field: string): string | undefined => {
      const value = fields.get(field);
      return typeof value === "string" ? value : undefined;
    };
    yield withSource(documentFromFields(get, { ...options, source }), source);
  }
}

function isBlank(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
}

/** Lines of a file as raw bytes (without the newline), streamed: memory stays flat for any file size. */
async function* jsonlLines(path: string): AsyncGenerator<{ number: number; bytes: Uint8Array }> {
  let pending: Buffer = Buffer.alloc(0);
  let number = 0;
  for await (const part of createReadStream(path) as AsyncIterable<Buffer>) {
    let data = pending.length === 0 ? part : Buffer.concat([pending, part]);
    let newline = data.indexOf(0x0a);
    while (newline >= 0) {
      number++;
      yield { number, bytes: data.subarray(0, newline) };
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    pending = Buffer.from(data);
  }
  if (pending.length > 0) yield { number: number + 1, bytes: pending };
}

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
  const report: IngestReport = { added: 0, replaced: 0, unchanged: 0, chunks: 0, failed: [] };
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
      const problem = checkDocumentSize(result.document, options.rules);
      if (problem === null) batch.push(result.document);
      else fail({ source: result.document.source ?? result.document.id, ...problem });
    }
    if (batch.length >= options.batchDocuments) await flush();
    else options.onProgress?.({ ...progress });
  }
  await flush();
  return report;
}
