import {
  checkMetadataValues,
  DEFAULT_LIMITS,
  loadDocumentDir,
  loadDocumentFile,
  METADATA_FIELDS,
  parseDocumentBytes,
  type DocumentLimits,
  type DocumentWarning,
  type Fields,
  type MetadataField,
  type ParseDocumentResult,
} from "../../documents/index.js";
import { isLanguage } from "../../text/language.js";
import type { CorpusProblem } from "../corpus-error.js";
import type { SourceDocument } from "../types.js";

/**
 * Documents in, whatever their format: markdown, plain text, HTML, DOCX or PDF files (through the
 * document model, src/documents), a JSONL record or an API message. Every document comes out as
 * a SourceDocument whose body is Markdown — a markdown file's own body, any other format's blocks
 * rendered as Markdown — so chunking and every store see one shape. Bad documents are reported
 * with where they came from and a reason, never thrown, so one broken file does not stop an
 * ingest of hundreds.
 */

export type { CorpusProblem } from "../corpus-error.js";

/** Something repaired or bounded in a document that was still loaded (a ragged row, a truncated table). */
export interface CorpusWarning {
  source: string;
  code: DocumentWarning["code"];
  message: string;
}

export type ParseResult = { kind: "ok"; document: SourceDocument; warnings: DocumentWarning[] } | ({ kind: "invalid" } & CorpusProblem);

export interface ParseOptions {
  /** Where the document came from (a path, `file.jsonl:LINE`, `documents[2]`), repeated in every report. */
  source: string;
  /** The tenant that owns the document; from the ingest command or the API key, never from the document. */
  tenantId: string;
  /** Longest id, product and domain (FRONTDESK_MAX_ID_CHARS). Default 128. */
  maxIdChars?: number;
}

/** Every field a document has, in the order problems are reported. */
export const DOCUMENT_FIELDS = [...METADATA_FIELDS, "body"] as const;

/**
 * Checks a document's fields (a JSONL record, or an API message with a Markdown body) and builds
 * the document, with the rules files are held to: the metadata fields present, `id`, `product`
 * and `domain` slugs (any slug: a domain is the document's own, not one from a configured list),
 * `lang` fa or en, and a non-empty body.
 */
export function documentFromFields(get: (field: string) => string | undefined, options: ParseOptions, fieldsLabel = "field(s)"): ParseResult {
  const { source } = options;
  const invalid = (field: string, reason: string): ParseResult => ({ kind: "invalid", source, field, reason });
  const values = Object.fromEntries(METADATA_FIELDS.map((field) => [field, (get(field) ?? "").trim()])) as Record<MetadataField, string>;
  const missing = METADATA_FIELDS.filter((field) => values[field] === "");
  if (missing.length > 0) return invalid(missing[0] ?? "id", `missing ${fieldsLabel}: ${missing.join(", ")}`);
  const problem = checkMetadataValues(values, options.maxIdChars ?? DEFAULT_LIMITS.maxIdChars);
  if (problem !== null) return invalid(problem.field, problem.reason);
  const body = (get("body") ?? "")
    .replace(/^\uFEFF/u, "")
    .replace(/\r\n?/gu, "\n")
    .trim();
  if (body === "") return invalid("body", "empty body");
  const { id, title, product, domain, lang } = values;
  // Checked above; narrows the type.
  if (!isLanguage(lang)) return invalid("lang", `unsupported lang "${lang}"`);
  return { kind: "ok", document: { id, title, product, domain, lang, body, tenantId: options.tenantId, source }, warnings: [] };
}

/** How files and uploads are parsed: the limits, and metadata for what a file does not say. */
export interface FileOptions {
  tenantId: string;
  /** Metadata for fields neither a file's front matter (or meta tags) nor its sidecar sets: ingest flags. */
  defaults?: Fields;
  /** FRONTDESK_MAX_FILE_BYTES, FRONTDESK_MAX_TABLE_ROWS, FRONTDESK_MAX_ID_CHARS; defaults as in src/documents. */
  limits?: Partial<DocumentLimits>;
}

/** One file (and its `<file>.metadata.json`), as a document. */
export async function parseDocumentFile(path: string, options: FileOptions): Promise<ParseResult> {
  return fromParsed(await loadDocumentFile(path, fileOptions(options)), path, options.tenantId);
}

/**
 * Uploaded bytes of a declared media type (UpsertDocuments' `content`): `overrides` (the
 * message's own metadata fields) win over what the file carries.
 */
export async function parseDocumentContent(bytes: Uint8Array, options: FileOptions & { mediaType: string; source: string; overrides: Fields }): Promise<ParseResult> {
  const parsed = await parseDocumentBytes(bytes, { mediaType: options.mediaType, source: options.source, overrides: options.overrides, ...fileOptions(options) });
  return fromParsed(parsed, options.source, options.tenantId);
}

function fileOptions(options: FileOptions): { defaults?: Fields; limits?: Partial<DocumentLimits> } {
  return { ...(options.defaults === undefined ? {} : { defaults: options.defaults }), ...(options.limits === undefined ? {} : { limits: options.limits }) };
}

function fromParsed(parsed: ParseDocumentResult, source: string, tenantId: string): ParseResult {
  if (parsed.kind === "invalid") return { kind: "invalid", source, reason: parsed.reason, ...(parsed.field === undefined ? {} : { field: parsed.field }) };
  const { id, title, product, domain, lang } = parsed.document.metadata;
  return { kind: "ok", document: { id, title, product, domain, lang, body: parsed.markdown.trim(), tenantId, source }, warnings: parsed.warnings };
}

export interface LoadCorpusOptions extends FileOptions {}

export interface LoadedCorpus {
  /** Valid documents, in path order. */
  documents: SourceDocument[];
  /** One entry per rejected file (or duplicate id, or sidecar without its file), in path order. */
  problems: CorpusProblem[];
  /** What was repaired or bounded in the documents that loaded. */
  warnings: CorpusWarning[];
}

/**
 * Loads every document file under `dir`, recursively, through the document model's directory
 * loader: .md, .markdown, .txt, .html, .htm, .docx and .pdf, each with its `<file>.metadata.json`
 * sidecar (the Bedrock Knowledge Bases convention) when it has one; README files and hidden
 * entries are skipped. Files are read in code-unit order of their relative paths, so ingestion is
 * deterministic across machines. A second document with an id already seen is a problem: ids are
 * the citation keys and must be unique per tenant.
 */
export async function loadCorpusDir(dir: string, options: LoadCorpusOptions): Promise<LoadedCorpus> {
  const loaded = await loadDocumentDir(dir, fileOptions(options));
  const documents: SourceDocument[] = [];
  const warnings: CorpusWarning[] = [];
  for (const { document, markdown, warnings: found } of loaded.documents) {
    const { id, title, product, domain, lang, source } = document.metadata;
    // Trimmed as a JSONL or API body is: the same text gives the same content hash, whichever way it came.
    documents.push({ id, title, product, domain, lang, body: markdown.trim(), tenantId: options.tenantId, source });
    for (const warning of found) warnings.push({ source, ...warning });
  }
  const problems = loaded.problems.map(({ source, reason, field }): CorpusProblem => ({ source, reason, ...(field === undefined ? {} : { field }) }));
  return { documents, problems, warnings };
}
