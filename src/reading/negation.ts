import { analyzeWord, words } from "../text/analysis/index.js";
import { foldForMatch } from "../text/normalize.js";

/**
 * What a text says is not so: "I don't smoke", "no claims", «سیگار نمی‌کشم», «سابقه ندارم».
 * Tables split on such a property ("Non-smoker | Smoker", "No claims | 1 claim"), and a label
 * that shares the customer's word is the wrong one when the customer denied it. The cues are the
 * languages' words of negation, not a corpus's.
 */

// Words that negate what follows them: English, and Persian's prepositions and determiners.
const CUES = new Set(["not", "no", "non", "never", "without", "none", "nor", "بدون", "هیچ", "نه", "غیر"]);
// English contractions ("don't", "isnt").
const CONTRACTED = /^\p{L}+n'?t$/u;
// Persian negated verbs («نمی‌کشم», «نیستم», «ندارم», «نکردم»): the verb is last, what it denies stands before it.
const VERB = /^(?:نمی\p{L}*|نیست\p{L}*|ندار\p{L}*|نداشت\p{L}*|نکرد\p{L}*|نکشید\p{L}*|نبود\p{L}*|نشد\p{L}*)$/u;
// A word a negation is written into («غیرسیگاری», "nonsmoker"): the rest is what is denied.
const PREFIXED = /^(?:غیر|non-?)(\p{L}{3,})$/u;

/** How far a cue reaches within its clause: words after a cue, words before a Persian verb. */
const AFTER = 3;
const BEFORE_VERB = 2;
// A clause ends at these: "I don't smoke. How much is it?" denies nothing of the second sentence.
const CLAUSE_END = /[.!?؟;؛,،:\n]+/u;

function isCue(word: string): boolean {
  return CUES.has(word) || CONTRACTED.test(word) || VERB.test(word);
}

/** The analysed terms a text says are not so (numbers aside). */
export function deniedTerms(text: string): Set<string> {
  const out = new Set<string>();
  const add = (w: string | undefined) => {
    if (w === undefined || isCue(w)) return;
    const t = analyzeWord(PREFIXED.exec(w)?.[1] ?? w);
    if (t !== null && !/\d/u.test(t)) out.add(t);
  };
  for (const clause of foldForMatch(text).split(CLAUSE_END)) {
    const ws = words(clause);
    ws.forEach((w, i) => {
      if (PREFIXED.test(w)) add(w);
      if (VERB.test(w)) for (let k = 1; k <= BEFORE_VERB; k++) add(ws[i - k]);
      else if (isCue(w)) for (let k = 1; k <= AFTER; k++) add(ws[i + k]);
    });
  }
  return out;
}

/** A label's negation: whether it denies something ("Non-smoker", «بدون خسارت») and the terms its cue stands for. */
export interface LabelDenial {
  /** Terms of the label that are only its cue ("non", «بدون»): matched when the customer denies the rest. */
  cues: Set<string>;
  /** Prefixed terms («غیرسیگار») and the term they deny («سیگار»). */
  prefixed: Map<string, string>;
}

export function labelDenial(label: string): LabelDenial | null {
  const cues = new Set<string>();
  const prefixed = new Map<string, string>();
  for (const w of words(foldForMatch(label))) {
    const rest = PREFIXED.exec(w)?.[1];
    const whole = analyzeWord(w);
    if (rest !== undefined) {
      const denied = analyzeWord(rest);
      if (whole !== null && denied !== null) prefixed.set(whole, denied);
    } else if (isCue(w) && whole !== null) cues.add(whole);
    else if (isCue(w)) cues.add(w);
  }
  return cues.size === 0 && prefixed.size === 0 ? null : { cues, prefixed };
}
