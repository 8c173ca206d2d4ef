import { isLanguage } from "../text/language.js";
import type { DocumentMetadata, MediaType, MetadataField } from "./model.js";
import { METADATA_FIELDS } from "./model.js";
import { collapse } from "./text.js";

/**
 * Where a document's metadata comes from, field by field: what the file carries itself (front
 * matter, HTML meta tags), else its sidecar `<file>.metadata.json` (the Bedrock Knowledge Bases
 * convention), else the caller's defaults (ingest flags, an API request), else the title the
 * document gives itself (its first heading). A field still missing is a problem that names it.
 */

export type Fields = Partial<Record<MetadataField, string>>;

export type FrontMatter = { kind: "none"; body: string } | { kind: "ok"; fields: Fields; body: string } | { kind: "invalid"; reason: string };

/**
 * Front matter as today's corpus reader takes it: `key: value` lines between two `---` lines,
 * values optionally quoted, `#` comments. Keys other than the metadata fields are ignored.
 */
export function splitFrontMatter(text: string): FrontMatter {
  const lines = text.split("\n");
  if (lines[0]?.trim() !== "---") return { kind: "none", body: text };
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) return { kind: "invalid", reason: "unterminated front matter (no closing ---)" };
  const fields: Fields = {};
  const seen = new Set<string>();
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/u.exec(line);
    if (match === null) return { kind: "invalid", reason: `malformed front matter line ${i + 1}: ${JSON.stringify(line.slice(0, 60))}` };
    const [, key = "", raw = ""] = match;
    if (seen.has(key)) return { kind: "invalid", reason: `duplicate front matter field "${key}"` };
    seen.add(key);
    if (isField(key)) fields[key] = unquote(raw.trim());
  }
  return { kind: "ok", fields, body: lines.slice(end + 1).join("\n") };
}

export type SidecarResult = { kind: "ok"; fields: Fields } | { kind: "invalid"; reason: string; field?: MetadataField };

/**
 * A Bedrock Knowledge Bases metadata file: `{"metadataAttributes": {"product": "travel", …}}`.
 * A value is a plain string or Bedrock's typed form `{"value": {"type": "STRING",
 * "stringValue": "travel"}, …}`. Attributes other than the metadata fields are the insurer's
 * and ignored here.
 */
export function parseSidecar(text: string): SidecarResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/u, ""));
  } catch {
    return { kind: "invalid", reason: "metadata sidecar is not valid JSON" };
  }
  const attributes = isRecord(parsed) ? parsed["metadataAttributes"] : undefined;
  if (!isRecord(attributes)) return { kind: "invalid", reason: 'metadata sidecar has no "metadataAttributes" object' };
  const fields: Fields = {};
  for (const field of METADATA_FIELDS) {
    const raw = attributes[field];
    if (raw === undefined) continue;
    const value = typeof raw === "string" ? raw : typedString(raw);
    if (value === undefined) return { kind: "invalid", field, reason: `metadata sidecar attribute "${field}" must be a string` };
    fields[field] = value;
  }
  return { kind: "ok", fields };
}

export interface MetadataSources {
  /** Fields that win over everything the file says (an API request's own fields). */
  overrides?: Fields;
  embedded: Fields;
  sidecar: Fields;
  defaults: Fields;
  /** The document's own title (first h1, <title>, PDF title), used only when no source has one. */
  titleHint: string | null;
  source: string;
  mediaType: MediaType;
  /** Longest id, product and domain (FRONTDESK_MAX_ID_CHARS). */
  maxIdChars: number;
}

export type MetadataResult = { kind: "ok"; metadata: DocumentMetadata } | { kind: "invalid"; reason: string; field: MetadataField };

// Ids prefix every unit id and citation: lower-case slugs keep them readable and URL-safe.
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;

export function resolveMetadata(sources: MetadataSources): MetadataResult {
  const pick = (field: MetadataField): string => {
    // An empty value (`lang:` with nothing after it) says nothing: the next source is asked.
    const value =
      nonEmpty(sources.overrides?.[field]) ??
      nonEmpty(sources.embedded[field]) ??
      nonEmpty(sources.sidecar[field]) ??
      nonEmpty(sources.defaults[field]) ??
      (field === "title" ? sources.titleHint : null) ??
      "";
    return collapse(value);
  };
  const values = Object.fromEntries(METADATA_FIELDS.map((field) => [field, pick(field)])) as Record<MetadataField, string>;
  const missing = METADATA_FIELDS.filter((field) => values[field] === "");
  if (missing.length > 0) {
    return { kind: "invalid", field: missing[0] ?? "id", reason: `missing metadata field(s): ${missing.join(", ")} (front matter, a .metadata.json sidecar or defaults)` };
  }
  const problem = checkMetadataValues(values, sources.maxIdChars);
  if (problem !== null) return problem;
  const lang = values.lang;
  if (!isLanguage(lang)) return { kind: "invalid", field: "lang", reason: `unsupported lang "${lang.slice(0, 20)}" (expected fa or en)` };
  return {
    kind: "ok",
    metadata: { id: values.id, title: values.title, product: values.product, domain: values.domain, lang, source: sources.source, mediaType: sources.mediaType },
  };
}

/**
 * The rules every document's metadata is held to, whichever way it arrives (a file, a JSONL
 * record, an API message): `id`, `product` and `domain` are slugs of at most `maxIdChars`, `lang`
 * is fa or en. Null when the (present) values pass.
 */
export function checkMetadataValues(values: Record<MetadataField, string>, maxIdChars: number): { kind: "invalid"; reason: string; field: MetadataField } | null {
  for (const field of ["id", "product", "domain"] as const) {
    const value = values[field];
    if (value.length > maxIdChars) return { kind: "invalid", field, reason: `${field} longer than ${maxIdChars} characters` };
    if (!SLUG.test(value)) {
      return { kind: "invalid", field, reason: `invalid ${field} "${value.slice(0, 80)}" (lower-case letters, digits and single dashes only)` };
    }
  }
  if (!isLanguage(values.lang)) return { kind: "invalid", field: "lang", reason: `unsupported lang "${values.lang.slice(0, 20)}" (expected fa or en)` };
  return null;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function isField(key: string): key is MetadataField {
  return (METADATA_FIELDS as readonly string[]).includes(key);
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/u.exec(value) ?? /^'(.*)'$/u.exec(value);
  return quoted === null ? value : (quoted[1] ?? "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typedString(raw: unknown): string | undefined {
  const value = isRecord(raw) ? raw["value"] : undefined;
  if (!isRecord(value) || value["type"] !== "STRING") return undefined;
  const text = value["stringValue"];
  return typeof text === "string" ? text : undefined;
}
