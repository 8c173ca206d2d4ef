import { words } from "./analysis/index.js";
import { analyzeWord } from "./analysis/index.js";

/**
 * A script-neutral key of how a word sounds, for names written in both scripts: "GadgetGuard" and
 * «گجت‌گارد», "Mehr Plus" and «مهر پلاس», "Platinum" and «پلاتینیوم». Persian writes no short
 * vowels and the same letters stand for vowels and for v/y, so the key keeps consonants only, by
 * sound class (ث/س/ص and s are one class, ق/غ and q/gh another), drops a silent final h/«ه», and
 * collapses doubled letters. Latin "th" and Persian «ته» are both t ("Lighthouse", «لایت‌هاوس»),
 * and a Latin "gh" before t is silent ("light"). Both scripts reduce to the same key when one is a
 * transliteration of the other; ordinary words of the two languages rarely do at three consonants or more, and the
 * key is only compared among a tenant's own names and labels (src/domain/taxonomy.ts).
 */

const PERSIAN: Record<string, string> = {
  ب: "b",
  پ: "p",
  ت: "t",
  ط: "t",
  ث: "s",
  س: "s",
  ص: "s",
  ج: "j",
  چ: "C",
  ح: "h",
  ه: "h",
  خ: "x",
  د: "d",
  ذ: "z",
  ز: "z",
  ض: "z",
  ظ: "z",
  ر: "r",
  ژ: "Z",
  ش: "S",
  غ: "G",
  ق: "G",
  ف: "f",
  ک: "k",
  گ: "g",
  ل: "l",
  م: "m",
  ن: "n",
};

// Longest first: digraphs before their letters.
const LATIN: ReadonlyArray<[RegExp, string]> = [
  // English "gh" before "t" is silent ("light", "night", "weight"); elsewhere it is Persian «غ».
  [/gh(?=t)/gu, ""],
  [/sch/gu, "S"],
  [/sh/gu, "S"],
  [/ch/gu, "C"],
  [/kh/gu, "x"],
  [/gh/gu, "G"],
  [/zh/gu, "Z"],
  [/ph/gu, "f"],
  [/th/gu, "t"],
  [/dg/gu, "j"],
  [/ck/gu, "k"],
  [/qu?/gu, "G"],
  [/x/gu, "ks"],
  [/c(?=[eiy])/gu, "s"],
  [/c/gu, "k"],
];

const PERSIAN_LETTERS = /[\u0600-\u06FF]/u;

export function isPersianWord(word: string): boolean {
  return PERSIAN_LETTERS.test(word);
}

/** The key of one word (or of words written together); "" when it has no letters. */
export function scriptKey(word: string): string {
  let key: string;
  if (isPersianWord(word)) {
    // A final «ه» is mostly a vowel (جاده "jadeh", آشیانه "ashiyaneh").
    const letters = word.replace(/[\s\u200C]+/gu, "").replace(/ه$/u, "");
    // «ته» is how Persian writes a Latin "th" ("Lighthouse" «لایت‌هاوس»), which the Latin key reads as t.
    key = [...letters]
      .map((c) => PERSIAN[c] ?? "")
      .join("")
      .replace(/th/gu, "t");
  } else {
    let w = word.toLowerCase().replace(/[^a-z]/gu, "");
    // "Jadeh", "Ashiyaneh": the Latin spelling of that final vowel.
    w = w.replace(/([aeiou])h$/u, "$1");
    for (const [pattern, to] of LATIN) w = w.replace(pattern, to);
    // Vowels, and v/w/y, which Persian writes with its vowel letters.
    key = w.replace(/[aeiouvwy]/gu, "");
  }
  return key.replace(/(.)\1+/gu, "$1");
}

/** Keys shorter than this say too little to tie two words together. */
export const MIN_KEY_LENGTH = 3;

/**
 * The words of a text, each with its analysed term and its key, and every two neighbouring words
 * written together ("گجت گارد" for «گجت‌گارد»), whose terms are both words' terms.
 */
export function keyedWords(text: string): Array<{ key: string; terms: string[]; persian: boolean }> {
  const ws = words(text).filter((w) => !/\d/u.test(w));
  const out: Array<{ key: string; terms: string[]; persian: boolean }> = [];
  const term = (w: string) => analyzeWord(w);
  ws.forEach((w, i) => {
    const t = term(w);
    const persian = isPersianWord(w);
    out.push({ key: scriptKey(w), terms: t === null ? [] : [t], persian });
    const next = ws[i + 1];
    if (next !== undefined && isPersianWord(next) === persian) {
      const t2 = term(next);
      // The two words written together are a term of their own too («گجت‌گارد» → «گجتگارد»).
      const joined = term(`${w}${next}`);
      out.push({ key: scriptKey(`${w}${next}`), terms: [...new Set([t, t2, joined].filter((x): x is string => x !== null))], persian });
    }
  });
  return out.filter((k) => k.key.length >= MIN_KEY_LENGTH && k.terms.length > 0);
}
