import { createHash } from "node:crypto";
import { foldForMatch } from "../text/index.js";
import { fnv1a32 } from "./features.js";

/**
 * Labelled examples: JSONL parsing with line-numbered problems, the canonical form the
 * training-data hash is taken over, and the checks that keep a held-back split honest.
 */

export interface Example {
  text: string;
  label: string;
}

export interface ParsedExamples {
  examples: Example[];
  /** `source:LINE: reason`, one per bad line; the good lines are still returned. */
  problems: string[];
}

/**
 * Parses `{"text","label"}` lines. Blank lines are skipped; other keys (a source, a note) are
 * allowed and ignored, so data writers can annotate. `labels`, when given, is the closed set.
 */
export function parseExamples(content: string, source: string, labels?: readonly string[]): ParsedExamples {
  const examples: Example[] = [];
  const problems: string[] = [];
  const lines = content.replace(/^\uFEFF/u, "").split(/\r?\n/u);
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${source}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${where}: not valid JSON`);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push(`${where}: expected an object with "text" and "label"`);
      return;
    }
    const { text, label } = value as Record<string, unknown>;
    if (typeof text !== "string" || text.trim() === "") problems.push(`${where}: "text" must be a non-empty string`);
    else if (typeof label !== "string" || label === "") problems.push(`${where}: "label" must be a non-empty string`);
    else if (labels && !labels.includes(label)) problems.push(`${where}: unknown label "${label}" (labels: ${labels.join(", ")})`);
    else examples.push({ text, label });
  });
  return { examples, problems };
}

const lineOf = (e: Example) => JSON.stringify({ text: e.text, label: e.label });

/**
 * The canonical order: by the JSON line, compared by UTF-16 code units (locale-free). Files
 * split differently or shuffled give the same sequence, so the same hash and the same model.
 */
export function canonicalize(examples: readonly Example[]): Example[] {
  return examples
    .map((e) => ({ line: lineOf(e), example: { text: e.text, label: e.label } }))
    .sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0))
    .map((x) => x.example);
}

/** SHA-256 (hex) of the canonical JSONL: one `{"text","label"}` line per example, each ending in \n. */
export function datasetSha256(examples: readonly Example[]): string {
  const hash = createHash("sha256");
  for (const e of canonicalize(examples)) hash.update(`${lineOf(e)}\n`, "utf8");
  return hash.digest("hex");
}

/** The key two texts are "the same" by: folded, so spacing, case and letter variants do not hide a duplicate. */
export const sameTextKey = (text: string) => foldForMatch(text);

/** Texts that occur with more than one label: the data contradicts itself. */
export function conflictingLabels(examples: readonly Example[]): string[] {
  const labelsOf = new Map<string, Set<string>>();
  for (const e of examples) {
    const key = sameTextKey(e.text);
    const set = labelsOf.get(key) ?? new Set<string>();
    set.add(e.label);
    labelsOf.set(key, set);
  }
  return [...labelsOf]
    .filter(([, labels]) => labels.size > 1)
    .map(([text, labels]) => `"${text}" is labelled ${[...labels].sort().join(" and ")}`)
    .sort();
}

/** Test texts that also occur (folded) in the training data: a held-back split must not. */
export function overlap(train: readonly Example[], test: readonly Example[]): string[] {
  const seen = new Set(train.map((e) => sameTextKey(e.text)));
  return [...new Set(test.map((e) => sameTextKey(e.text)).filter((key) => seen.has(key)))].sort();
}

/**
 * The fold (0..folds-1) of a text, by a stable hash of its folded form: the same text, or a
 * variant differing only in spacing or letter forms, always lands in the same fold.
 */
export function foldOf(text: string, folds: number): number {
  return fnv1a32(sameTextKey(text)) % folds;
}
