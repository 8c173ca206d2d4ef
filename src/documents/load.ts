import { extname } from "node:path";
import { hasText, parseDocx, shortMessage } from "./docx.js";
import { parseHtml } from "./html.js";
import { parseMarkdown, parseMarkdownBody } from "./markdown.js";
import { parseSidecar, resolveMetadata, splitFrontMatter, type Fields } from "./metadata.js";
import type { Block, DocumentWarning, DraftResult, MediaType, MetadataField, ParsedDocument } from "./model.js";
import { MEDIA_TYPES } from "./model.js";
import { parsePdf } from "./pdf.js";
import { renderMarkdown } from "./render.js";
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
  /** Metadata for fields neither the file nor its sidecar sets (ingest flags). */
  defaults?: Fields;
  /** Metadata that wins over what the file and its sidecar say (an API request's own fields). */
  overrides?: Fields;
  limits?: Partial<DocumentLimits>;
}

export type ParseDocumentResult =
  | {
      kind: "ok";
      document: ParsedDocument;
      warnings: DocumentWarning[];
      /**
       * The document as Markdown: a markdown file's own body (front matter removed, trimmed), any
       * other format's blocks rendered by renderMarkdown. Parsing it as markdown gives the same
       * units, so it is what a document store keeps.
       */
      markdown: string;
    }
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

  let parsed: DraftResult & { markdownBody?: string };
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
    overrides: options.overrides ?? {},
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
  const markdown = parsed.markdownBody ?? renderMarkdown(blocks);
  return { kind: "ok", document: { metadata: metadata.metadata, blocks }, warnings: [...draft.warnings, ...warnings], markdown };
}

/**
 * The blocks of a markdown body whose metadata is known (a stored document, a JSONL record, an
 * API message): no front matter is looked for. What chunking runs on.
 */
export function markdownBlocks(body: string, options: { title: string; maxTableRows?: number }): { blocks: Block[]; warnings: DocumentWarning[] } {
  const draft = parseMarkdownBody(body.replace(/^\uFEFF/u, "").replace(/\r\n?/gu, "\n"));
  return buildBlocks(draft.blocks, { title: options.title, maxTableRows: options.maxTableRows ?? DEFAULT_LIMITS.maxTableRows });
}

async function draftOf(bytes: Uint8Array, mediaType: MediaType, limits: DocumentLimits): Promise<DraftResult & { markdownBody?: string }> {
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
      if (mediaType === MEDIA_TYPES.markdown) {
        const result = parseMarkdown(text);
        const split = splitFrontMatter(text);
        return result.kind === "ok" && split.kind !== "invalid" ? { ...result, markdownBody: split.body.trim() } : result;
      }
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
