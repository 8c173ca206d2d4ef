/**
 * The document model: parsing markdown, HTML, DOCX, PDF and plain text into one block model,
 * and turning blocks into citable units with stable ids. A leaf module: it imports only
 * src/text; retrieval (chunking, the corpus loader, ingestion) and the API build on it.
 */
export { listDocumentFiles, loadDocumentDir, loadDocumentFile } from "./directory.js";
export type { LoadDocumentOptions, LoadedDocument, LoadedDocuments } from "./directory.js";
export { DEFAULT_LIMITS, EXTENSIONS, markdownBlocks, mediaTypeOf, parseDocumentBytes } from "./load.js";
export type { DocumentLimits, ParseDocumentOptions, ParseDocumentResult } from "./load.js";
export { checkMetadataValues, parseSidecar, resolveMetadata, splitFrontMatter } from "./metadata.js";
export type { Fields } from "./metadata.js";
export { MEDIA_TYPES, METADATA_FIELDS } from "./model.js";
export type {
  Block,
  DocumentMetadata,
  DocumentProblem,
  DocumentWarning,
  ListBlock,
  MediaType,
  MetadataField,
  ParagraphBlock,
  ParsedDocument,
  TableBlock,
  WarningCode,
} from "./model.js";
export { renderMarkdown } from "./render.js";
export { contentHash, toUnits } from "./units.js";
export type { Unit, UnitKind, UnitOptions } from "./units.js";
