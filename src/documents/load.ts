import { extname } from "node:path";
import { hasText, parseDocx, shortMessage } from "./docx.js";
import { parseHtml } from "./html.js";
import { parseMarkdown } from "./markdown.js";
import { parseSidecar, resolveMetadata, splitFrontMatter, type Fields } from "./metadata.js";
import type { DocumentWarning, DraftResult, MediaType, MetadataField, ParsedDocument } from "./model.js";
import { MEDIA_TYPES } from "./model.js";
import { parsePdf } from "./pdf.js";
import { buildBlocks } from "./structure.js";

export interface DocumentLimits {
  /** Largest file accepted, in bytes; checked before a file is read. Default 20 MiB. */
  maxFileBytes: number;
  /** Rows kept per table; a longer table is cut there, with a warning. Default 1000. */
  maxTableRows: number;
  /** Longest id, product and domain (FRONTDESK_MAX_ID_CHARS). Default 128. */
  maxIdChars: number;
  /** Most bytes a DOCX's text parts may unpack to (a zip-bomb guard). Default 200 MiB. */
  maxUnpackedBytes: number;
}

export const DEFAULT_LIMITS: DocumentLimits = { maxFileBytes: 20 * 1024 * 1024, maxTableRows: 1000, maxIdChars: 128, maxUnpackedBytes: 200 * 1024 * 1024 };

export interface ParseDocumentOptions {
  /** The declared media type (parameters such as charset are ignored); wins over `path`. */
  mediaType?: string;
  /** The file's path or name: its extension picks the parser when no media type is given. */
  path?: string;
  /** The name repeated in reports; default `path`, else "(upload)". */
  source?: string;
  /** The text of the document's `<file>.metadata.json`, if it has one. */
  sidecar?: string | null;
  /** Metadata for fields neither the file nor its sidecar sets (ingest flags, API fields). */
  defaults?: Fields;
  limits?: Partial<DocumentLimits>;
}

export type ParseDocumentResult =
  | { kind: "ok"; document: ParsedDocument; warnings: DocumentWarning[] }
  | { kind: "invalid"; reason: string; field?: MetadataField };

export const EXTENSIONS: Readonly<Record<string, MediaType>> = {
  ".md": MEDIA_TYPES.markdown,
  ".markdown": MEDIA_TYPES.markdown,
  ".html": MEDIA_TYPES.html,
  ".htm": MEDIA_TYPES.html,
  ".docx": MEDIA_TYPES.docx,
  ".pdf": MEDIA_TYPES.pdf,
  ".txt": MEDIA_TYPES.text,
};

/** The parser's media type for a declared type or a file name; null when none fits. */
export function mediaTypeOf(options: { mediaType?: string; path?: string }): MediaType | null {
  if (options.mediaType !== undefined && options.mediaType.trim() !== "") {
    const type = options.mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
    const known = Object.values(MEDIA_TYPES) as string[];
    if (known.includes(type)) return type as MediaType;
    return type === "application/xhtml+xml" ? MEDIA_TYPES.html : type === "text/x-markdown" ? MEDIA_TYPES.markdown : null;
  }
  return options.path === undefined ? null : (EXTENSIONS[extname(options.path).toLowerCase()] ?? null);
}

/**
 * One document from its bytes: pick the parser, resolve metadata, build the blocks. Never
 * throws for bad input; every rejection is a reason a person can act on.
 */
export async function parseDocumentBytes(bytes: Uint8Array, options: ParseDocumentOptions): Promise<ParseDocumentResult> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const source = options.source ?? options.path ?? "(upload)";
  const mediaType = mediaTypeOf(options);
  if (mediaType === null) {
    const what = options.mediaType ?? (options.path === undefined ? "none given" : extname(options.path) || "no extension");
    return { kind: "invalid", reason: `unsupported media type (${what}); expected markdown, HTML, DOCX, PDF or plain text` };
  }
  if (bytes.byteLength > limits.maxFileBytes) return { kind: "invalid", reason: tooLarge(bytes.byteLength, limits.maxFileBytes) };
  if (bytes.byteLength === 0) return { kind: "invalid", reason: "empty file" };

  let parsed: DraftResult;
  try {
    parsed = await draftOf(bytes, mediaType, limits);
  } catch (error) {
    // The parsers report what they recognise; anything else is still one bad file, not a crash.
    return { kind: "invalid", reason: `could not parse the file (${shortMessage(error)})` };
  }
  if (parsed.kind === "invalid") return parsed;
  const { draft } = parsed;
  if (!hasText(draft.blocks)) return { kind: "invalid", reason: "no text found" };

  let sidecar: Fields = {};
  if (options.sidecar !== undefined && options.sidecar !== null) {
    const result = parseSidecar(options.sidecar);
    if (result.kind === "invalid") return result.field === undefined ? { kind: "invalid", reason: result.reason } : { kind: "invalid", reason: result.reason, field: result.field };
    sidecar = result.fields;
  }
  const metadata = resolveMetadata({
    embedded: draft.embedded,
    sidecar,
    defaults: options.defaults ?? {},
    titleHint: draft.titleHint,
    source,
    mediaType,
    maxIdChars: limits.maxIdChars,
  });
  if (metadata.kind === "invalid") return metadata;

  const { blocks, warnings } = buildBlocks(draft.blocks, { title: metadata.metadata.title, maxTableRows: limits.maxTableRows });
  if (blocks.length === 0) return { kind: "invalid", reason: "no text found" };
  return { kind: "ok", document: { metadata: metadata.metadata, blocks }, warnings: [...draft.warnings, ...warnings] };
}

async function draftOf(bytes: Uint8Array, mediaType: MediaType, limits: DocumentLimits): Promise<DraftResult> {
  switch (mediaType) {
    case MEDIA_TYPES.docx:
      return parseDocx(bytes, limits.maxUnpackedBytes);
    case MEDIA_TYPES.pdf:
      return parsePdf(bytes);
    case MEDIA_TYPES.markdown:
    case MEDIA_TYPES.html:
    case MEDIA_TYPES.text: {
      let text: string;
      try {
        // Strict: a Windows-1256 file (common for Persian) is rejected, not indexed as mojibake.
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return { kind: "invalid", reason: "not valid UTF-8" };
      }
      text = text.replace(/^\uFEFF/u, "").replace(/\r\n?/gu, "\n");
      if (mediaType === MEDIA_TYPES.markdown) return parseMarkdown(text);
      if (mediaType === MEDIA_TYPES.html) return { kind: "ok", draft: parseHtml(text) };
      return parsePlainText(text);
    }
  }
}

/** Plain text: front matter as in markdown, then paragraphs at blank lines; no markup at all. */
function parsePlainText(text: string): DraftResult {
  const split = splitFrontMatter(text);
  if (split.kind === "invalid") return split;
  const blocks = split.body.split(/\n[ \t]*\n/u).map((text) => ({ kind: "paragraph" as const, text, emphasized: false, page: null }));
  return { kind: "ok", draft: { blocks, warnings: [], embedded: split.kind === "ok" ? split.fields : {}, titleHint: null } };
}

export function tooLarge(bytes: number, max: number): string {
  return `file too large: ${bytes} bytes (limit ${max} bytes)`;
}
