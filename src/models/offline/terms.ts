import { analyze, words } from "../../text/analysis/index.js";
import { foldForMatch } from "../../text/index.js";

/**
 * Term helpers shared by the offline roles. Everything goes through the retrieval analyzer
 * (`analyze()`), so the offline model sees text exactly as the index does; on top of it, Persian
 * terms get a tolerant match for pronoun and plural suffixes the light analyzer keeps
 * («همسرم» ~ «همسر», «قیمتش» ~ «قیمت»), because follow-up questions are full of them.
 */

const ARABIC_LETTER = /[\u0600-\u06FF]/u;

// Longest first: the first suffix that leaves a long enough stem wins, and every one is tried.
const FA_SUFFIXES = ["هایشان", "هایتان", "هایمان", "هایش", "هایت", "هایم", "شان", "تان", "مان", "های", "ها", "ان", "ام", "ات", "اش", "ی", "م", "ت", "ش"];
// Suffixes that are also ordinary word endings need a stem of three letters, so that short words
// keep their last letter («سفر» stays whole; «کارت» ~ «کار» is a known conflation).
const LONG_STEM_SUFFIXES = new Set(["ان", "ی", "م", "ت", "ش"]);

export function isPersianTerm(term: string): boolean {
  return ARABIC_LETTER.test(term);
}

/** The forms a term may take without its Persian pronoun/plural suffix (not including itself). */
export function suffixVariants(term: string): string[] {
  if (!isPersianTerm(term)) return [];
  const out: string[] = [];
  for (const suffix of FA_SUFFIXES) {
    const minStem = LONG_STEM_SUFFIXES.has(suffix) ? 3 : 2;
    if (term.endsWith(suffix) && term.length - suffix.length >= minStem) out.push(term.slice(0, -suffix.length));
  }
  return out;
}

/**
 * Groups of words the corpus and users use interchangeably ("excess" for "deductible", «ماشین»
 * for «خودرو»). Every term is mapped to its group's first member before matching, so a question
 * and a sentence that use different words of one group still match.
 */
const SYNONYM_GROUPS: readonly string[] = [
  "deductible excess franchise فرانشیز",
  "premium price fee fees tariff قیمت نرخ تعرفه حق",
  "spouse wife husband همسر",
  "children child kids kid فرزندان فرزند بچه",
  "parents parent mother father mum mom dad والدین",
  "car vehicle automobile auto خودرو ماشین اتومبیل",
  "phone mobile smartphone گوشی موبایل",
  "home house منزل خانه",
  "travel trip مسافرتی مسافرت سفر",
  "hospitalisation hospitalization hospitalised hospitalized بستری",
  "dental dentist dentistry دندان دندانپزشکی",
  "instalment installment instalments installments قسط اقساط",
  "pay paid pays paying",
  "require required requires requirement requirements need needs needed لازم الزامی الزامات الزام",
  "limit ceiling cap سقف",
  "centre center",
  "licence license",
  "ساعت ساعات",
  "شینگن شنگن",
  "مبلغ مبالغ",
];

// Each term maps to the first member of its group *in its own script*, so Persian stays Persian
// and English stays English (generate filters question terms by the reply language).
const CANONICAL = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const terms = analyze(group);
  const heads = new Map<boolean, string>();
  for (const term of terms) {
    const persian = isPersianTerm(term);
    if (!heads.has(persian)) heads.set(persian, term);
    if (!CANONICAL.has(term)) CANONICAL.set(term, heads.get(persian)!);
  }
}

/** A term's synonym-group representative (itself when it has none). */
export function canonicalTerm(term: string): string {
  const direct = CANONICAL.get(term);
  if (direct !== undefined) return direct;
  for (const variant of suffixVariants(term)) {
    const viaVariant = CANONICAL.get(variant);
    if (viaVariant !== undefined) return viaVariant;
  }
  return term;
}

/**
 * English words the stemmer cuts to almost nothing ("added" → "ad", while "add" stays "add"):
 * for those, a light suffix strip keeps question and document forms together.
 */
function lightEnglishStem(word: string): string {
  const bare = word.replace(/(?:ing|ed|es|s)$/u, "");
  return bare.length >= 3 ? bare : word;
}

/**
 * `analyze()` with synonyms folded: the terms every offline role matches on. Words are analysed
 * one at a time (as the analyzer does) so that over-stemmed English words can be repaired.
 */
export function analyzeTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    for (const term of analyze(word)) {
      const repaired = !isPersianTerm(term) && !/^\d/u.test(term) && term.length <= 2 && word.length > 3 ? lightEnglishStem(word) : term;
      out.push(canonicalTerm(repaired));
    }
  }
  return out;
}

/** A set of analyzed terms with suffix-tolerant membership. */
export interface TermBag {
  readonly terms: ReadonlySet<string>;
  has(term: string): boolean;
}

export function termBag(terms: Iterable<string>): TermBag {
  const exact = new Set<string>();
  const stripped = new Set<string>();
  for (const term of terms) {
    exact.add(term);
    for (const variant of suffixVariants(term)) stripped.add(variant);
  }
  return {
    terms: exact,
    has(term: string): boolean {
      if (exact.has(term) || stripped.has(term)) return true;
      return suffixVariants(term).some((variant) => exact.has(variant));
    },
  };
}

/** Analyzed content terms of a text (synonyms folded), first occurrence order, no duplicates. */
export function contentTerms(text: string): string[] {
  return [...new Set(analyzeTerms(text))];
}

/**
 * Term weights for coverage, favouring terms that are rare among the given evidence: a query
 * term found in every chunk weighs 1, one found in none weighs 1 + ln(N + 1). Computed over the
 * chunks of this call only, so no corpus statistics (IDF) are needed.
 */
export function rarityWeights(queryTerms: readonly string[], bags: readonly TermBag[]): Map<string, number> {
  const n = bags.length;
  const weights = new Map<string, number>();
  for (const term of queryTerms) {
    const df = bags.reduce((count, bag) => count + (bag.has(term) ? 1 : 0), 0);
    weights.set(term, 1 + Math.log((n + 1) / (df + 1)));
  }
  return weights;
}

export interface Coverage {
  /** Weighted share of the query terms found, 0..1. */
  ratio: number;
  matched: string[];
  missing: string[];
}

/** Where else a passage's terms come from, and how much a term found only there counts. */
export type ContextBag = readonly [bag: TermBag, weight: number];

/**
 * Weighted coverage of `queryTerms` by `bag`. A term found only in a context (a chunk's title,
 * the heading above a sentence) counts with that context's weight: it says what the passage is
 * about, not what it states.
 */
export function coverage(queryTerms: readonly string[], bag: TermBag, weights?: ReadonlyMap<string, number>, contexts: readonly ContextBag[] = []): Coverage {
  let total = 0;
  let found = 0;
  const matched: string[] = [];
  const missing: string[] = [];
  for (const term of queryTerms) {
    const weight = weights?.get(term) ?? 1;
    total += weight;
    if (bag.has(term)) {
      found += weight;
      matched.push(term);
      continue;
    }
    const share = Math.max(0, ...contexts.filter(([context]) => context.has(term)).map(([, w]) => w));
    if (share > 0) {
      found += weight * share;
      matched.push(term);
    } else {
      missing.push(term);
    }
  }
  return { ratio: total === 0 ? 0 : found / total, matched, missing };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/**
 * One regular expression matching any of `phrases` as whole words of folded text (see
 * foldForMatch). Phrases are folded too, so they may be written naturally (ZWNJ, Arabic letters).
 * `faSuffix` also accepts a Persian pronoun/plural suffix after the phrase («قسطم», «بیمه‌نامه‌ام»).
 */
export function phraseRegex(phrases: readonly string[], options: { faSuffix?: boolean } = {}): RegExp {
  const alternatives = [...new Set(phrases.map((p) => escapeRegExp(foldForMatch(p)).replace(/ /gu, "\\s?")))].sort((a, b) => b.length - a.length).join("|");
  const suffix = options.faSuffix === true ? "(?:\\s?(?:هایمان|هایم|های|ها|ام|ات|اش|مان|تان|شان|م|ت|ش))?" : "";
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})${suffix}(?![\\p{L}\\p{N}])`, "u");
}

// Negation cues. The analyzer drops most of them as stopwords, so they are read from raw words.
const EN_NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nor",
  "neither",
  "without",
  "cannot",
  "can't",
  "won't",
  "isn't",
  "aren't",
  "doesn't",
  "don't",
  "didn't",
  "wasn't",
  "weren't",
  "hasn't",
  "haven't",
  "shouldn't",
  "mustn't",
  "excluded",
  "exclude",
  "excludes",
  "excluding",
]);
const FA_NEGATIONS = new Set(["هیچ", "بدون", "مستثنی", "مستثنا", "نه"]);
// Persian negative verbs: the prefix ن on a verb stem (نمی‌شود، ندارد، نیست، نخواهد…). Listed by
// stem because many nouns start with ن (نامه، نرخ، نماینده).
const FA_NEGATIVE_VERB = /^(?:نمی|نیست|ندار|نخواه|نباید|نشد|نشو|نکرد|نکن|نگیر|نپرداز|نپذیر|ندهد|نداد|نده|نبود|نباش|نرس|نتوان|نمیتوان|نگرد|نیاید|نمیشود)/u;

/** How many negation words the text contains (English and Persian). */
export function negationCount(text: string): number {
  let count = 0;
  for (const word of words(text.replace(/[\u2018\u2019]/gu, "'"))) {
    if (ARABIC_LETTER.test(word)) {
      if (FA_NEGATIONS.has(word) || FA_NEGATIVE_VERB.test(word)) count++;
    } else if (EN_NEGATIONS.has(word) || word.endsWith("n't")) {
      count++;
    }
  }
  return count;
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
