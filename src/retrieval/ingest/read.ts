import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { listDocumentFiles, mediaTypeOf, type Fields } from "../../documents/index.js";
import { documentFromFields, parseDocumentFile, type FileOptions, type ParseResult } from "./corpus.js";

/**
 * Reading documents for ingestion: a folder of document files, a JSONL file, or one file. Every
 * bad document comes out as an "invalid" result with where it came from and why; nothing here
 * throws for one bad document.
 */

export interface ReadOptions extends FileOptions {
  /** FRONTDESK_MAX_ID_CHARS for JSONL records (files take it from `limits`). Default 128. */
  maxIdChars?: number;
}

/** Input kinds `readDocuments` understands, decided from the path. */
export type InputKind = "directory" | "jsonl" | "file";

export async function inputKind(path: string): Promise<InputKind> {
  const info = await stat(path);
  if (info.isDirectory()) return "directory";
  if (/\.jsonl$/iu.test(path)) return "jsonl";
  if (mediaTypeOf({ path }) !== null) return "file";
  throw new Error(`${path}: expected a directory, a .jsonl file, or a .md/.markdown/.txt/.html/.htm/.docx/.pdf file`);
}

/** How many results `readDocuments` will yield for `path` (files and orphan sidecars, or non-blank JSONL lines), for progress bars. */
export async function countDocuments(path: string): Promise<number> {
  const kind = await inputKind(path);
  switch (kind) {
    case "directory": {
      const { files, problems } = await listDocumentFiles(path);
      return files.length + problems.length;
    }
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
 * Reads documents from a directory (every format the document model reads, with sidecars), a
 * JSONL file or a single file, one result per document, in a deterministic order; a file is read
 * only when its turn comes, so memory stays flat for any folder. A second document with an id
 * already seen in this input is reported and skipped: ids are citation keys, unique per tenant.
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
  const { files, problems } = await listDocumentFiles(dir);
  for (const path of files) yield withSource(await parseDocumentFile(path, options), path);
  for (const problem of problems) yield { kind: "invalid", source: problem.source, reason: problem.reason };
}

async function* readSingle(path: string, options: ReadOptions): AsyncGenerator<ParseResult & { source: string }> {
  yield withSource(await parseDocumentFile(path, options), path);
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
    // The ingest flags fill what a record leaves out, as they do for files.
    const defaults: Fields = options.defaults ?? {};
    const get = (field: string): string | undefined => {
      const value = fields.get(field);
      return typeof value === "string" && value.trim() !== "" ? value : field === "body" || field === "id" ? undefined : defaults[field as keyof Fields];
    };
    yield withSource(documentFromFields(get, { tenantId: options.tenantId, source, ...(options.maxIdChars === undefined ? {} : { maxIdChars: options.maxIdChars }) }), source);
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
