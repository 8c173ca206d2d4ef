import { normalizeText } from "../normalize.js";
import type { Language } from "../language.js";
import { analyzeEnglishWord } from "./en.js";
import { analyzePersianWord } from "./fa.js";

export { EN_STOPWORDS } from "./en.js";
export { FA_STOPWORDS } from "./fa.js";

const ARABIC_LETTER = /[\u0600-\u06FF]/u;

/** The joints of a compound token: ZWNJ in Persian, a hyphen between letters in English. */
const JOINT = /[\u200C-]/u;

/**
 * Splits normalised text into tokens, keeping ZWNJ inside a token (بیمه‌نامه‌ها is one token) and
 * a hyphen between letters ("pick-up" is one token). Numbers keep their separators together
 * ("2,000,000", "1.5"), then lose them.
 */
function tokens(text: string): string[] {
  const normalized = normalizeText(text)
    .toLowerCase()
    // Hamza above on ه is the written ezafe (خانهٔ = خانه + ezafe): grammar, not a new word.
    .replace(/\u0654/gu, "")
    // Typographic apostrophes would otherwise split "don’t" into "don" + "t".
    .replace(/[\u2018\u2019\u02BC]/gu, "'")
    // The Unicode hyphens (a non-breaking one in "pick‑up") join a compound as "-" does.
    .replace(/[\u2010\u2011]/gu, "-");
  const raw = normalized.match(/\d+(?:[.,]\d+)*%?|[\p{L}\p{M}\d'\u200C]+(?:-(?=\p{L})[\p{L}\p{M}\d'\u200C]+)*/gu) ?? [];
  return raw.map((w) => (/^\d/u.test(w) ? w.replace(/,/gu, "").replace(/%$/u, "") : w.replace(/^['\u200C]+|['\u200C]+$/gu, ""))).filter((w) => w !== "");
}

/** Splits normalised text into raw words. ZWNJ and hyphens separate (کتاب‌ها → کتاب ها) so affixes can drop. */
export function words(text: string): string[] {
  return tokens(text).flatMap((token) => token.split(JOINT).filter((w) => w !== ""));
}

/**
 * The analyzer shared by the sparse index, the reranker, the offline model and grounding
 * checks: normalise, split, drop stopwords, stem. Each word is analysed by its own script, so
 * mixed Persian/English text ("بیمه iPhone") works without knowing the language up front.
 *
 * A ZWNJ compound gives its parts' terms and, when different, the term of the parts written
 * together: بیمه‌نامه → بیمه, نامه, بیمهنامه. Writers often drop the ZWNJ (بیمهنامه), and a part
 * can be a stopword that carries the meaning of the compound (پس‌لرزه "aftershock" → پس + لرزه).
 * A hyphenated compound whose parts are not all words of their own ("pick-up": "up" is a
 * stopword; "e-mail": "e" is too short) also gives its joined term, as writers drop the hyphen
 * ("pickup", "email", "checkup"). One whose parts all are ("third-party") gives the parts only:
 * they carry it, and a joined term as well would weigh it twice against "third party".
 */
export function analyze(text: string, _language?: Language): string[] {
  const terms: string[] = [];
  for (const token of tokens(text)) {
    const parts = token.split(JOINT).filter((w) => w !== "");
    const partTerms: string[] = [];
    for (const part of parts) {
      const term = analyzeWord(part);
      if (term !== null) partTerms.push(term);
    }
    terms.push(...partTerms);
    const hyphenated = token.includes("-");
    if (parts.length > 1 && !(hyphenated && partTerms.length === parts.length)) {
      const joined = analyzeWord(parts.join(""));
      if (joined !== null && !partTerms.includes(joined)) terms.push(joined);
    }
  }
  return terms;
}

/** Analyses one word from `words()`: its term, or null for a stopword or a too-short word. */
export function analyzeWord(word: string): string | null {
  return ARABIC_LETTER.test(word) ? analyzePersianWord(word) : analyzeEnglishWord(word);
}
