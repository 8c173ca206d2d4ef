import { analyze } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
import { memoByText } from "../text/memo.js";
import { splitSentences } from "../text/sentences.js";
import { parseInterval, unitHint, type Interval } from "../text/quantities.js";

/**
 * What the reader derives from a unit's text alone — its sentences, the analysed terms of each
 * sentence, item, row, heading path and title, the intervals its figures state, the concepts its
 * terms name — is computed the first time the text is read and looked up on every later turn:
 * the chunks of a corpus are few and retrieved again and again. Every value is shared, so none
 * may be changed by its reader.
 */

/** The analysed terms of a text, as a set (first occurrence order, as `new Set(analyze(text))`). */
export const termSet: (text: string) => ReadonlySet<string> = memoByText((text) => new Set(analyze(text)));

/** A unit's sentences that hold a word (a bare figure or a rule line is no sentence to answer with). */
export const wordSentences: (text: string) => readonly string[] = memoByText((text) => splitSentences(text).filter((s) => /\p{L}/u.test(s)));

const unions = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, ReadonlySet<string>>>();

/** `new Set([...a, ...b])`, once per pair of sets. */
export function union(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  let row = unions.get(a);
  if (row === undefined) {
    row = new WeakMap();
    unions.set(a, row);
  }
  let both = row.get(b);
  if (both === undefined) {
    both = new Set([...a, ...b]);
    row.set(b, both);
  }
  return both;
}

const concepts = new WeakMap<ConceptLexicon, WeakMap<ReadonlySet<string>, ReadonlySet<string>>>();

/** The concepts a bag of terms names in a lexicon (tenants have their own lexicons). */
export function conceptsIn(lexicon: ConceptLexicon, bag: ReadonlySet<string>): ReadonlySet<string> {
  let byBag = concepts.get(lexicon);
  if (byBag === undefined) {
    byBag = new WeakMap();
    concepts.set(lexicon, byBag);
  }
  let found = byBag.get(bag);
  if (found === undefined) {
    found = new Set(lexicon.conceptsOfTerms([...bag]));
    byBag.set(bag, found);
  }
  return found;
}

const STEP_NUMBER = /^\s*\d{1,2}[.)]\s+/u;
const PERCENT_FIGURE = /\d[\d.,٬]*\s*(?:%|percent|درصد)/giu;
const OTHER_MEASURE = /\d\s*(?:hours?|hrs?|minutes?|mins?|ساعت|دقیقه)(?![\p{L}])/iu;

/**
 * The intervals a passage states, each of its cases on its own: clauses, a label and its value
 * ("Up to 7 days: 4,500,000"), a heading and its text; a comma before three digits groups
 * thousands and a colon before digits is a time, neither separates. Only intervals that say what
 * they measure (days, an age, money) can fit or contradict a question's quantity.
 */
export const statedIntervals: (text: string) => readonly Interval[] = memoByText((text) => {
  const hint = unitHint(text);
  // A step's number ("5. Report…") counts nothing; each sentence is a case of its own.
  const pieces = text.replace(STEP_NUMBER, "").split(/[;،؛]|,(?!\d{3}(?!\d))|:(?!\d)|\s[—–]\s|\s(?:and|or|و|یا)\s|(?<!\d)[.!?]\s/u);
  const out: Interval[] = [];
  for (const piece of pieces) {
    // "within 24 hours" measures what no question's quantity does: not money for the text's "$".
    if (OTHER_MEASURE.test(piece)) continue;
    // "1.2% of the car's value for cars up to 5 years old": the percentage is the value; the
    // interval beside it measures what its own words say (an age, a length of time).
    const unpercented = piece.replace(PERCENT_FIGURE, " ");
    const measured = unpercented !== piece && /\d/u.test(unpercented) ? unitHint(unpercented) : null;
    const interval = measured === "age" || measured === "days" ? parseInterval(unpercented, measured) : parseInterval(piece, unitHint(piece) ?? hint);
    if (interval !== null && interval.unit !== null) out.push(interval);
  }
  return out;
});

const besides = new WeakMap<ReadonlySet<string>, Map<string, ReadonlySet<string>>>();

/** The terms of a text that are not in `own` (an item's rendered text beside the item's own words). */
export function termsBeside(text: string, own: ReadonlySet<string>): ReadonlySet<string> {
  let byText = besides.get(own);
  if (byText === undefined) {
    byText = new Map();
    besides.set(own, byText);
  }
  let beside = byText.get(text);
  if (beside === undefined) {
    beside = new Set([...termSet(text)].filter((t) => !own.has(t)));
    byText.set(text, beside);
  }
  return beside;
}

/** A list item's label ("Dental care: fillings…" → "Dental care"): what the item is about. */
const ITEM_LABEL = /^\s*([^:：\n]{2,40}?)\s*[:：]/u;

/** The analysed words of a list item's label; empty when it has none. */
export const labelTerms = (item: string): ReadonlySet<string> => {
  const m = ITEM_LABEL.exec(item);
  return m === null ? new Set() : termSet(m[1]!);
};
