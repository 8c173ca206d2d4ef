import type { EvidenceChunk } from "../models/roles.js";
import { analyze } from "../text/analysis/index.js";
import type { Chunk } from "../retrieval/index.js";
import type { Language } from "../text/language.js";
import type { Hit } from "./state.js";
import type { ClarifyOption } from "../domain/turn.js";
import type { ReadingUnit, UnitShape } from "../reading/index.js";

export function toEvidence(chunk: Chunk, score: number): EvidenceChunk {
  return {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    title: chunk.title,
    product: chunk.product,
    domain: chunk.domain,
    lang: chunk.lang,
    section: chunk.section,
    text: chunk.text,
    score,
    ...structureOf(chunk),
  };
}

/**
 * A row's cells under their headers, the row label's cell marked; an item with its lead-in. A
 * row too long for one chunk is split by cells: each chunk shows only the cells its text holds,
 * so a figure is never offered under an id whose text does not state it.
 */
function structureOf(chunk: Chunk): Pick<EvidenceChunk, "structure"> {
  const unit = chunk.unit;
  if (unit === undefined || unit.kind === "paragraph") return {};
  if (unit.kind === "item") return { structure: { kind: "item", leadIn: unit.leadIn, item: unit.item } };
  const cells = unit.cells
    .map((cell, column) => ({ header: cell.header, value: cell.value, label: column === unit.rowHeaderColumn }))
    .filter((cell) => cell.value !== "" && (cell.label || chunk.text.includes(cell.value)));
  return { structure: { kind: "row", caption: unit.caption, rowLabel: unit.rowLabel, cells } };
}

/**
 * The evidence a model sees: the retrieved chunks (relevant ones first) and their neighbours
 * (context-window expansion), each its own citable chunk, without duplicates.
 */
export function evidenceFromHits(hits: readonly Hit[], relevantFirst: readonly string[] = [], limit = 12): EvidenceChunk[] {
  const order = new Map(relevantFirst.map((id, i) => [id, i]));
  const ranked = [...hits].sort((a, b) => (order.get(a.chunk.chunkId) ?? Infinity) - (order.get(b.chunk.chunkId) ?? Infinity));
  const seen = new Set<string>();
  const out: EvidenceChunk[] = [];
  const push = (chunk: Chunk, score: number) => {
    if (seen.has(chunk.chunkId) || out.length >= limit) return;
    seen.add(chunk.chunkId);
    out.push(toEvidence(chunk, score));
  };
  // Chunks named first (the reader's cited row may be a neighbour of a hit) come first.
  const wanted = new Set(relevantFirst);
  for (const hit of ranked) {
    if (wanted.has(hit.chunk.chunkId)) push(hit.chunk, hit.score);
    for (const neighbor of hit.neighbors) if (wanted.has(neighbor.chunkId)) push(neighbor, hit.score * 0.9);
  }
  for (const hit of ranked) push(hit.chunk, hit.score);
  for (const hit of ranked) for (const neighbor of hit.neighbors) push(neighbor, hit.score * 0.9);
  return out;
}

/** Words that name no product in particular ("insurance"), ignored when matching product names. */
const GENERIC_TERMS = new Set(analyze("insurance insure insured policy plan cover coverage product بیمه بیمه‌نامه پوشش طرح محصول"));

function productTerms(chunk: Chunk): Set<string> {
  return new Set(analyze(`${chunk.title} ${chunk.product.replace(/-/gu, " ")}`).filter((t) => !GENERIC_TERMS.has(t)));
}

export interface Ambiguity {
  /** Distinct products among the equally good results that the query does not tell apart. */
  options: ClarifyOption[];
}

/**
 * Decides from chunk metadata alone whether the best results span several products that the
 * query does not tell apart ("how much does it cost?" over motor, health and travel prices).
 * Options are built only from the retrieved chunks' metadata: one per product, the document in
 * the reply language when there is one, so the options always name content that exists.
 */
export function findAmbiguity(
  hits: readonly Hit[],
  query: string,
  language: Language,
  margin: number,
  maxOptions: number,
  isGeneral: (chunk: Chunk) => boolean = () => false,
): Ambiguity | null {
  const best = hits[0];
  if (best === undefined) return null;
  // A general page (claims procedure, payments, contact hours: the tenant's taxonomy says which)
  // applies to every product: when it answers best, the question is a general one, and it is
  // never a "which product?" option.
  if (isGeneral(best.chunk)) return null;
  const contenders = hits.filter((h) => h.score >= best.score - margin && !isGeneral(h.chunk));
  const byProduct = new Map<string, Hit[]>();
  for (const hit of contenders) {
    const list = byProduct.get(hit.chunk.product) ?? [];
    list.push(hit);
    byProduct.set(hit.chunk.product, list);
  }
  if (byProduct.size < 2) return null;

  const queryTerms = new Set(analyze(query));
  const termsByProduct = new Map([...byProduct].map(([product, list]) => [product, productTerms(list[0]!.chunk)]));
  // A term shared by every contender ("motor" for both motor products) names none of them alone.
  const distinguishing = (product: string) => [...termsByProduct.get(product)!].filter((t) => [...termsByProduct.entries()].some(([p, terms]) => p !== product && !terms.has(t)));
  const named = [...byProduct.keys()].filter((product) => distinguishing(product).some((t) => queryTerms.has(t)));
  if (named.length === 1) return null;
  const products = named.length >= 2 ? named : [...byProduct.keys()];

  const options: ClarifyOption[] = [];
  for (const product of products.slice(0, maxOptions)) {
    const list = byProduct.get(product)!;
    const chunk = (list.find((h) => h.chunk.lang === language) ?? list[0]!).chunk;
    options.push({ label: chunk.title, documentId: chunk.documentId, domain: chunk.domain, title: chunk.title, product });
  }
  return { options };
}

/**
 * The retrieved chunks as the reader reads them: hits first, then their neighbours (for a table
 * row, the other rows of its table), each once, with its structure.
 */
export function readingUnits(hits: readonly Hit[]): ReadingUnit[] {
  const out: ReadingUnit[] = [];
  const seen = new Set<string>();
  const push = (chunk: Chunk, score: number) => {
    if (seen.has(chunk.chunkId)) return;
    seen.add(chunk.chunkId);
    out.push({
      chunkId: chunk.chunkId,
      documentId: chunk.documentId,
      title: chunk.title,
      product: chunk.product,
      domain: chunk.domain,
      lang: chunk.lang,
      sectionPath: chunk.sectionPath ?? (chunk.section === "" ? [] : chunk.section.split(" > ")),
      text: chunk.text,
      score,
      position: chunk.chunkIndex,
      shape: shapeOf(chunk),
    });
  };
  for (const hit of hits) push(hit.chunk, hit.score);
  for (const hit of hits) for (const neighbor of hit.neighbors) push(neighbor, hit.score * 0.9);
  return out;
}

function shapeOf(chunk: Chunk): UnitShape {
  const unit = chunk.unit;
  if (unit === undefined || unit.kind === "paragraph") return { kind: "paragraph" };
  if (unit.kind === "item") return { kind: "item", leadIn: unit.leadIn, item: unit.item };
  return { kind: "row", table: unit.table, caption: unit.caption, rowLabel: unit.rowLabel, cells: unit.cells, rowHeaderColumn: unit.rowHeaderColumn };
}
