import { ATTRIBUTE_TERMS, ATTRIBUTE_WORDS, attributeWordTerms } from "../text/attribute-words.js";
import { toAsciiDigits } from "../text/normalize.js";
import type { Attribute } from "./question.js";
import { CURRENCY } from "../text/currency.js";
import type { Language } from "../text/language.js";

const WORDS: Record<Attribute, string> = ATTRIBUTE_WORDS;

const TERMS = new Map<Attribute, ReadonlySet<string>>(
  (Object.entries(WORDS) as Array<[Attribute, string]>).map(([a, words]) => [a, new Set(words.split(/\s+/u).flatMap(attributeWordTerms))]),
);

/**
 * The words a document states an attribute with ("Send the claim form within 180 days"), per
 * language: a widened search adds them for the asked attribute, when the customer asked in words
 * of their own ("how long do I have to send the vet bills?").
 */
const STATED_WITH: Partial<Record<Attribute, Record<Language, string>>> = {
  price: { en: "premium price", fa: "حق بیمه قیمت" },
  limit: { en: "limit maximum", fa: "سقف حداکثر" },
  deductible: { en: "deductible excess", fa: "فرانشیز" },
  waiting: { en: "waiting period", fa: "دوره انتظار" },
  deadline: { en: "deadline within", fa: "مهلت ظرف" },
  documents: { en: "documents", fa: "مدارک" },
  refund: { en: "refund", fa: "استرداد" },
  discount: { en: "discount less", fa: "تخفیف کمتر" },
};

/** The words documents state the question's first asked attribute with, or "" (see STATED_WITH). */
export function statedWith(asked: readonly Attribute[], language: Language): string {
  const main = asked[0];
  return main === undefined ? "" : (STATED_WITH[main]?.[language] ?? "");
}

/** Every attribute, in the order of WORDS. */
export const ATTRIBUTES = Object.keys(WORDS) as readonly Attribute[];

export function attributeTerms(attribute: Attribute): ReadonlySet<string> {
  return TERMS.get(attribute) ?? new Set();
}

/** True when the term names some attribute ("cover", "price", "limit"): what is asked, not of what. */
export function isAttributeWord(term: string): boolean {
  return ATTRIBUTE_TERMS.has(term);
}

/** The asked attributes a term names ("excess" names the deductible). */
export function attributesNamed(term: string, asked: readonly Attribute[]): Attribute[] {
  return asked.filter((a) => attributeTerms(a).has(term));
}

/** True when the passage's terms speak of the attribute. */
export function speaksOf(terms: ReadonlySet<string>, attribute: Attribute): boolean {
  for (const t of attributeTerms(attribute)) if (terms.has(t)) return true;
  // "Does that include tax?" is answered by "premiums exclude the tax": what is excluded says
  // what is covered.
  if (attribute === "covered") for (const t of attributeTerms("excluded")) if (terms.has(t)) return true;
  return false;
}

/**
 * Forms that say the attribute without naming it: "up to 2,000", «تا ۲٬۰۰۰» is a limit however the
 * row is labelled ("Dental").
 */
const UP_TO_AMOUNT = new RegExp(String.raw`(?:^|[\s(])(?:up to|upto|max(?:imum)?\.?|at most|تا|حداکثر)\s*${CURRENCY}?\s*\d`, "iu");
// An amount of money for a period ("AED 95/year", «سالانه ۹۵ درهم») is a price.
const PER_PERIOD = new RegExp(
  String.raw`${CURRENCY}\s*[\d.,٬]+\s*(?:\/|per|a|an|each)\s*(?:year|yr|month|mo|annum|week|day)\b|[\d.,٬]+\s*${CURRENCY}\s*(?:\/|per|a|an|each|در)\s*(?:year|yr|month|mo|annum|سال|ماه)`,
  "iu",
);
// A payout stated as a multiple of another sum ("twice the death benefit", «۲ برابر سرمایه فوت»).
const MULTIPLE = /(?<![\p{L}])(?:twice|double|triple|\d+(?:\.\d+)?\s*(?:times|x|×|برابر))(?![\p{L}])|(?<![\p{L}])(?:دو|سه)\s+برابر(?![\p{L}])/iu;
// A share taken off a price ("costs 4% less", "10% off", «۵ درصد کمتر»): a discount by its form.
const LESS_BY = /\d[\d.,٬]*\s*(?:%|percent|درصد)\s*(?:less|lower|cheaper|off|کمتر|ارزان\s?تر)(?![\p{L}])|(?<![\p{L}])save\s+\d[\d.,]*\s*(?:%|percent)/iu;
const SPOKEN_BY_FORM: Partial<Record<Attribute, RegExp>> = {
  price: PER_PERIOD,
  discount: LESS_BY,
  limit: new RegExp(`${UP_TO_AMOUNT.source}|${MULTIPLE.source}`, "iu"),
  // "Lost baggage: up to €500" says the loss is covered, up to that amount.
  covered: UP_TO_AMOUNT,
};

/** True when the passage's form says the attribute (see SPOKEN_BY_FORM). */
export function formSpeaksOf(raw: string, attribute: Attribute): boolean {
  return SPOKEN_BY_FORM[attribute]?.test(toAsciiDigits(raw)) ?? false;
}

const MONEY_OR_NUMBER = /\d/u;
const PERIOD_FIGURE = /\d[\d.,٬]*\s*(?:-|to|–|تا)?\s*(?:\d[\d.,٬]*\s*)?(?:days?|nights?|hours?|hrs?|weeks?|months?|years?|روز|روزه|شب|ساعت|هفته|ماه|سال)(?![\p{L}])/giu;
const PERIOD_OR_DAY = new RegExp(
  [
    PERIOD_FIGURE.source,
    "\\d[\\d.,٬]*\\s*(?:working|business|calendar|clear|consecutive|full)\\s+(?:days?|hours?|weeks?|months?)",
    "\\d+(?:st|nd|rd|th)\\b",
    "\\d+\\s*(?:am|pm|a\\.m\\.|p\\.m\\.|:\\d\\d)",
    "\\d{1,2}\\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*",
    "\\d+\\s*(?:ام|اُم)(?![\\p{L}])",
    "\\d{1,2}\\s+(?:فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند)",
  ].join("|"),
  "iu",
);
const TIMED: ReadonlySet<Attribute> = new Set<Attribute>(["waiting", "deadline", "duration", "age"]);
// "Windscreen claims have no excess", "free of charge": none is an amount too. (Not for waiting
// periods: "accidents from day one" is the exception beside the period asked about.)
const NONE: Partial<Record<Attribute, RegExp>> = {
  price: /(?<![\p{L}])(?:free(?:\s+of\s+charge)?|no\s+(?:extra\s+)?(?:charge|fee|cost)|at\s+no\s+(?:extra\s+)?cost|رایگان|مجانی|بدون\s+هزینه)(?![\p{L}])/iu,
  deductible:
    /(?<![\p{L}])(?:no|without(?:\s+an?|\s+any)?)\s+(?:excess|deductible|franchise)|(?:excess|deductible)\s*[:–-]?\s*(?:nil|none|waived)|بدون\s+فرانشیز|فرانشیز\s+(?:ندارد|ندارند|صفر)/iu,
};
// A clock time ("9:30", "5 pm"), or a range of hours of the day ("10 to 17", «۱۰ تا ۱۷»).
const TIME =
  /\b\d{1,2}[:.]\d{2}\b|\d{1,2}\s*(?:am|pm)\b|(?<![\d.,])(?:[01]?\d|2[0-4])\s*(?:-|–|to|till|until|تا)\s*(?:[01]?\d|2[0-4])(?![\d.,:]|\s*(?:%|days?|years?|months?|روز|سال|ماه))/iu;
const CONTACT = /(?:\+?\d[\d\s-]{6,}\d)|@|www\.|https?:\/\//u;

// A figure that changes an amount rather than states it: "adds 10 percentage points to the
// deductible", «۱۰ واحد درصد … اضافه می‌شود», "+15%", "20% extra".
const INCREMENT =
  /(?:(?<![\p{L}])adds?\s+|(?<![\p{L}])plus\s+|\+\s*)\d[\d.,٬]*\s*(?:%|percent(?:age points?)?)?|\d[\d.,٬]*\s*(?:percentage points?|واحد\s+درصد)|\d[\d.,٬]*\s*(?:%|percent|درصد)\s*(?:extra|more|surcharge|loading|اضافه|افزایش|بیشتر)/giu;

/** A figure that adjusts an amount up or down ("+25% on the price above", "10% off", «۱۰ درصد تخفیف»). */
const ADJUSTMENT = new RegExp(`${INCREMENT.source}|\\d[\\d.,٬]*\\s*(?:%|percent|درصد)\\s*(?:off|discount|less|تخفیف|کمتر)`, "iu");

export const adjustsAmount = (text: string): boolean => ADJUSTMENT.test(toAsciiDigits(text));

/**
 * Whether a passage can answer the asked attribute by its form (a figure, a time, an address).
 * With the `question`: unless it asks by how much something rises (`change`: "how much extra…?"),
 * a price or an excess is not stated by a passage whose only figures change one ("a driver under
 * 25 adds 10 percentage points to the deductible"), and unless it asks a length of time or an age
 * too, nor by one whose only figures are those. Without it, any figure states one.
 */
export function formFits(raw: string, asked: readonly Attribute[], question?: { change: boolean; asked: readonly Attribute[] }): boolean {
  if (asked.length === 0) return true;
  // Persian and Arabic-Indic digits are digits too («۳ ماه», «١٥ روز»).
  const text = toAsciiDigits(raw);
  const change = question?.change ?? true;
  const timed = question === undefined || [...asked, ...question.asked].some((b) => TIMED.has(b));
  return asked.some((a) => {
    switch (a) {
      case "hours":
        return TIME.test(text);
      case "contact":
        return CONTACT.test(text);
      case "price":
      case "deductible": {
        const stated = change ? text : text.replace(INCREMENT, " ");
        return MONEY_OR_NUMBER.test(change || timed ? stated : stated.replace(PERIOD_FIGURE, " ")) || NONE[a]!.test(text);
      }
      case "limit":
        // A limit is a sum or a count: a passage whose only figures are lengths of time ("within 7
        // days", «۴۸ ساعت») states a deadline, unless the question asks for a length too.
        return MONEY_OR_NUMBER.test(asked.some((b) => TIMED.has(b)) ? text : text.replace(PERIOD_FIGURE, " "));
      case "deadline":
      case "duration":
        // A deadline or a length is a length of time, or a day of the month: "15% of the repair
        // cost" states no deadline, however many figures it has.
        return PERIOD_OR_DAY.test(text);
      case "waiting":
      case "discount":
      case "age":
        return MONEY_OR_NUMBER.test(text);
      default:
        return true;
    }
  });
}
