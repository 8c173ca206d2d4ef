import { createHash } from "node:crypto";
import type { SourceDocument } from "../types.js";

/**
 * SHA-256 of what is indexed of a document (title, product, domain, lang, body): every backend
 * and the document store compare it to decide "unchanged".
 */
export function hashContent(document: SourceDocument): string {
  // The source path is not content: moving a file must not re-embed it.
  const { title, product, domain, lang, body } = document;
  return createHash("sha256")
    .update(JSON.stringify([title, product, domain, lang, body]))
    .digest("hex");
}
