import type { DeleteDocumentRequest, GetChunkRequest, ListDocumentsRequest, UpsertDocumentsRequest } from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Config } from "../config/config.js";
import { MEDIA_TYPES, mediaTypeOf } from "../documents/index.js";
import {
  checkDocument,
  documentFromFields,
  fileLimits,
  mergeWarnings,
  parseChunkId,
  parseDocumentContent,
  type DocumentRules,
  type ListOptions,
  type ParseResult,
  type SourceDocument,
} from "../retrieval/index.js";
import { controlCharacterProblem, isBlankText, type Validation } from "./validate.js";

/** The limits DocumentService validation reads; a slice of Config so tests can pass literals. */
export type DocumentLimits = Pick<Config["limits"], "maxIdChars"> & Pick<Config["ingest"], "maxUpsertDocuments" | "listPageSize" | "maxSourceChars">;

/** The most documents ListDocuments returns in one page, whatever the caller asks for. */
export const MAX_PAGE_SIZE = 1_000;

// What DeleteDocument and GetChunk accept as a document id: new documents are slugs, but ids of
// documents stored before that rule (letters, digits, . _ -) must stay addressable.
const DOCUMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/u;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;

function invalid(field: string, problem: string): { kind: "invalid"; field: string; message: string } {
  return { kind: "invalid", field, message: `${field}: ${problem}` };
}

function checkDocumentId(field: string, value: string, maxIdChars: number): Validation<never> | null {
  if (value === "") return invalid(field, "required");
  if (value.length > maxIdChars || !DOCUMENT_ID.test(value)) return invalid(field, `must be 1-${maxIdChars} characters of [A-Za-z0-9._-], starting with a letter or digit`);
  return null;
}

/** A document ready to write, with what was repaired on the way (UpsertResult.warnings). */
export interface ValidatedDocument {
  document: SourceDocument;
  warnings: string[];
}

/**
 * Checks every document of an UpsertDocuments call with the same rules as `frontdesk ingest`
 * (fields, sizes, chunks); a document given as `content` is parsed by its media type first, its
 * message fields overriding what the file carries. The first problem is reported with its index
 * and field, e.g. `documents[2].lang: unsupported lang "de" (expected fa or en)` or
 * `documents[2].content: no text layer (scanned PDF?)`; nothing is written then.
 */
export async function validateUpsertDocuments(
  req: UpsertDocumentsRequest,
  tenantId: string,
  limits: DocumentLimits,
  rules: DocumentRules,
): Promise<Validation<ValidatedDocument[]>> {
  if (req.documents.length === 0) return invalid("documents", "required");
  if (req.documents.length > limits.maxUpsertDocuments) {
    return invalid("documents", `at most ${limits.maxUpsertDocuments} documents per call (got ${req.documents.length})`);
  }
  const documents: ValidatedDocument[] = [];
  const firstIndex = new Map<string, number>();
  for (const [i, wire] of req.documents.entries()) {
    const at = (field: string) => `documents[${i}].${field}`;
    if (wire.source.length > limits.maxSourceChars) return invalid(at("source"), `must be at most ${limits.maxSourceChars} characters`);
    if (wire.source.includes("\u0000")) return invalid(at("source"), `must not contain U+0000 (at character ${wire.source.indexOf("\u0000") + 1})`);
    // Titles are shown to customers as citations and clarify options; same rules as a message's text.
    const titleControl = controlCharacterProblem(wire.title);
    if (titleControl !== null) return invalid(at("title"), titleControl);
    if (wire.title.trim() !== "" && isBlankText(wire.title)) return invalid(at("title"), "must not be blank");
    const source = wire.source === "" ? `documents[${i}]` : wire.source;
    const hasContent = wire.content.length > 0;
    let parsed: ParseResult;
    if (hasContent) {
      if (wire.body !== "") return invalid(at("body"), "must be empty when content is set");
      if (wire.mediaType === "") return invalid(at("media_type"), "required with content");
      if (mediaTypeOf({ mediaType: wire.mediaType }) === null) {
        return invalid(at("media_type"), `unsupported media type "${wire.mediaType.slice(0, 100)}" (expected one of: ${Object.values(MEDIA_TYPES).join(", ")})`);
      }
      parsed = await parseDocumentContent(wire.content, {
        mediaType: wire.mediaType,
        source,
        tenantId,
        overrides: { id: wire.id, title: wire.title, product: wire.product, domain: wire.domain, lang: wire.lang },
        limits: fileLimits(rules),
      });
      if (parsed.kind === "invalid") return invalid(at(parsed.field ?? "content"), parsed.reason);
    } else {
      if (wire.mediaType !== "") return invalid(at("media_type"), "only with content");
      const fields: Record<string, string> = { id: wire.id, title: wire.title, product: wire.product, domain: wire.domain, lang: wire.lang, body: wire.body };
      parsed = documentFromFields((field) => fields[field], { source, tenantId, maxIdChars: limits.maxIdChars });
      if (parsed.kind === "invalid") return invalid(at(parsed.field ?? "id"), parsed.reason);
    }
    const previous = firstIndex.get(parsed.document.id);
    if (previous !== undefined) return invalid(at("id"), `"${parsed.document.id}" is also documents[${previous}]`);
    firstIndex.set(parsed.document.id, i);
    const document: SourceDocument = { ...parsed.document };
    if (wire.source === "") delete document.source;
    const check = checkDocument(document, rules);
    // A parsed file has no body of its own: its size problems are the content's.
    if (check.kind === "invalid") return invalid(at(hasContent && check.field === "body" ? "content" : check.field), check.reason);
    documents.push({ document, warnings: mergeWarnings(parsed.warnings, check.warnings).map((warning) => warning.message) });
  }
  return { kind: "valid", input: documents };
}

export function validateDeleteDocument(req: DeleteDocumentRequest, limits: DocumentLimits): Validation<{ documentId: string }> {
  return checkDocumentId("document_id", req.documentId, limits.maxIdChars) ?? { kind: "valid", input: { documentId: req.documentId } };
}

export function validateListDocuments(req: ListDocumentsRequest, limits: DocumentLimits): Validation<ListOptions> {
  if (req.pageSize > MAX_PAGE_SIZE) return invalid("page_size", `must be at most ${MAX_PAGE_SIZE}`);
  // Any slug: a domain is the documents' own, and one no document has lists nothing.
  if (req.domain !== "" && (req.domain.length > limits.maxIdChars || !SLUG.test(req.domain))) {
    return invalid("domain", `must be a slug of at most ${limits.maxIdChars} characters (lower-case letters, digits and single dashes)`);
  }
  const options: ListOptions = { pageSize: req.pageSize === 0 ? limits.listPageSize : req.pageSize };
  if (req.pageToken !== "") options.pageToken = req.pageToken;
  if (req.domain !== "") options.domain = req.domain;
  return { kind: "valid", input: options };
}

export function validateGetChunk(req: GetChunkRequest, limits: DocumentLimits): Validation<{ chunkId: string }> {
  if (req.chunkId === "") return invalid("chunk_id", "required");
  const parsed = parseChunkId(req.chunkId);
  if (parsed === null || checkDocumentId("chunk_id", parsed.documentId, limits.maxIdChars) !== null) {
    return invalid("chunk_id", 'must be "<document_id>#<12 hex digits>" (optionally "-<n>"), as cited');
  }
  return { kind: "valid", input: { chunkId: req.chunkId } };
}
