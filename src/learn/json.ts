import type { ClassifierArtefact } from "./model.js";

/**
 * JSON text that depends only on the value: keys in insertion order (the artefact is always
 * built in one order), numbers by ECMAScript's exactly specified Number-to-string (shortest
 * round trip, so the same double prints the same digits on every engine), two-space indent for
 * objects, and arrays of plain values on one line so a weight vector is one line, not 50,000
 * (small objects of plain values too: one class's metrics read as one line).
 */
const SMALL_OBJECT = 6;

export function stableStringify(value: unknown, indent = ""): string {
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`cannot serialise ${value}: not a finite number`);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => v === null || typeof v !== "object")) return `[${value.map((v) => stableStringify(v)).join(",")}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((v) => inner + stableStringify(v, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    if (entries.length <= SMALL_OBJECT && entries.every(([, v]) => v === null || typeof v !== "object")) {
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${stableStringify(v)}`).join(", ")}}`;
    }
    const inner = `${indent}  `;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stableStringify(v, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The artefact file's exact bytes: stable JSON and a trailing newline. */
export function serializeArtefact(artefact: ClassifierArtefact): string {
  return `${stableStringify(artefact)}\n`;
}
