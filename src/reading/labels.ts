import { CURRENCY_WORDS } from "../text/currency.js";
import { analyze } from "../text/analysis/index.js";
import { foldForMatch } from "../text/normalize.js";
import { parseInterval, quantityFits, unitHint, type Quantity } from "../text/quantities.js";
import { labelPolarity, type Denied } from "./negation.js";
import type { QuestionAnalysis } from "./question.js";
import { termSet } from "./unit-terms.js";

/**
 * How well a table's row label or column header matches the question (src/reading/table.ts
 * picks the row and the column by it): a quantity inside the label's interval, the label's
 * words the question says (itself, joined or split, or by its concept), numbers the label
 * names as words.
 */

// A label's terms are looked up, not recomputed, on every turn that reads its table.
const termsOf = termSet;

/** A label word matched by its concept rather than itself (as READER_RULES.conceptWeight for passages). */
const CONCEPT_LABEL_WEIGHT = 0.9;
/** …and by a broader concept ("conviction" for "speeding ticket") this share of that (as READER_RULES.broaderWeight). */
const BROADER_LABEL_WEIGHT = 0.8;
// Below three labels, "most of them" is one or two: a concept shared by both of two rows is still set aside by neither.
const SHARED_CONCEPT_MIN_LABELS = 3;
// Of two labels whose words the question all uses ("Water damage", "Most claims" for a water damage
// claim), the one saying more of the question is meant: a tie-break, never more than a share point.
const QUESTION_SHARE_TIEBREAK = 0.01;

// Words that name a unit, not a row: every row of a trip-length column says "days".
const UNIT_WORDS = new Set(analyze(`day days night nights week weeks month months year years old age aged روز روزه شب هفته ماه سال ساله سن ${CURRENCY_WORDS}`));

/**
 * How well a label matches the question: 2 for a quantity inside its interval, 0 for a
 * quantity of its kind outside it (a 10-day trip is not "16–31 days", whatever its words), else
 * the share of its words (units aside) the question uses.
 */
export function labelMatch(
  label: string,
  headerHint: string,
  question: QuestionAnalysis,
  questionTerms: ReadonlySet<string>,
  used: Set<Quantity>,
  weight: (term: string) => number,
  questionWeight = 0,
  denied: Denied | null = null,
  shared: ReadonlySet<string> = new Set(),
  matched?: Set<string>,
): number {
  const words = [...termsOf(label)].filter((t) => !/\d/u.test(t) && !UNIT_WORDS.has(t));
  const parsed = parseInterval(label, unitHint(headerHint));
  // A lone number in a named label ("Sedan, 6 cylinders") is part of the name, not a range to fall in.
  // A range followed by what it counts ("2 or more incidents") is a name too: an age or a speed does
  // not fall in it.
  const named = parsed !== null && unitHint(label) === null && words.length > 0 && (parsed.lo === parsed.hi || countsOwnThing(label));
  const interval = named ? null : parsed;
  if (interval !== null) {
    // A range nothing names the unit of ("Driver 25–29") takes a stated quantity that falls in it.
    const fit = question.quantities.find((q) => !used.has(q) && (quantityFits(q, interval) || (interval.unit === null && q.value >= interval.lo && q.value <= interval.hi)));
    if (fit !== undefined) {
      used.add(fit);
      // Of two rows holding the quantity ("8–15 days", "max 45 days"), the narrower is meant.
      const width = Number.isFinite(interval.hi) ? interval.hi - interval.lo : 1e9;
      return 2 + 1 / (1 + width / Math.max(1, fit.value));
    }
    if (interval.unit !== null && question.quantities.some((q) => q.kind === interval.unit)) return 0;
  }
  if (words.length === 0) return 0;
  // A label word of the question's meaning in other words ("Motorcycle" for "motorbike") counts a little less.
  const lexicon = question.lexicon;
  const concepts = lexicon === undefined ? null : new Set(lexicon.conceptsOfTerms([...questionTerms]));
  // "a speeding ticket" is a kind of conviction: a label naming the broader concept matches, less surely.
  const broader = lexicon === undefined || concepts === null ? null : new Set([...concepts].flatMap((c) => lexicon.broaderOf(c)));
  // Words weigh by rarity: a header sharing "insurance" with the question («حق بیمه») is not
  // thereby the asked one.
  const total = words.reduce((sum, t) => sum + weight(t), 0);
  // A meaning the label already says in the question's own word counts once: "care", the broader
  // of "rehabilitation", adds nothing to a label that says "rehabilitation" itself.
  const meaningOf = (t: string) => lexicon?.conceptOfTerm(t) ?? [];
  const literal = words.filter((t) => questionTerms.has(t)).flatMap(meaningOf);
  const saidMeanings = new Set([...literal, ...literal.flatMap((c) => lexicon?.broaderOf(c) ?? [])]);
  // …and a broader meaning of one the label says in other words ("rehab" for "rehabilitation").
  const saidBroader = new Set(
    words
      .flatMap(meaningOf)
      .filter((c) => concepts?.has(c) === true)
      .flatMap((c) => lexicon?.broaderOf(c) ?? []),
  );
  const polarity = denied === null ? null : labelPolarity(label, words, denied);
  const hits = words.reduce((sum, t) => {
    if (polarity !== null) {
      const said = polarity(t);
      if (said !== null) return said ? sum + weight(t) : sum;
    }
    if (questionTerms.has(t) || isJoinedPair(t, questionTerms) || isPartOfSaid(t, words, questionTerms)) {
      // A word the customer says is not so ("no pool") is no more of the question said.
      if (question.denied?.has(t) !== true) matched?.add(t);
      return sum + weight(t);
    }
    const concept = lexicon?.conceptOfTerm(t);
    if (concept === undefined || shared.has(concept) || saidMeanings.has(concept)) return sum;
    if (concepts?.has(concept) === true) return sum + CONCEPT_LABEL_WEIGHT * weight(t);
    return broader?.has(concept) === true && !saidBroader.has(concept) ? sum + CONCEPT_LABEL_WEIGHT * BROADER_LABEL_WEIGHT * weight(t) : sum;
  }, 0);
  // Numbers a label names as words of its own ("6 cylinders", "4x4") count when the question says them.
  const numbers = [...termsOf(label)].filter((t) => /^\d+$/u.test(t));
  const numberHits = numbers.filter((n) => question.quantities.some((q) => String(q.value) === n)).length;
  const said = questionWeight > 0 ? QUESTION_SHARE_TIEBREAK * Math.min(1, hits / questionWeight) : 0;
  return (total === 0 ? 0 : hits / total + said) + (numbers.length > 0 ? numberHits / numbers.length / 2 : 0);
}

// A number (or range) and the word after it: "2 or more incidents", "up to 3 claims".
// Two letters are enough for a unit the question's quantities are not in: "20 km or more" is a distance, not an age of 20 and over.
const COUNTED = /\d(?:\s*(?:\+|or more|or fewer|or less|and over|and above|و بیشتر|یا بیشتر))?\s+([\p{L}]{2,})/u;

/** True when a label's number is followed by the thing it counts, a word that names no unit. */
function countsOwnThing(label: string): boolean {
  const word = COUNTED.exec(foldForMatch(label))?.[1];
  if (word === undefined) return false;
  const terms = analyze(word);
  return terms.length > 0 && terms.every((t) => !UNIT_WORDS.has(t) && !/^\d/u.test(t));
}

/**
 * A part of a compound the question says whole: "pickup" says the "pick" of "Pick-up", as
 * «بیمهنامه» says the «بیمه» of «بیمه‌نامه» (the analyzer gives a compound's parts and its joined
 * term, so the label holds both).
 */
function isPartOfSaid(term: string, labelTerms: readonly string[], questionTerms: ReadonlySet<string>): boolean {
  return labelTerms.some((j) => j !== term && j.length > term.length && questionTerms.has(j) && (j.startsWith(term) || j.endsWith(term)));
}

/**
 * The question's concepts that most labels of a dimension carry ("car" is every saloon and SUV
 * row's "vehicle"): they say the question is about the table, not which row it asks for, so they
 * do not count toward a label. Only concept matches are set aside; the question's own words
 * still count ("pickup" for "Pick-up / light van").
 */
export function sharedConcepts(labels: readonly string[], question: QuestionAnalysis, questionTerms: ReadonlySet<string>): Set<string> {
  const lexicon = question.lexicon;
  if (lexicon === undefined || labels.length < SHARED_CONCEPT_MIN_LABELS) return new Set();
  const asked = new Set(lexicon.conceptsOfTerms([...questionTerms]));
  const counts = new Map<string, number>();
  for (const label of labels) {
    const carried = new Set([...termsOf(label)].map((t) => lexicon.conceptOfTerm(t)).filter((c): c is string => c !== undefined && asked.has(c)));
    for (const c of carried) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n > labels.length / 2).map(([c]) => c));
}

/** "شاسی‌بلند" written as two words in the question ("شاسی بلند") is still the label's word. */
function isJoinedPair(term: string, questionTerms: ReadonlySet<string>): boolean {
  for (let i = 2; i <= term.length - 2; i++) if (questionTerms.has(term.slice(0, i)) && questionTerms.has(term.slice(i))) return true;
  return false;
}
