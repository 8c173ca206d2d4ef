import { foldForMatch } from "./normalize.js";
import { CURRENCY, CURRENCY_NAME, CURRENCY_SYMBOL } from "./currency.js";

/**
 * Quantities in questions and intervals in table labels, in both languages and every digit
 * system: "a 10-day trip", «۴۷ سالمه», "a car worth 95k", "AED 4,299"; and "8–15 days",
 * "Up to 7 days", «۶۶ تا ۷۵ سال», "80,001–150,000". A question's quantity is matched to the
 * row or column whose interval holds it ("10 days" falls in "8–15 days").
 */

export type QuantityKind = "days" | "age" | "money" | "percent" | "count";

export interface Quantity {
  kind: QuantityKind;
  value: number;
}

/** What a label's numbers measure, when the label (or its header) says. */
export type UnitHint = "days" | "age" | "money" | "percent" | null;

export interface Interval {
  lo: number;
  hi: number;
  unit: UnitHint;
}

const NUM = String.raw`\d+(?:[.,]\d+)*`;

const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  یک: 1,
  یه: 1,
  دو: 2,
  سه: 3,
  چهار: 4,
  پنج: 5,
  شش: 6,
  شیش: 6,
  هفت: 7,
  هشت: 8,
  نه: 9,
  ده: 10,
  یازده: 11,
  دوازده: 12,
};

function toNumber(raw: string): number {
  // "1,200" and "1.2" — a comma followed by exactly three digits groups thousands.
  const grouped = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/u.test(raw);
  const text = grouped ? raw.replace(/,/gu, "") : raw.replace(/,/gu, ".");
  return Number(text);
}

const MULTIPLIER: Array<[RegExp, number]> = [
  [/^(?:k|thousand|هزار)$/u, 1_000],
  [/^(?:m|mn|million|میلیون)$/u, 1_000_000],
];

function multiplierOf(word: string | undefined): number {
  if (word === undefined) return 1;
  for (const [pattern, factor] of MULTIPLIER) if (pattern.test(word)) return factor;
  return 1;
}

// Folded text: ASCII digits, lower case, Persian letters unified, ZWNJ as a space.
const DURATION = new RegExp(String.raw`(${NUM}|[\p{L}]+)[\s-]*(days?|nights?|weeks?|months?|روز|روزه|شب|هفته|ماه|ماهه)(?![\p{L}])`, "gu");
// Who an age in brackets belongs to (folded text: Persian letters unified).
const PERSON = String.raw`\b(?:me|i|myself|wife|husband|spouse|partner|son|daughter|kid|child|mother|mom|mum|father|dad|brother|sister|parent|grandmother|grandfather|friend|he|she)|(?:من|همسرم|همسر|خانمم|شوهرم|پسرم|دخترم|مادرم|پدرم|برادرم|خواهرم|خودم|بچه‌ام|بچه ام)`;
const AGE = [
  new RegExp(String.raw`(${NUM})[\s-]*(?:years?[\s-]*old|yrs?[\s-]*old|year[\s-]*olds?|y\/?o)(?![\p{L}])`, "gu"),
  new RegExp(
    String.raw`(?:aged?|i am|i['’]m|im|he is|she is|he['’]s|she['’]s|hes|shes|is|am)\s+(${NUM})(?!\d|[.,]\d|\s*(?:%|days?|months?|weeks?|aed|dirhams?|k(?![\p{L}])))`,
    "gu",
  ),
  // "if they are 72?", "we're 64 and 66": people's ages when nothing follows the number ("we are 4 people" is a count).
  new RegExp(
    String.raw`(?:(?:they|we|parents|grandparents|in-laws|kids|children|sons|daughters|twins)\s+(?:are|were)|they['’]re|we['’]re|theyre)\s+(${NUM})(?=\s*(?:$|[?.,!;&]|and(?![\p{L}])))`,
    "gu",
  ),
  new RegExp(String.raw`(${NUM})\s*(?:سال|ساله|سالمه|سالشه|سالش|سالمونه|سالشونه|سالم|سالمان)(?![\p{L}])`, "gu"),
  new RegExp(String.raw`(?:سن|سنم|سنش)\s*(${NUM})`, "gu"),
  // "my sister (25)", "me (38), my wife (35)": an age in brackets after the person it belongs to.
  new RegExp(String.raw`(?<=(?:${PERSON})\s*)\((\d{1,3})\)`, "gu"),
];
const MONEY = [
  new RegExp(String.raw`${CURRENCY}\s*(${NUM})\s*(k|thousand|m|mn|million)?(?![\p{L}])`, "gu"),
  new RegExp(String.raw`(${NUM})\s*(k|thousand|m|mn|million|هزار|میلیون)?\s*${CURRENCY_NAME}(?![\p{L}])`, "gu"),
  new RegExp(
    String.raw`(?:worth|value|valued at|cost|costs|paid|pay|bought (?:it )?for|price of|ارزش|قیمت)\s*(?:of|is|about|around|approximately|like|roughly|~)?\s*(${NUM})\s*(k|thousand|m|mn|million|هزار|میلیون)?`,
    "gu",
  ),
  new RegExp(String.raw`(${NUM})\s*(k|هزار|میلیون)(?![\p{L}])`, "gu"),
];
const PERCENT = new RegExp(String.raw`(${NUM})\s*(?:%|percent|درصد)`, "gu");

const LISTED_GAP = new RegExp(String.raw`^[\s,،]*(?:and|&|و)?\s*(?:(?:my|our)\s+)?(?:(?:${PERSON})\s*(?:is|was)?)?\s*$`, "u");
const LIST_END = /^\s*(?:$|[?.,!;&،؟]|and(?![\p{L}])|و(?![\p{L}]))/u;

const DURATION_LEAD = /(?:^|[^\p{L}])(?:for|within|in|about|around|over|under|than|of|stay|stays|staying|visit|visiting|trip|last|lasts|take|takes|after|before)\s+$/u;

function durationDays(count: number, unit: string): number {
  if (/^(?:week|هفته)/u.test(unit)) return count * 7;
  if (/^(?:month|ماه)/u.test(unit)) return count * 30;
  return count;
}

/** The quantities a question states, each once, in order of appearance. */
export function parseQuantities(text: string): Quantity[] {
  const folded = foldForMatch(text);
  const found: Array<Quantity & { at: number; end: number }> = [];
  const taken = (at: number, end: number) => found.some((f) => at < f.end && end > f.at);
  const add = (kind: QuantityKind, value: number, at: number, end: number) => {
    if (!Number.isFinite(value) || taken(at, end)) return;
    found.push({ kind, value, at, end });
  };
  for (const m of folded.matchAll(DURATION)) {
    const raw = m[1]!;
    const count = /^\d/u.test(raw) ? toNumber(raw) : WORD_NUMBERS[raw];
    if (count === undefined) continue;
    // "how much a month?" is a rate; "for a month", "within a month" a length of time.
    if ((raw === "a" || raw === "an") && !DURATION_LEAD.test(folded.slice(0, m.index))) continue;
    add("days", durationDays(count, m[2]!), m.index, m.index + m[0].length);
  }
  for (const pattern of AGE) for (const m of folded.matchAll(pattern)) add("age", toNumber(m[1]!), m.index, m.index + m[0].length);
  for (const pattern of MONEY) for (const m of folded.matchAll(pattern)) add("money", toNumber(m[1]!) * multiplierOf(m[2]), m.index, m.index + m[0].length);
  for (const m of folded.matchAll(PERCENT)) add("percent", toNumber(m[1]!), m.index, m.index + m[0].length);
  for (const m of folded.matchAll(new RegExp(NUM, "gu"))) add("count", toNumber(m[0]), m.index, m.index + m[0].length);
  found.sort((a, b) => a.at - b.at);
  // "dad is 63, mum 58", "kids aged 9 and 12": a bare number listed right after an age, ending
  // the list, is the next person's age.
  for (let i = 1; i < found.length; i++) {
    const [before, q] = [found[i - 1]!, found[i]!];
    if (q.kind === "count" && before.kind === "age" && LISTED_GAP.test(folded.slice(before.end, q.at)) && LIST_END.test(folded.slice(q.end))) q.kind = "age";
  }
  return found.map(({ kind, value }) => ({ kind, value }));
}

const DAY_WORDS = /(?<![\p{L}])(?:days?|nights?|روز|روزه|شب)(?![\p{L}])/u;
const MONTH_WORDS = /(?<![\p{L}])(?:months?|ماه|ماهه)(?![\p{L}])/u;
const YEAR_WORDS = /(?<![\p{L}])(?:years?|yrs?|age|ages|aged|سال|ساله|سن|سنی)(?![\p{L}])/u;
const MONEY_WORDS = new RegExp(String.raw`(?<![\p{L}])(?:${CURRENCY_NAME}|value|worth|price|sum insured|ارزش|مبلغ)(?![\p{L}])|${CURRENCY_SYMBOL}`, "u");

/** What the numbers of a label (or of the header above it) measure. */
// "AED 20,000 a year", «در سال»: a rate's period, not a length of time or an age.
const PER_PERIOD = /(?<![\p{L}])(?:a|an|per|each|every|در)\s+(?:years?|months?|days?|سال|ماه|روز)(?![\p{L}])|\/\s*(?:year|yr|month|mo|day)(?![\p{L}])/gu;

export function unitHint(text: string): UnitHint {
  const folded = foldForMatch(text).replace(PER_PERIOD, " ");
  if (/%|percent|درصد/u.test(folded)) return "percent";
  if (DAY_WORDS.test(folded) || MONTH_WORDS.test(folded)) return "days";
  if (YEAR_WORDS.test(folded)) return "age";
  if (MONEY_WORDS.test(folded)) return "money";
  return null;
}

const RANGE = new RegExp(String.raw`(${NUM})\s*(?:-|–|—|‑|to|until|till|تا|الی)\s*(${NUM})`, "u");
const UP_TO = new RegExp(String.raw`(?:up to|upto|under|below|less than|at most|max(?:imum)?|till|until|≤|<=|<|تا|کمتر از|زیر|حداکثر)\s*(?:${CURRENCY}\s*)?(${NUM})`, "u");
const AT_LEAST = new RegExp(String.raw`(?:over|above|more than|at least|min(?:imum)?|from|≥|>=|>|بالای|بیش از|بیشتر از|حداقل|از)\s*(?:${CURRENCY}\s*)?(${NUM})`, "u");
// The open end may follow the unit: "60 years and over", «۶۰ سال به بالا».
const PLUS = new RegExp(String.raw`(${NUM})\s*(?:\p{L}+\s*)?(?:\+|and (?:over|above|older|more)|or (?:more|older|above)|به بالا(?:تر)?|و بالاتر|و بیشتر|یا بیشتر)`, "u");

/**
 * The interval a row or column label names: "8–15 days" [8, 15], "Up to 7 days" [0, 7],
 * "85+" [85, ∞), "41–50" [41, 50]; a label naming one number ("30 days") is that number.
 * Months count as 30 days. null when the label names no number.
 */
export function parseInterval(label: string, headerHint: UnitHint = null): Interval | null {
  const folded = foldForMatch(label);
  const unit = unitHint(folded) ?? headerHint;
  const measured = folded.replace(PER_PERIOD, " ");
  const scale = MONTH_WORDS.test(measured) && !DAY_WORDS.test(measured) ? 30 : 1;
  let m = RANGE.exec(folded);
  if (m !== null) {
    const lo = toNumber(m[1]!);
    const hi = toNumber(m[2]!);
    return lo <= hi ? { lo: lo * scale, hi: hi * scale, unit } : null;
  }
  m = PLUS.exec(folded);
  if (m !== null) return { lo: toNumber(m[1]!) * scale, hi: Infinity, unit };
  m = UP_TO.exec(folded);
  if (m !== null) return { lo: 0, hi: toNumber(m[1]!) * scale, unit };
  m = AT_LEAST.exec(folded);
  if (m !== null) return { lo: toNumber(m[1]!) * scale, hi: Infinity, unit };
  m = new RegExp(NUM, "u").exec(folded);
  if (m !== null) {
    const value = toNumber(m[0]) * scale;
    return { lo: value, hi: value, unit };
  }
  return null;
}

/**
 * Quantities a passage's figures or a table's ranges can hold or contradict: an age, a length of
 * time, an amount of money. A bare count cannot be judged.
 */
export const judgeable = (q: Quantity): boolean => q.kind === "days" || q.kind === "age" || q.kind === "money";

const COMPATIBLE: Record<QuantityKind, ReadonlyArray<UnitHint>> = {
  days: ["days"],
  age: ["age"],
  money: ["money"],
  percent: ["percent"],
  count: ["days", "age", "money", null],
};

/** True when the quantity falls in the interval and measures what the interval measures. */
export function quantityFits(q: Quantity, interval: Interval): boolean {
  if (interval.unit !== null && !COMPATIBLE[q.kind].includes(interval.unit)) return false;
  if (interval.unit === null && q.kind !== "count" && q.kind !== "money") return false;
  return q.value >= interval.lo && q.value <= interval.hi;
}
