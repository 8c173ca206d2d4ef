/**
 * Character-level normalisation shared by indexing, querying and verification, after Hazm's
 * steps: unify Arabic and Persian letter variants and digits, strip diacritics and kashida,
 * collapse ZWNJ and spaces. Index and query MUST use the same function, or terms stop matching.
 */

const LETTER_MAP: Record<string, string> = {
  "\u064A": "\u06CC", // Arabic yeh ي → Persian yeh ی
  "\u0649": "\u06CC", // alef maksura ى → ی
  "\u0643": "\u06A9", // Arabic kaf ك → Persian keheh ک
  "\u0629": "\u0647", // teh marbuta ة → heh ه
  "\u0623": "\u0627", // أ → ا
  "\u0625": "\u0627", // إ → ا
  "\u0624": "\u0648", // ؤ → و
  "\u06C0": "\u0647", // heh with yeh above ۀ → ه
  "\u066A": "%", // Arabic percent sign ٪
  "\u066B": ".", // Arabic decimal separator ٫
  "\u066C": ",", // Arabic thousands separator ٬
  "\u060C": ",", // Arabic comma ،
  "\u061B": ";", // Arabic semicolon ؛
  "\u061F": "?", // Arabic question mark ؟
  "\u00AB": '"', // «
  "\u00BB": '"', // »
};

// Harakat, hamza above/below, superscript alef, and tatweel (kashida): decoration, never meaning in search.
const DIACRITICS = /[\u064B-\u065F\u0670\u0640]/gu;
const ZWNJ_RUN = /\u200C{2,}/gu;
const ZWNJ_AT_EDGES = /(^|\s)\u200C+|\u200C+(?=\s|$)/gu;
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is its own member; U+200D (ZWJ) is listed to be stripped, not to join its neighbours.
const INVISIBLES = /[\u200B\u200D\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu;

/** Maps Persian (U+06F0..9) and Arabic-Indic (U+0660..9) digits to ASCII. */
export function toAsciiDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/gu, (d) => {
    const code = d.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/**
 * Normalises text for display-safe comparison: NFKC (folds Arabic presentation forms), letter
 * and digit unification, no diacritics, single ZWNJs, single spaces. Case is preserved.
 */
export function normalizeText(text: string): string {
  let out = text.normalize("NFKC");
  out = out.replace(/[\u064A\u0649\u0643\u0629\u0623\u0625\u0624\u06C0\u066A-\u066C\u060C\u061B\u061F\u00AB\u00BB]/gu, (c) => LETTER_MAP[c] ?? c);
  out = toAsciiDigits(out);
  out = out.replace(DIACRITICS, "").replace(INVISIBLES, "");
  out = out.replace(ZWNJ_RUN, "\u200C").replace(ZWNJ_AT_EDGES, "$1");
  return out.replace(/[ \t\f\v\u00A0]+/gu, " ").trim();
}

/** Lower-cased normalised text, for matching rules and phrases. */
export function foldForMatch(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .replace(/\u200C/gu, " ")
    .replace(/\s+/gu, " ");
}
