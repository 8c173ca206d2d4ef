import { foldForMatch } from "./normalize.js";

// "not the plus one", "no travel policy", "except Premier", «نه پلاس»; not "I'm not a smoker", which says what the customer is.
const NEGATED = /(?<![\p{L}])(?:not\s+the|no|except(?:\s+the)?|other than(?:\s+the)?|rather than(?:\s+the)?|نه|غیر از|به جز|بجز)\s+([\p{L}\u200C-]{2,})/gu;

/**
 * The words a text names only to rule them out ("the regular one, not the plus", «نه پلاس»,
 * "except Premier"), as written (folded). The reader keeps those plans out of what it reads; a
 * follow-up's rewrite does not carry them into its query.
 */
export function ruledOutWords(text: string): string[] {
  return [...foldForMatch(text).matchAll(NEGATED)].map((m) => m[1]!);
}
