import { analyze } from "../text/analysis/index.js";
import type { GateReading, Gates } from "./gates.js";
import { isShouting } from "./policy.js";
import type { HistoryEntry } from "./state.js";

/**
 * Frustration read from the conversation, not from one message (ADR trigger 7: "repeat
 * phrasing, explicit dissatisfaction"). Three signals, each from the thread's recent history in
 * state, deterministic and without a model call:
 *
 * - repeat: the same question asked again, within the last three user turns. Similarity is
 *   taken over analysed terms (stemmed, stopwords out, Persian letter and digit variants and ZWNJ
 *   folded), so «فرانشيز بيمه بدنه» and «فرانشیز بیمه‌بدنه» or "deductible" and "deductibles"
 *   count as the same words.
 *   A near-copy of an earlier message (Jaccard ≥ 0.8 over at least three terms) is a repeat;
 *   so is a message that restates an earlier one (half of its terms or more, at least two)
 *   with annoyance in it ("I asked a simple question, does it cover scuba or not??").
 * - again: a second message that reads as frustration ("that's not what I asked") after an
 *   earlier one in the thread did, even when neither was certain enough to act alone.
 * - rising: anger that climbs from one message to the next (the frustration probability, plus
 *   shouting and runs of ?/!), from noticeable to clear.
 */

export type ConversationSignal = { signal: "repeat" | "again" | "rising"; detail: string };

export interface ConversationInput {
  text: string;
  reading: GateReading;
  /** The thread's recent turns, oldest first. */
  history: readonly HistoryEntry[];
  gates: Gates;
  /** A clarifying question is pending: "I don't know" is a reply to it, not a complaint. */
  clarifying?: boolean;
  /** The message is a shrug that gives nothing new ("whatever"): while clarifying, never frustration again. */
  shrug?: boolean;
}

/** How many of the latest user turns a message is compared with: a question asked again now, not one the user returns to much later. */
const REPEAT_WINDOW = 3;
/** Near-copy: Jaccard of terms at or above this, over at least REPEAT_MIN_TERMS terms. */
const REPEAT_SIMILARITY = 0.8;
const REPEAT_MIN_TERMS = 3;
/** Restated: this share of an earlier message's terms (and at least two) is in this one. */
const RESTATED_SHARE = 0.5;
const RESTATED_MIN_SHARED = 2;
/** Annoyance that turns a restatement into a repeat. */
const RESTATED_ANNOYANCE = 0.25;
/** "again": an earlier message leaned this far towards frustration. */
const AGAIN_EARLIER = 0.4;
/** "rising": the previous message's anger at least this, this one's at least RISING_NOW and higher by RISING_STEP. */
const RISING_BEFORE = 0.2;
const RISING_NOW = 0.45;
const RISING_STEP = 0.15;

const RUN_OF_MARKS = /[?!؟]{2,}/u;

/** How angry a message reads: the classifier's frustration probability, plus shouting and runs of ?/!. */
export function anger(text: string, reading: GateReading): number {
  return reading.scores.frustration + (isShouting(text) ? 0.25 : 0) + (RUN_OF_MARKS.test(text) ? 0.1 : 0);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Terms of `earlier` that `now` repeats, counting a word and its inflection as one (روز/روزه, claim/claims): a shared prefix of three or more letters that is a whole word of one of them. */
function restatedCount(now: ReadonlySet<string>, earlier: ReadonlySet<string>): number {
  let shared = 0;
  for (const e of earlier) {
    if (now.has(e)) shared++;
    else if (e.length >= 3 && [...now].some((n) => n.length >= 3 && (n.startsWith(e) || e.startsWith(n)))) shared++;
  }
  return shared;
}

export function conversationSignal({ text, reading, history, gates, clarifying = false, shrug = false }: ConversationInput): ConversationSignal | null {
  if (history.length === 0) return null;
  const terms = new Set(analyze(text));
  const annoyance = anger(text, reading);
  for (let i = history.length - 1; i >= Math.max(0, history.length - REPEAT_WINDOW); i--) {
    const earlier = history[i]!;
    const before = new Set(analyze(earlier.user));
    const similarity = jaccard(terms, before);
    if (terms.size >= REPEAT_MIN_TERMS && similarity >= REPEAT_SIMILARITY) {
      return { signal: "repeat", detail: `asked an earlier question again (similarity ${similarity.toFixed(2)})` };
    }
    const shared = restatedCount(terms, before);
    if (annoyance >= RESTATED_ANNOYANCE && shared >= RESTATED_MIN_SHARED && shared >= RESTATED_SHARE * before.size) {
      return { signal: "repeat", detail: `restated an earlier question with annoyance (${shared} of its ${before.size} terms)` };
    }
  }
  // Frustration again: when a clarifying question is pending, only a confident reading that is not
  // a shrug (a reply that picks nothing reads as mild frustration, and it counts toward the
  // clarify budget).
  if (reading.label === "frustration" && (!clarifying || (reading.confident && !shrug))) {
    // While clarifying, a reply that picked nothing and was asked the question again ("no idea
    // which") was read as no complaint then: it counts toward the clarify budget, not as anger.
    const earlier = history.find((h, i) => gates.read(h.user).scores.frustration >= AGAIN_EARLIER && !(clarifying && pickedNothing(history, i)));
    if (earlier !== undefined) return { signal: "again", detail: `frustrated again (p=${reading.probability.toFixed(2)}) after an earlier complaint about the answers` };
  }
  // Rising anger: when a clarifying question is pending, only with its marks (shouting, "?!!"): a
  // reply that picks nothing ("no idea, just pick one") reads a little annoyed, and it counts
  // toward the clarify budget instead.
  const previous = history.at(-1)!;
  const angerBefore = anger(previous.user, gates.read(previous.user));
  const marked = isShouting(text) || RUN_OF_MARKS.test(text);
  if ((!clarifying || marked) && angerBefore >= RISING_BEFORE && annoyance >= RISING_NOW && annoyance >= angerBefore + RISING_STEP) {
    return { signal: "rising", detail: `anger rising across turns (${angerBefore.toFixed(2)} → ${annoyance.toFixed(2)})` };
  }
  return null;
}

/** True when the turn at `i` replied to a clarifying question and was asked it again: its reply picked nothing. */
function pickedNothing(history: readonly HistoryEntry[], i: number): boolean {
  return i > 0 && history[i - 1]!.outcome === "clarify" && history[i]!.outcome === "clarify";
}
