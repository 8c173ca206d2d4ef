import type {
  DeleteDocumentRequest,
  GetChunkRequest,
  ListDocumentsRequest,
  UpsertDocumentsRequest,
} from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Config } from "../config/config.js";
import { checkDocumentSize, documentFromFields, parseChunkId, type DocumentRules, type ListOptions, type SourceDocument } from "../retrieval/index.js";
import { controlCharacterProblem, isBlankText, type Validation } from "./validate.js";

/** The limits DocumentService validation reads; a slice of Config so tests can pass literals. */
export type DocumentLimits = Pick<Config["limits"], "maxIdChars"> & Pick<Config["ingest"], "maxUpsertDocuments" | "listPageSize" | "maxSourceChars">;

/** The most documents ListDocuments returns in one page, whatever the caller asks for. */
export const MAX_PAGE_SIZE = 1_000;

// Same alphabet as the corpus loader's ids: they become chunk ids and citations.
const DOCUMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/u;

function invalid(field: string, problem: string): { kind: "invalid"; field: string; message: string } {
  return { kind: "invalid", field, message: `${field}: ${problem}` };
}

function checkDocumentId(field: string, value: string, maxIdChars: number): Validation<never> | null {
  if (value === "") return invalid(field, "required");
  if (value.length > maxIdChars || !DOCUMENT_ID.test(value)) return invalid(field, `must be 1-${maxIdChars} characters of [A-Za-z0-9._-], starting with a letter or digit`);
  return null;
}

/**
 * Checks every document of an UpsertDocuments call with the same rules as `frontdesk ingest`
 * (fields, domain, sizes, chunks). The first problem is reported with its index and field, e.g.
 * `documents[2].lang: unsupported lang "de" (expected fa or en)`; nothing is written then.
 */
export function validateUpsertDocuments(
  req: UpsertDocumentsRequest,
  tenantId: string,
  limits: DocumentLimits,
  rules: DocumentRules,
): Validation<SourceDocument[]> {
  if (req.documents.length === 0) return invalid("documents", "required");
  if (req.documents.length > limits.maxUpsertDocuments) {
    return invalid("documents", `at most ${limits.maxUpsertDocuments} documents per call (got ${req.documents.length})`);
  }
  const documents: SourceDocument[] = [];
  const firstIndex = new Map<string, number>();
  for (const [i, wire] of req.documents.entries()) {
    const at = (field: string) => `documents[${i}].${field}`;
    if (wire.source.length > limits.maxSourceChars) return invalid(at("source"), `must be at most ${limits.maxSourceChars} characters`);
    // Titles are shown to customers as citations and clarify options; same rules as a message's text.
    const titleControl = controlCharacterProblem(wire.title);
    if (titleControl !== null) return invalid(at("title"), titleControl);
    if (wire.title.trim() !== "" && isBlankText(wire.title)) return invalid(at("title"), "must not be blank");
    const fields: Record<string, string> = { id: wire.id, title: wire.title, product: wire.product, domain: wire.domain, lang: wire.lang, body: wire.body };
    const parsed = documentFromFields((field) => fields[field], {
      source: wire.source === "" ? `documents[${i}]` : wire.source,
      tenantId,
      maxIdChars: limits.maxIdChars,
    });
    if (parsed.kind === "invalid") return invalid(at(parsed.field ?? "id"), parsed.reason);
    const previous = firstIndex.get(parsed.document.id);
    if (previous !== undefined) return invalid(at("id"), `"${parsed.document.id}" is also documents[${previous}]`);
    firstIndex.set(parsed.document.id, i);
    const document: SourceDocument = { ...parsed.document };
    if (wire.source === "") delete document.source;
    const problem = checkDocumentSize(document, rules);
    if (problem !== null) return invalid(at(problem.field), problem.reason);
    documents.push(document);
  }
  return { kind: "valid", input: documents };
}

export function validateDeleteDocument(req: DeleteDocumentRequest, limits: DocumentLimits): Validation<{ documentId: string }> {
  return checkDocumentId("document_id", req.documentId, limits.maxIdChars) ?? { kind: "valid", input: { documentId: req.documentId } };
}

export function validateListDocuments(req: ListDocumentsRequest, limits: DocumentLimits): Validation<ListOptions> {
  if (req.pageSize > MAX_PAGE_SIZE) return invalid("page_size", `must be at most ${MAX_PAGE_SIZE}`);
  // A domain is the documents' own slug: a filter no document has is an empty page, not an error.
  if (req.domain !== "" && !/^[a-z0-9][a-z0-9_-]{0,63}$/u.test(req.domain)) return invalid("domain", "must be a slug: lower-case letters, digits and dashes, at most 64");
  const options: ListOptions = { pageSize: req.pageSize === 0 ? limits.listPageSize : req.pageSize };
  if (req.pageToken !== "") options.pageToken = req.pageToken;
  if (req.domain !== "") options.domain = req.domain;
  return { kind: "valid", input: options };
}

export function validateGetChunk(req: GetChunkRequest, limits: DocumentLimits): Validation<{ chunkId: string }> {
  if (req.chunkId === "") return invalid("chunk_id", "required");
  const parsed = parseChunkId(req.chunkId);
  if (parsed === null || checkDocumentId("chunk_id", parsed.documentId, limits.maxIdChars) !== null) {
    return invalid("chunk_id", 'must be "<document_id>#<chunk_index>", as cited');
  }
  return { kind: "valid", input: { chunkId: req.chunkId } };
}
