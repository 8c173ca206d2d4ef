import { toAsciiDigits } from "./normalize.js";

/**
 * Numbers, amounts and dates mentioned in a text, in a canonical form, so that "2,000,000",
 * "2000000" and "۲٬۰۰۰٬۰۰۰" compare equal. Used by the deterministic grounding check: every
 * number in an answer must appear in a chunk it cites.
 */
export function extractNumbers(text: string): string[] {
  const ascii = toAsciiDigits(text).replace(/\u066C/gu, ",").replace(/\u066B/gu, ".");
  const found: string[] = [];
  // Dates like 1403/05/01 or 2024-05-01 are one token; then numbers with thousands separators
  // and an optional decimal part.
  const pattern = /\d{1,4}[/-]\d{1,2}[/-]\d{1,4}|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/gu;
  for (const match of ascii.matchAll(pattern)) {
    found.push(canonicalNumber(match[0]));
  }
  return found;
}

export function canonicalNumber(raw: string): string {
  if (/[/-]/u.test(raw)) {
    return raw
      .split(/[/-]/u)
      .map((part) => String(Number(part)))
      .join("/");
  }
  const plain = raw.replace(/,/gu, "");
  const value = Number(plain);
  return Number.isFinite(value) ? String(value) : plain;
}
