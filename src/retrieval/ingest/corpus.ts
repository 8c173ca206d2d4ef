import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isLanguage } from "../../text/language.js";
import type { SourceDocument } from "../types.js";

/**
 * Reading insurer documents: markdown (or plain text) with a front-matter block of
 * `key: value` lines between two `---` lines. Bad files are reported with their path and a
 * reason, never thrown, so one broken file does not stop an ingest of hundreds.
 */

export interface ParseOptions {
  /** Where the text came from (a path), repeated in every report. */
  source: string;
  /** The tenant that owns the document; from the ingest command, never from the file. */
  tenantId: string;
  /** Allowed business domains; when given, any other domain is rejected. Default: any. */
  domains?: readonly string[];
  /** Longest document id and product key (FRONTDESK_MAX_ID_CHARS). Default 128. */
  maxIdChars?: number;
}

export interface CorpusProblem {
  source: string;
  reason: string;
  /** The document field at fault, when one is (e.g. "lang"); absent for file-level problems. */
  field?: string;
}

export type ParseResult = { kind: "ok"; document: SourceDocument } | ({ kind: "invalid" } & CorpusProblem);

const REQUIRED_FIELDS = ["id", "title", "product", "domain", "lang"] as const;
/** Every field a document has, in the order problems are reported. */
export const DOCUMENT_FIELDS = [...REQUIRED_FIELDS, "body"] as const;
// Ids end up in chunk ids (`${id}#${n}`) and citations: keep them to a safe, readable alphabet.
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/u;
const SLUG = /^[a-z0-9][a-z0-9_-]*$/u;

/**
 * Parses one document. `content` may be the raw bytes of a file: they are decoded strictly, so a
 * file in another encoding (Windows-1256 is common for Persian) is rejected instead of being
 * indexed as mojibake.
 */
export function parseDocument(content: string | Uint8Array, options: ParseOptions): ParseResult {
  const { source } = options;
  const invalid = (reason: string): ParseResult => ({ kind: "invalid", source, reason });

  let text: string;
  if (typeof content === "string") {
    text = content;
  } else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(content);
    } catch {
      return invalid("not valid UTF-8");
    }
  }
  text = text.replace(/^\uFEFF/u, "").replace(/\r\n?/gu, "\n");

  const lines = text.split("\n");
  if (lines[0]?.trim() !== "---") return invalid("missing front matter (the first line must be ---)");
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) return invalid("unterminated front matter (no closing ---)");

  const fields = new Map<string, string>();
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/u.exec(line);
    if (match === null) return invalid(`malformed front matter line ${i + 1}: ${JSON.stringify(line.slice(0, 60))}`);
    const [, key = "", raw = ""] = match;
    if (fields.has(key)) return invalid(`duplicate front matter field "${key}"`);
    fields.set(key, unquote(raw.trim()));
  }

  const body = lines.slice(end + 1).join("\n").trim();
  return documentFromFields((field) => (field === "body" ? body : fields.get(field)), options, "front matter field(s)");
}

/**
 * Checks a document's fields (front matter, a JSONL record or an API message) and builds the
 * document. The same rules everywhere: the required fields, a safe id, a supported language, a
 * configured domain and a non-empty body.
 */
export function documentFromFields(get: (field: string) => string | undefined, options: ParseOptions, fieldsLabel = "field(s)"): ParseResult {
  const { source } = options;
  const invalid = (field: string, reason: string): ParseResult => ({ kind: "invalid", source, field, reason });
  const missing = REQUIRED_FIELDS.filter((field) => (get(field) ?? "").trim() === "");
  if (missing.length > 0) {
    return invalid(missing[0] ?? "id", `missing ${fieldsLabel}: ${missing.join(", ")}`);
  }
  const id = get("id") ?? "";
  const lang = get("lang") ?? "";
  const domain = get("domain") ?? "";
  const maxIdChars = options.maxIdChars ?? 128;
  if (id.length > maxIdChars) return invalid("id", `id longer than ${maxIdChars} characters`);
  if (!ID_PATTERN.test(id)) return invalid("id", `invalid id "${id.slice(0, 80)}" (letters, digits, . _ - only)`);
  if ((get("product") ?? "").trim().length > maxIdChars) return invalid("product", `product longer than ${maxIdChars} characters`);
  if (!isLanguage(lang)) return invalid("lang", `unsupported lang "${lang.slice(0, 20)}" (expected fa or en)`);
  // Domains and products are the documents' own: slugs, not names from a list in the code.
  if (!SLUG.test(domain)) return invalid("domain", `invalid domain "${domain.slice(0, 40)}" (a slug: lower-case letters, digits, dashes)`);
  if (!SLUG.test((get("product") ?? "").trim())) return invalid("product", `invalid product "${(get("product") ?? "").trim().slice(0, 40)}" (a slug: lower-case letters, digits, dashes)`);
  if (options.domains !== undefined && !options.domains.includes(domain)) {
    return invalid("domain", `unknown domain "${domain.slice(0, 40)}" (expected one of: ${options.domains.join(", ")})`);
  }
  const body = (get("body") ?? "").replace(/^\uFEFF/u, "").replace(/\r\n?/gu, "\n").trim();
  if (body === "") return invalid("body", "empty body");

  return {
    kind: "ok",
    document: {
      id,
      title: (get("title") ?? "").trim(),
      product: (get("product") ?? "").trim(),
      domain,
      lang,
      body,
      tenantId: options.tenantId,
      source,
    },
  };
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/u.exec(value) ?? /^'(.*)'$/u.exec(value);
  return quoted === null ? value : (quoted[1] ?? "");
}

export interface LoadCorpusOptions {
  tenantId: string;
  /** Allowed business domains; default: any. */
  domains?: readonly string[];
}

export interface LoadedCorpus {
  /** Valid documents, in path order. */
  documents: SourceDocument[];
  /** One entry per rejected file (or duplicate id), in path order. */
  problems: CorpusProblem[];
}

const DOCUMENT_FILE = /\.(?:md|txt)$/iu;
// A README describes the corpus folder itself; it is not a document for customers.
const README_FILE = /(?:^|[/\\])readme\.(?:md|txt)$/iu;

/**
 * Loads every *.md and *.txt file under `dir`, recursively, except README files and hidden
 * entries. Files are read in sorted path order
 * (plain code-unit order, not locale order) so ingestion is deterministic across machines.
 * `source` is the path joined onto `dir` as given. A second document with an id already seen is
 * reported and skipped: ids are the citation keys and must be unique per tenant.
 */
export async function loadCorpusDir(dir: string, options: LoadCorpusOptions): Promise<LoadedCorpus> {
  const files = await listDocumentFiles(dir);

  const documents: SourceDocument[] = [];
  const problems: CorpusProblem[] = [];
  const firstSeen = new Map<string, string>();
  for (const path of files) {
    const parsed = parseDocument(await readFile(path), { source: path, ...options });
    if (parsed.kind === "invalid") {
      problems.push({ source: parsed.source, reason: parsed.reason });
      continue;
    }
    const previous = firstSeen.get(parsed.document.id);
    if (previous !== undefined) {
      problems.push({ source: path, reason: `duplicate id "${parsed.document.id}" (first defined in ${previous})` });
      continue;
    }
    firstSeen.set(parsed.document.id, path);
    documents.push(parsed.document);
  }
  return { documents, problems };
}

/**
 * The document files under `dir`, recursively: *.md and *.txt, without README files and hidden
 * entries, in plain code-unit order of their relative paths (not locale order), so ingestion is
 * deterministic across machines.
 */
export async function listDocumentFiles(dir: string): Promise<string[]> {
  const files = (await listFiles(dir)).filter((path) => isDocumentFile(path));
  return files.sort((a, b) => {
    const ra = relative(dir, a).split(sep).join("/");
    const rb = relative(dir, b).split(sep).join("/");
    return ra < rb ? -1 : ra > rb ? 1 : 0;
  });
}

/** A *.md or *.txt file that is not a README. */
export function isDocumentFile(path: string): boolean {
  return DOCUMENT_FILE.test(path) && !README_FILE.test(path);
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
