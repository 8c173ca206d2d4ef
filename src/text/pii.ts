import { toAsciiDigits } from "./normalize.js";

/**
 * Personal data in free text: Iranian national codes, Iranian mobile numbers, payment card
 * numbers, IBAN/Sheba numbers and e-mail addresses, in ASCII, Persian (U+06F0..9) and
 * Arabic-Indic (U+0660..9) digits, with the separators people type (spaces, dashes, brackets,
 * bidi marks).
 *
 * Precision matters as much as recall: what is found is masked in everything stored, and a masked
 * policy number or amount is lost to the human agent. So a number is personal data only when its
 * shape says so:
 *  - a value with a checksum (national code, card, IBAN) must pass it, be written as one group or
 *    in the grouping its documents print (national code 3-6-1, card 4-4-4-4), and not be labelled
 *    as something else nearby ("policy", «بیمه‌نامه», "claim", «پیگیری», …) nor followed by a
 *    currency («ریال», "rials");
 *  - a mobile number needs its prefix (09…, +98 9…, 0098 9…);
 *  - a number glued to letters (AR-MB-20451873, CLM-48213), or continued by a decimal point, a
 *    thousands separator, a slash or a colon (dates, times, amounts), is never one.
 * A label the user writes ("my national code is …", «کد ملی», «شماره کارت», «شبا») widens the
 * net instead: a labelled value is masked even when its checksum fails (a mistyped code is still
 * nearly the person's code) or it lacks a mobile's leading 0.
 *
 * Checked by hand, not with @persian-tools/persian-tools: that package validates a whole string
 * (is this a national code?) where redaction must find values inside a sentence, and its checks
 * are a few lines each; the tests compare these checks with it on generated values.
 */

export const PERSONAL_DATA_KINDS = ["national_id", "mobile", "card", "iban", "email"] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

export interface PersonalDataMatch {
  kind: PersonalDataKind;
  /** UTF-16 offsets into the original text, end exclusive. */
  start: number;
  end: number;
  /**
   * The value's canonical form, the same however it was written: ASCII digits (a mobile as
   * 09…, a national code padded to 10 digits), an IBAN as IR + 24 digits, an e-mail lower-cased.
   */
  canonical: string;
}

/** What becomes of a value found in a text: left as it is, replaced by its mask, or removed. */
export type RedactAction = "keep" | "mask" | "drop";

// ── checksums ────────────────────────────────────────────────────────────────────────────────

/** The Iranian national code's check: Σ d[i]·(10−i) over the first nine digits, mod 11. */
export function isValidNationalId(digits: string): boolean {
  if (!/^\d{10}$/u.test(digits)) return false;
  // Ten equal digits pass the arithmetic but are never issued; nor is a zero serial (digits 4–9).
  if (/^(\d)\1{9}$/u.test(digits) || digits.slice(3, 9) === "000000") return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i);
  const remainder = sum % 11;
  const check = Number(digits[9]);
  return remainder < 2 ? check === remainder : check === 11 - remainder;
}

/** Luhn (ISO/IEC 7812) over 13–19 digits; all zeros is not a card. */
export function isValidCardNumber(digits: string): boolean {
  if (!/^\d{13,19}$/u.test(digits) || /^0+$/u.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616 mod-97 of an Iranian IBAN (Sheba): "IR" + 24 digits, the first two the check digits. */
export function isValidIranianIban(iban: string): boolean {
  const value = iban.replace(/\s+/gu, "").toUpperCase();
  if (!/^IR\d{24}$/u.test(value)) return false;
  // Country code and check digits move to the end, letters become numbers (I = 18, R = 27).
  const rearranged = `${value.slice(4)}1827${value.slice(2, 4)}`;
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

// ── labels: what the words just before a number say it is ──────────────────────────────────────

type Label = PersonalDataKind | "other";

/**
 * Label words, matched on the lower-cased text before a number with Arabic letter variants
 * unified and ZWNJ as a space. "other" names the numbers that are not personal data: policy and
 * claim numbers, references, invoices.
 */
const LABELS: ReadonlyArray<{ label: Label; pattern: RegExp }> = [
  {
    label: "national_id",
    pattern: /national\s*(?:id|identity|code|number|no\.?)?(?:\s*card)?|melli\s*code|code\s*melli|(?:کد|شماره|شناسه)\s*ملی|کدملی|کارت\s*ملی/gu,
  },
  { label: "mobile", pattern: /mobile|cell\s*phone|cellphone|\bcell\b|phone|موبایل|همراه|شماره\s*تماس|تلفن/gu },
  { label: "card", pattern: /card|کارت|عابر\s*بانک/gu },
  { label: "iban", pattern: /iban|sheba|shaba|شبا/gu },
  { label: "email", pattern: /e-?mail|ایمیل|پست\s*الکترونیک/gu },
  {
    label: "other",
    pattern:
      /policy|claim|reference|\bref\b|tracking|\bcase\b|invoice|receipt|\border\b|\bbill\b|ticket|plate|postal|zip|بیمه\s*نامه|پیگیری|رهگیری|پرونده|خسارت|قبض|فاکتور|سفارش|رسید|حواله|پلاک|کد\s*پستی|کدپستی/gu,
  },
];

/** How far back (UTF-16 units) a label may stand, with no digit between it and the number. */
const LABEL_WINDOW = 32;

function foldLabelText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\u064A/gu, "\u06CC")
    .replace(/\u0643/gu, "\u06A9")
    .replace(/[\u200C\u200E\u200F]/gu, " ");
}

/** The label nearest before `start` (the one ending last; the longer on a tie), or null. */
function labelBefore(ascii: string, start: number): Label | null {
  const window = foldLabelText(ascii.slice(Math.max(0, start - LABEL_WINDOW - 24), start));
  let best: { label: Label; end: number; length: number } | null = null;
  for (const { label, pattern } of LABELS) {
    pattern.lastIndex = 0;
    for (const match of window.matchAll(pattern)) {
      const end = match.index + match[0].length;
      if (best === null || end > best.end || (end === best.end && match[0].length > best.length)) best = { label, end, length: match[0].length };
    }
  }
  if (best === null) return null;
  const between = window.slice(best.end);
  return between.length <= LABEL_WINDOW && !/\d/u.test(between) ? best.label : null;
}

// ── digit groups ─────────────────────────────────────────────────────────────────────────────

interface Group {
  start: number;
  end: number;
  digits: string;
}

/** What may stand between two digit groups of one value: spaces, one dash, brackets, bidi marks. */
const JOINER = /^[ \t\u00A0\u2009\u202F\u200C\u200E\u200F()]*[-\u2010\u2011\u2012\u2013\u2014\u2212]?[ \t\u00A0\u2009\u202F\u200C\u200E\u200F()]*$/u;

/** Digit groups joined into runs: the values a number can be read as are made of whole groups of one run. */
function digitRuns(ascii: string): Group[][] {
  const runs: Group[][] = [];
  let current: Group[] = [];
  for (const match of ascii.matchAll(/\d+/gu)) {
    const group = { start: match.index, end: match.index + match[0].length, digits: match[0] };
    const previous = current.at(-1);
    if (previous !== undefined) {
      const gap = ascii.slice(previous.end, group.start);
      if (gap.length > 4 || !JOINER.test(gap)) {
        runs.push(current);
        current = [];
      }
    }
    current.push(group);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

const LATIN_LETTER = /[A-Za-z]/u;
/** Punctuation that continues a number (decimal point, thousands separator, date, time, code). */
const CONTINUES = /[.,:/\\_#\u066B\u066C\u060C]/u;
const CURRENCY_AFTER = /^[\s\u200C]*(?:rials?\b|tomans?\b|irr\b|irt\b|ریال|تومان|تومن)/iu;

/** True when the run's text around [start, end) says the digits are part of something larger. */
function gluedToOthers(ascii: string, start: number, end: number): boolean {
  const before = ascii[start - 1] ?? "";
  const beforeThat = ascii[start - 2] ?? "";
  if (LATIN_LETTER.test(before)) return true;
  if ((CONTINUES.test(before) || /[-\u2010\u2011\u2013]/u.test(before)) && /[A-Za-z0-9]/u.test(beforeThat)) return true;
  const after = ascii[end] ?? "";
  const afterThat = ascii[end + 1] ?? "";
  if (LATIN_LETTER.test(after)) return true;
  if ((CONTINUES.test(after) || /[-\u2010\u2011\u2013]/u.test(after)) && /[A-Za-z0-9]/u.test(afterThat)) return true;
  return false;
}

const sameLengths = (lengths: readonly number[], expected: readonly number[]) => lengths.length === expected.length && lengths.every((n, i) => n === expected[i]);

/** A card as printed: one group, or fours with a shorter last group, or the 4-6-5 / 4-6-4 of Amex and Diners. */
function cardGrouping(lengths: readonly number[]): boolean {
  if (lengths.length === 1) return true;
  if (sameLengths(lengths, [4, 6, 5]) || sameLengths(lengths, [4, 6, 4])) return true;
  return lengths.slice(0, -1).every((n) => n === 4) && (lengths.at(-1) ?? 0) >= 1 && (lengths.at(-1) ?? 0) <= 4;
}

/** The mobile in `digits` as 09…, when its prefix makes it one (labelled: also without the leading 0). */
function mobileOf(digits: string, labelled: boolean): string | null {
  const match = /^(?:0098|98)?0?(9[0-49]\d{8})$/u.exec(digits);
  if (match === null) return null;
  const national = match[1]!;
  // Without any prefix the ten digits 9… are a mobile only when the user said so.
  if (digits.length === 10 && !labelled) return null;
  return `0${national}`;
}

interface Candidate {
  kind: PersonalDataKind;
  canonical: string;
}

function classify(ascii: string, groups: readonly Group[], label: Label | null): Candidate | null {
  const digits = groups.map((g) => g.digits).join("");
  const lengths = groups.map((g) => g.digits.length);
  const start = groups[0]!.start;
  const end = groups.at(-1)!.end;

  // IBAN first: its "IR" is letters glued to the digits, which would otherwise rule it out.
  if (digits.length === 24) {
    const prefixed = /(?:^|[^A-Za-z])IR[ \u00A0]?$/iu.test(ascii.slice(Math.max(0, start - 4), start));
    const iban = `IR${digits}`;
    if ((prefixed || !gluedToOthers(ascii, start, end)) && (isValidIranianIban(iban) || label === "iban")) return { kind: "iban", canonical: iban };
  }
  if (gluedToOthers(ascii, start, end)) return null;

  const mobile = mobileOf(digits, label === "mobile");
  if (mobile !== null) return { kind: "mobile", canonical: mobile };

  const amount = CURRENCY_AFTER.test(ascii.slice(end, end + 16));
  if (amount || label === "other") return null;

  if (label === "national_id" && digits.length >= 8 && digits.length <= 10) return { kind: "national_id", canonical: digits.padStart(10, "0") };
  if (digits.length === 10 && (lengths.length === 1 || sameLengths(lengths, [3, 6, 1])) && isValidNationalId(digits)) {
    return { kind: "national_id", canonical: digits };
  }
  if (label === "card" && digits.length >= 13 && digits.length <= 19) return { kind: "card", canonical: digits };
  if (digits.length >= 13 && digits.length <= 19 && /^[2-6]/u.test(digits) && cardGrouping(lengths) && isValidCardNumber(digits)) {
    return { kind: "card", canonical: digits };
  }
  return null;
}

/** The longest value a run allows from each group on, left to right; a group belongs to one value at most. */
function numbersIn(ascii: string): PersonalDataMatch[] {
  const out: PersonalDataMatch[] = [];
  for (const run of digitRuns(ascii)) {
    let s = 0;
    while (s < run.length) {
      let found: { match: PersonalDataMatch; next: number } | null = null;
      // The longest value is at most 24 digits (IBAN), written in at most a dozen groups.
      for (let e = Math.min(run.length - 1, s + 12); e >= s && found === null; e--) {
        const groups = run.slice(s, e + 1);
        const digitCount = groups.reduce((n, g) => n + g.digits.length, 0);
        if (digitCount < 8 || digitCount > 24) continue;
        const candidate = classify(ascii, groups, labelBefore(ascii, groups[0]!.start));
        if (candidate === null) continue;
        found = { match: { ...candidate, ...spanOf(ascii, candidate.kind, groups[0]!.start, groups.at(-1)!.end) }, next: e + 1 };
      }
      if (found === null) s++;
      else {
        out.push(found.match);
        s = found.next;
      }
    }
  }
  return out;
}

/** The span to replace: a mobile's "+" and an opening bracket, an IBAN's "IR", belong to the value. */
function spanOf(ascii: string, kind: PersonalDataKind, start: number, end: number): { start: number; end: number } {
  let from = start;
  if (kind === "iban") {
    const prefix = /IR[ \u00A0]?$/iu.exec(ascii.slice(Math.max(0, start - 3), start));
    if (prefix !== null) from = start - prefix[0].length;
  }
  if (kind === "mobile") {
    while (from > 0 && /[+(\u200E\u200F]/u.test(ascii[from - 1] ?? "")) from--;
  }
  let to = end;
  if (kind === "mobile" && ascii[to] === ")" && ascii.slice(from, end).includes("(")) to++;
  return { start: from, end: to };
}

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])/gu;

/** Every personal value in `text`, in order of position, never overlapping. */
export function findPersonalData(text: string): PersonalDataMatch[] {
  if (text === "") return [];
  // Same length as `text`: Persian and Arabic-Indic digits map one to one, so offsets carry over.
  const ascii = toAsciiDigits(text);
  const emails: PersonalDataMatch[] = [...ascii.matchAll(EMAIL)].map((m) => ({
    kind: "email",
    start: m.index,
    end: m.index + m[0].length,
    canonical: m[0].toLowerCase(),
  }));
  const numbers = numbersIn(ascii).filter((n) => !emails.some((e) => n.start < e.end && e.start < n.end));
  return [...emails, ...numbers].sort((a, b) => a.start - b.start);
}

export function hasPersonalData(text: string): boolean {
  return findPersonalData(text).length > 0;
}

/**
 * What replaces a value. Readable for the human agent who gets the handoff: the kind in words,
 * and for a mobile its last four digits (in the digits the user typed), so the agent can say
 * "the number ending 4567?" and the caller can confirm; four digits of a mobile identify nobody.
 * A national code, card or IBAN shows no digit at all: any part of them helps a fraudster.
 */
export function maskOf(match: PersonalDataMatch, text: string): string {
  switch (match.kind) {
    case "national_id":
      return "[national-id]";
    case "card":
      return "[card]";
    case "iban":
      return "[iban]";
    case "email":
      return "[email]";
    case "mobile": {
      const last4 = [...text.slice(match.start, match.end)]
        .filter((c) => /\d/u.test(toAsciiDigits(c)))
        .slice(-4)
        .join("");
      return `[mobile ••••${last4}]`;
    }
  }
}

export interface RedactOptions {
  /** The action for each kind; default: mask every kind. */
  action?: (kind: PersonalDataKind) => RedactAction;
  /** Values left as they are whatever the action (e.g. the insurer's own, quoted from a document). */
  keep?: (match: PersonalDataMatch) => boolean;
}

/** `text` with every personal value masked or dropped as `options` says. */
export function redactPersonalData(text: string, options: RedactOptions = {}): string {
  const matches = findPersonalData(text);
  if (matches.length === 0) return text;
  let out = "";
  let at = 0;
  for (const match of matches) {
    const action = options.keep?.(match) === true ? "keep" : (options.action?.(match.kind) ?? "mask");
    if (action === "keep") continue;
    let before = text.slice(at, match.start);
    // A dropped value leaves no double space, nor a space before punctuation, behind.
    if (action === "drop" && /\s$/u.test(before) && /^(?:\s|[,.;:!?\u060C\u061B\u061F]|$)/u.test(text.slice(match.end))) before = before.replace(/\s+$/u, "");
    out += before + (action === "mask" ? maskOf(match, text) : "");
    at = match.end;
  }
  return out + text.slice(at);
}
