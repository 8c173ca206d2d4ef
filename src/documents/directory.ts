import { readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join, relative, sep } from "node:path";
import { shortMessage } from "./docx.js";
import { DEFAULT_LIMITS, EXTENSIONS, parseDocumentBytes, tooLarge, type DocumentLimits, type ParseDocumentResult } from "./load.js";
import type { Fields } from "./metadata.js";
import type { DocumentProblem, DocumentWarning, ParsedDocument } from "./model.js";

/** Reading documents from disk: one file with its sidecar, or a whole folder. */

export interface LoadDocumentOptions {
  /** Metadata for fields neither a file nor its sidecar sets (ingest flags). */
  defaults?: Fields;
  limits?: Partial<DocumentLimits>;
}

export interface LoadedDocument {
  document: ParsedDocument;
  warnings: DocumentWarning[];
  /** The document as Markdown (see ParseDocumentResult): what a document store keeps. */
  markdown: string;
}

export interface LoadedDocuments {
  /** Valid documents, in path order. */
  documents: LoadedDocument[];
  /** One entry per rejected file (or duplicate id, or orphan sidecar), in path order. */
  problems: DocumentProblem[];
}

const SIDECAR = ".metadata.json";
const MAX_SIDECAR_BYTES = 64 * 1024;
// A README describes the folder itself; it is not a document for customers.
const README = /^readme(?:\.[^.]+)?$/iu;

/**
 * One file and its `<file>.metadata.json`, if there is one. The size is checked before the file
 * is read, so a 50 MB upload is never buffered just to be rejected.
 */
export async function loadDocumentFile(path: string, options: LoadDocumentOptions = {}): Promise<ParseDocumentResult> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let bytes: Uint8Array;
  let sidecar: string | null = null;
  try {
    const size = (await stat(path)).size;
    if (size > limits.maxFileBytes) return { kind: "invalid", reason: tooLarge(size, limits.maxFileBytes) };
    const sidecarSize = await stat(path + SIDECAR).then(
      (info) => (info.isFile() ? info.size : null),
      () => null,
    );
    if (sidecarSize !== null && sidecarSize > MAX_SIDECAR_BYTES) return { kind: "invalid", reason: `metadata sidecar too large (limit ${MAX_SIDECAR_BYTES} bytes)` };
    if (sidecarSize !== null) sidecar = await readFile(path + SIDECAR, "utf8");
    bytes = await readFile(path);
  } catch (error) {
    return { kind: "invalid", reason: `unreadable file (${errorCode(error)})` };
  }
  return parseDocumentBytes(bytes, { path, sidecar, ...(options.defaults === undefined ? {} : { defaults: options.defaults }), limits });
}

/**
 * Every document under `dir`, recursively, in code-unit order of relative paths (deterministic
 * across machines), skipping hidden entries and READMEs. Every bad file is reported with its
 * path and reason; none stops the others. A second document with an id already seen is a
 * problem: ids are the citation keys and must be unique per tenant.
 */
export async function loadDocumentDir(dir: string, options: LoadDocumentOptions = {}): Promise<LoadedDocuments> {
  const { files, problems } = await listDocumentFiles(dir);
  const documents: LoadedDocument[] = [];
  const firstSeen = new Map<string, string>();
  for (const path of files) {
    const parsed = await loadDocumentFile(path, options);
    if (parsed.kind === "invalid") {
      problems.push(parsed.field === undefined ? { source: path, reason: parsed.reason } : { source: path, reason: parsed.reason, field: parsed.field });
      continue;
    }
    const id = parsed.document.metadata.id;
    const previous = firstSeen.get(id);
    if (previous !== undefined) {
      problems.push({ source: path, field: "id", reason: `duplicate id "${id}" (first defined in ${previous})` });
      continue;
    }
    firstSeen.set(id, path);
    documents.push({ document: parsed.document, warnings: parsed.warnings, markdown: parsed.markdown });
  }
  const key = relativeKey(dir);
  problems.sort((a, b) => compare(key(a.source), key(b.source)));
  return { documents, problems };
}

/**
 * The document files under `dir` as `loadDocumentDir` reads them (recursively, in code-unit order
 * of relative paths, without hidden entries and READMEs), and a problem for each sidecar whose
 * document is not there: for callers that read the files one at a time.
 */
export async function listDocumentFiles(dir: string): Promise<{ files: string[]; problems: DocumentProblem[] }> {
  const all = await listFiles(dir);
  const key = relativeKey(dir);
  const files = all.filter((path) => EXTENSIONS[extname(path).toLowerCase()] !== undefined && !README.test(basename(path))).sort((a, b) => compare(key(a), key(b)));
  const fileSet = new Set(files);
  const problems: DocumentProblem[] = [];
  for (const path of all.filter((path) => path.endsWith(SIDECAR))) {
    const document = path.slice(0, -SIDECAR.length);
    if (!fileSet.has(document)) problems.push({ source: path, reason: `metadata sidecar without a document (${basename(document)} not found)` });
  }
  return { files, problems: problems.sort((a, b) => compare(key(a.source), key(b.source))) };
}

function relativeKey(dir: string): (path: string) => string {
  return (path) => relative(dir, path).split(sep).join("/");
}

function errorCode(error: unknown): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  return code !== "" ? code : shortMessage(error);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // Hidden entries are editor and VCS droppings (.git, .#draft.md), never documents.
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
