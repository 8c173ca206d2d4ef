import { analyzeWord, words } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
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

/** Whether the customer denied a term ("I don't smoke" denies "smoker"), by word, close inflection or concept. */
export type Denied = (term: string) => boolean;

// "smoke" and "smoker", "claim" and "claims": one word's inflections, whatever the stemmer kept.
const INFLECTION_CHARS = 2;
const MIN_STEM = 4;

export function deniedTest(denied: ReadonlySet<string> | undefined, lexicon: ConceptLexicon | undefined): Denied | null {
  if (denied === undefined || denied.size === 0) return null;
  const concepts = lexicon === undefined ? new Set<string>() : new Set(lexicon.conceptsOfTerms([...denied]));
  return (term) => {
    if (denied.has(term)) return true;
    for (const d of denied) if (d.length >= MIN_STEM && term.startsWith(d) && term.length - d.length <= INFLECTION_CHARS) return true;
    const concept = lexicon?.conceptOfTerm(term);
    return concept !== undefined && concepts.has(concept);
  };
}

/**
 * How a label of a table that splits on a denial ("Non-smoker | Smoker") meets what the customer
 * denied: a negated label's cue ("non", «بدون», «غیرسیگاری») and its denied words are said when the
 * rest of the label is what they denied; a plain label's word the customer denied is not said.
 * Null for a term the polarity says nothing of.
 */
export function labelPolarity(label: string, words: readonly string[], denied: Denied): (term: string) => boolean | null {
  const denial = labelDenial(label);
  if (denial === null) return (t) => (denied(t) ? false : null);
  const deniesRest = words.some((o) => !denial.cues.has(o) && !denial.prefixed.has(o) && denied(o));
  return (t) => {
    if (denial.cues.has(t)) return deniesRest;
    const rest = denial.prefixed.get(t);
    if (rest !== undefined) return denied(rest);
    return denied(t) ? true : null;
  };
}

/** True when some label of a dimension denies something: only then does the customer's denial pick among them. */
export function splitsOnDenial(labels: readonly string[]): boolean {
  return labels.some((l) => labelDenial(l) !== null);
}
