/** The languages frontdesk answers in. The corpus is Persian-first; English is the second language. */
export type Language = "fa" | "en";

export const LANGUAGES: readonly Language[] = ["fa", "en"];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

// Arabic-script letters (Persian uses the Arabic block plus a few extra letters).
const ARABIC_SCRIPT = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/gu;
const LATIN = /[A-Za-z]/g;

export interface LanguageGuess {
  language: Language;
  /** 0..1: the share of letters in the winning script; 0 when the text has no letters. */
  confidence: number;
}

/**
 * Detects the language of a user's message by script. Persian and English do not share a
 * script, so counting letters is exact enough and needs no model. Text without letters
 * ("42", "?") falls back to the hint, then to the fallback.
 */
export function detectLanguage(text: string, hint?: string, fallback: Language = "en"): LanguageGuess {
  const arabic = text.match(ARABIC_SCRIPT)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  const letters = arabic + latin;
  if (letters === 0) {
    const hinted = hint?.toLowerCase().split(/[-_]/)[0] ?? "";
    return { language: isLanguage(hinted) ? hinted : fallback, confidence: 0 };
  }
  return arabic >= latin ? { language: "fa", confidence: arabic / letters } : { language: "en", confidence: latin / letters };
}
