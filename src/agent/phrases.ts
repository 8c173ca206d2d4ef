import { foldForMatch } from "../text/normalize.js";

/**
 * Word-level phrase patterns for the deterministic gates. A pattern is a sequence of words; a
 * word ending in `*` matches any word with that prefix; `...` matches up to three words.
 */

type PatternToken = { kind: "word"; value: string } | { kind: "prefix"; value: string } | { kind: "gap"; max: number };

export interface CompiledPhrase {
  source: string;
  tokens: PatternToken[];
  /** The pattern's whole words: a text lacking one of them cannot match. */
  words: string[];
}

const MAX_GAP = 3;

/**
 * Folds text into the word sequence rules match on: lower case, unified Persian letters and
 * digits, punctuation removed, ZWNJ as a space, and the verb prefixes می/نمی joined to their verb
 * so "می خواهم", "می‌خواهم" and "میخواهم" are one word.
 */
export function ruleWords(text: string): string[] {
  const folded = foldForMatch(text)
    .replace(/[^\p{L}\p{N}\s'*.]/gu, " ")
    .replace(/(?<!\.)\.(?!\.)/gu, " ")
    .replace(/(^|\s)(ن?می)\s+(?=\S)/gu, "$1$2");
  return folded.split(/\s+/u).filter((w) => w !== "" && w !== "'");
}

export function compilePhrase(source: string): CompiledPhrase {
  const tokens: PatternToken[] = [];
  for (const word of ruleWords(source)) {
    if (word === "...") tokens.push({ kind: "gap", max: MAX_GAP });
    else if (word.endsWith("*") && word.length > 1) tokens.push({ kind: "prefix", value: word.slice(0, -1) });
    else tokens.push({ kind: "word", value: word.replace(/\*/gu, "") });
  }
  return { source, tokens, words: tokens.flatMap((t) => (t.kind === "word" ? [t.value] : [])) };
}

function matchesAt(tokens: PatternToken[], t: number, words: string[], w: number): boolean {
  if (t === tokens.length) return true;
  const token = tokens[t]!;
  if (token.kind === "gap") {
    for (let skip = 0; skip <= token.max && w + skip <= words.length; skip++) {
      if (matchesAt(tokens, t + 1, words, w + skip)) return true;
    }
    return false;
  }
  const word = words[w];
  if (word === undefined) return false;
  const ok = token.kind === "word" ? word === token.value : word.startsWith(token.value);
  return ok && matchesAt(tokens, t + 1, words, w + 1);
}

/** The word span [start, end) of the first match (that `unless` does not reject by the words before it), or null. */
export function findPhrase(phrase: CompiledPhrase, words: string[], unless?: (words: readonly string[], start: number) => boolean): { start: number; end: number } | null {
  if (phrase.tokens.length === 0) return null;
  for (let start = 0; start < words.length; start++) {
    if (matchesAt(phrase.tokens, 0, words, start) && unless?.(words, start) !== true) {
      // Recompute the end by greedy re-walk (patterns are short; clarity over cleverness).
      for (let end = start + 1; end <= words.length; end++) {
        if (matchesExactly(phrase.tokens, words.slice(start, end))) return { start, end };
      }
      return { start, end: start + 1 };
    }
  }
  return null;
}

function matchesExactly(tokens: PatternToken[], words: string[]): boolean {
  const walk = (t: number, w: number): boolean => {
    if (t === tokens.length) return w === words.length;
    const token = tokens[t]!;
    if (token.kind === "gap") {
      for (let skip = 0; skip <= token.max && w + skip <= words.length; skip++) if (walk(t + 1, w + skip)) return true;
      return false;
    }
    const word = words[w];
    if (word === undefined) return false;
    const ok = token.kind === "word" ? word === token.value : word.startsWith(token.value);
    return ok && walk(t + 1, w + 1);
  };
  return walk(0, 0);
}

/**
 * The first phrase of the list found in `words`; a phrase one of whose words the text lacks is not
 * searched for. With `unless`, a match it rejects (by the words before the match) does not count.
 */
export function firstMatch(phrases: readonly CompiledPhrase[], words: string[], unless?: (words: readonly string[], start: number) => boolean): CompiledPhrase | null {
  const present = new Set(words);
  for (const phrase of phrases) {
    if (!phrase.words.every((w) => present.has(w))) continue;
    if (findPhrase(phrase, words, unless) !== null) return phrase;
  }
  return null;
}
