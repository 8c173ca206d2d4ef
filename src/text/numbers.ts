import { toAsciiDigits } from "./normalize.js";

/**
 * Numbers, amounts and dates mentioned in a text, in a canonical form, so that "2,000,000",
 * "2000000" and "۲٬۰۰۰٬۰۰۰" compare equal. Used by the deterministic grounding check: every
 * number in an answer must appear in a chunk it cites.
 */
export function extractNumbers(text: string): string[] {
  const ascii = toAsciiDigits(text)
    .replace(/\u066C/gu, ",")
    .replace(/\u066B/gu, ".");
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

const RANGE_NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const RANGE = new RegExp(String.raw`(${RANGE_NUMBER})\s*(?:-|–|—|‑|to|until|till|تا|الی)\s*(${RANGE_NUMBER})`, "giu");

/**
 * The closed ranges a text states ("31–40", "8 to 15 days", «۶۶ تا ۷۵», "80,001–150,000"), as
 * [low, high] with low ≤ high: a question's "35" or "a 10-day trip" lies in one without
 * sharing its digits. Dates are not ranges ("2024-05-01" has two dashes).
 */
export function extractRanges(text: string): Array<[number, number]> {
  const ascii = toAsciiDigits(text)
    .replace(/\u066C/gu, ",")
    .replace(/\u066B/gu, ".");
  const out: Array<[number, number]> = [];
  for (const match of ascii.matchAll(RANGE)) {
    const before = ascii[match.index - 1];
    const after = ascii[match.index + match[0].length];
    if (
      (before !== undefined && /[\d/-]/u.test(before)) ||
      (after !== undefined && /[\d/]/u.test(after)) ||
      (after === "-" && /\d/u.test(ascii[match.index + match[0].length + 1] ?? ""))
    )
      continue;
    const lo = Number(match[1]!.replace(/,/gu, ""));
    const hi = Number(match[2]!.replace(/,/gu, ""));
    if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi) out.push([lo, hi]);
  }
  return out;
}

const PERIOD = /(\d+(?:\.\d+)?)\s*[-\s]?(weeks?|months?|هفته|ماهه|ماه)(?![\p{L}])/giu;

/**
 * Durations a text states in weeks or months, as days ("3 weeks" 21, «۲ ماه» 60): price tables
 * band trips and stays by days, so a question's "3 weeks" lies in "15–21 days" only in days.
 */
export function periodDays(text: string): number[] {
  const ascii = toAsciiDigits(text);
  const out: number[] = [];
  for (const match of ascii.matchAll(PERIOD)) {
    const count = Number(match[1]);
    const unit = match[2]!.toLowerCase();
    if (Number.isFinite(count)) out.push(count * (unit.startsWith("week") || unit === "هفته" ? 7 : 30));
  }
  return out;
}
