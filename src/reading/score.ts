import type { Taxonomy } from "../domain/taxonomy.js";
import { attributeTerms, attributesNamed, formFits, formSpeaksOf, isAttributeWord, speaksOf } from "./attributes.js";
import { termWeight } from "./evidence-terms.js";
import { judgeable, quantityFits } from "../text/quantities.js";
import type { Attribute, QuestionAnalysis } from "./question.js";
import type { CellReading, Table } from "./table.js";
import type { ReadingUnit } from "./types.js";
import { conceptsIn, statedIntervals, termSet, union } from "./unit-terms.js";
import type { Language } from "../text/language.js";
import { CURRENCY } from "../text/currency.js";

const PERSIAN_TERM = /[\u0600-\u06FF]/u;

/**
 * How much of a question a passage, a cell or a table covers: the question's terms weighed by
 * their rarity in the tenant's documents, found in the unit's own words, its headings or its
 * title, by word or by concept; whether it speaks of the asked attribute in the form that
 * attribute takes; whether its figures fit or contradict the stated quantities.
 */

/** Tuning, as shares: fitted on one insurer's dev half, checked unchanged on the others (docs/evaluation.md). */
export const READER_RULES = {
  /** The best unit must cover this share of the question's weighted content to answer. */
  sufficient: 0.5,
  /** Most weight of a question word a passage in the other language cannot contain (no concept or name carries it). */
  untranslatedWeight: 0.5,
  /** A word in more than this share of a tenant's documents is its own name, never a kind of insurance it does not sell. */
  insurerNameShare: 0.35,
  /** A cell or item this close to the best sentence is preferred to it. */
  structureMargin: 0.02,
  /** …and a cell whose column header names the asked attribute, this close. */
  headerMargin: 0.05,
  /** Units of other products within this share of the best are equally good (ambiguity). */
  ambiguityMargin: 0.12,
  /** Weights of a question term found only in a unit's heading path / caption / headers, or only in its title or product name. */
  contextWeight: 0.8,
  titleWeight: 0.6,
  /** A follow-up's own terms (QuestionAnalysis.turnFocus) weigh this many times the carried-over ones. */
  turnWeight: 2,
  /** A term of the supposed case (QuestionAnalysis.conditions) weighs this share where a unit lacks it and states all else. */
  conditionWeight: 0.5,
  /** A stated age, amount or duration weighs this many average terms. */
  quantityWeight: 1.5,
  /** A term covered by a word of its concept rather than itself counts this share. */
  conceptWeight: 0.9,
  /** …and by a word of a broader concept ("pet" for "dog") this share of that. */
  broaderWeight: 0.8,
  /** A unit that speaks of the asked attribute but lacks its form (a price question, no figure) counts this share. */
  formlessFactor: 0.5,
  /** A passage whose own words name only other products than the one the question names counts this share. */
  otherProductFactor: 0.5,
  maxOptions: 4,
  /** The longest list answered whole (its items each cited). */
  maxListItems: 8,
} as const;

export interface Bags {
  own: ReadonlySet<string>;
  context: ReadonlySet<string>;
  title: ReadonlySet<string>;
  /** The unit's own text, for attributes said by form ("up to 2,000" is a limit). */
  form?: string;
  /** Attributes the unit states by its structure (an amount in the row the question names is a limit). */
  states?: ReadonlySet<Attribute>;
  /** The unit's language: a question word of the other one with no concept or name to carry it cannot be there. */
  lang?: Language;
  /** The unit's product: a general page's words naming a product speak of that product's own terms. */
  product?: string;
}

export type UnitBags = { context: ReadonlySet<string>; title: ReadonlySet<string>; lang: Language };

// Per taxonomy: a unit's title bag holds its product's titles, which the taxonomy gives.
const bagCache = new WeakMap<Taxonomy, WeakMap<ReadingUnit, UnitBags>>();

/**
 * A unit's heading path (with its caption or lead-in) and its title, as terms: shared by every unit
 * of the same text. The title is its product's too: the words of every title the product's
 * documents have in the unit's language ("Rahvar Comprehensive Car Insurance" names what the
 * benefit schedule's rows are about, though that page's own title never says "car").
 */
export function unitBags(unit: ReadingUnit, taxonomy: Taxonomy): UnitBags {
  let cache = bagCache.get(taxonomy);
  if (cache === undefined) {
    cache = new WeakMap();
    bagCache.set(taxonomy, cache);
  }
  let bags = cache.get(unit);
  if (bags === undefined) {
    const shape = unit.shape;
    const context = termSet([...unit.sectionPath, shape.kind === "row" ? (shape.caption ?? "") : shape.kind === "item" ? (shape.leadIn ?? "") : ""].join(" "));
    // Not the attribute another page's title names ("Price Guide"): that page states it, this one may not.
    const titles = taxonomy.products.find((p) => p.product === unit.product)?.titles[unit.lang] ?? [];
    const named = [...termSet(titles.join(" "))].filter((t) => !isAttributeWord(t));
    const title = new Set([...termSet(`${unit.title} ${unit.product.replace(/-/gu, " ")}`), ...named]);
    bags = { context, title, lang: unit.lang };
    cache.set(unit, bags);
  }
  return bags;
}

export interface Scored {
  coverage: number;
  /** Terms of the question the candidate does not cover. */
  missing: string[];
  /** How many of the terms a statement told (QuestionAnalysis.stated) the candidate speaks of. */
  told?: number;
}

/** Attributes a passage can answer by what it speaks of: its own words, heading path, caption and headers. */
export const FIGURE_ATTRIBUTES: ReadonlySet<Attribute> = new Set(["price", "limit", "deductible", "waiting", "deadline", "duration", "discount", "age", "hours", "contact"]);

export const LIMIT: ReadonlySet<Attribute> = new Set<Attribute>(["limit"]);

/** A sum of money as a table cell states it ("AED 2,500", «۲٬۵۰۰ درهم», "€500"). */
export const AMOUNT = new RegExp(String.raw`${CURRENCY}\s*[\d٠-٩۰-۹]|[\d٠-٩۰-۹][\d٠-٩۰-۹.,٬]*\s*${CURRENCY}`, "iu");

/** Amounts of money a passage can state, each named by its own nouns: one is not another. */
export const AMOUNT_ATTRIBUTES: readonly Attribute[] = ["price", "limit", "deductible", "discount"];

export function cover(question: QuestionAnalysis, terms: readonly string[], bags: Bags, taxonomy: Taxonomy, quantityFit = 0, silent = 0): Scored {
  let total = 0;
  let got = 0;
  let told = 0;
  const missing: string[] = [];
  // Weight of the supposed case's terms the unit lacks (QuestionAnalysis.conditions).
  let lackedCase = 0;
  const all = union(bags.own, bags.context);
  const lexicon = question.lexicon;
  for (const term of terms) {
    let w = termWeight(taxonomy, term);
    // A term the tenant's documents never use (and that names no focus: see focusTerms) is most
    // often a colloquial or filler word the documents phrase otherwise: it weighs like a common one.
    if (!taxonomy.vocabulary.has(term) || question.guessed?.has(term) === true) w = Math.min(w, 1);
    if (question.turnFocus?.has(term) === true) w *= READER_RULES.turnWeight;
    // "visit" asked of a Persian passage: no word of the passage can be it unless a concept or a
    // name in the other script carries it, so its absence says little.
    if (bags.lang !== undefined && PERSIAN_TERM.test(term) !== (bags.lang === "fa") && question.carried?.has(term) !== true && (question.aliases?.get(term) ?? []).length === 0) {
      w = Math.min(w, READER_RULES.untranslatedWeight);
    }
    let m = 0;
    if (bags.own.has(term)) m = 1;
    else if (bags.context.has(term)) m = READER_RULES.contextWeight;
    else if (bags.title.has(term)) m = READER_RULES.titleWeight;
    else if (attributesNamed(term, question.asked).some((a) => speaksOf(all, a) || (bags.form !== undefined && formSpeaksOf(bags.form, a)) || bags.states?.has(a) === true)) m = 1;
    else if (lexicon !== undefined) {
      // The same meaning in other words, or in the other language: «سرقت» for "stolen".
      // A word with no concept of its own is carried by its phrase's («صفحه» of «صفحه گوشی», the
      // screen) only into the other language, where no word of the phrase can be found: in the
      // same one, the phrase's other words match by themselves, and its concept would let one
      // word stand for the whole ("water" of "water damage" found in a laptop's "liquid damage").
      // In the same language too when the unit has none of the phrase's words: its concept is
      // said otherwise (a driver for «پشت فرمون», behind the wheel).
      const crossing = bags.lang !== undefined && PERSIAN_TERM.test(term) !== (bags.lang === "fa");
      const phrase = question.phraseConcepts?.get(term);
      const saidOtherwise = phrase !== undefined && ![...question.phraseConcepts!].some(([t, c]) => c === phrase && (bags.own.has(t) || bags.context.has(t) || bags.title.has(t)));
      const concept = lexicon.conceptOfTerm(term) ?? (crossing || saidOtherwise ? phrase : undefined);
      if (concept !== undefined) {
        if (conceptsIn(lexicon, bags.own).has(concept)) m = READER_RULES.conceptWeight;
        else if (conceptsIn(lexicon, bags.context).has(concept)) m = READER_RULES.conceptWeight * READER_RULES.contextWeight;
        else if (conceptsIn(lexicon, bags.title).has(concept)) m = READER_RULES.conceptWeight * READER_RULES.titleWeight;
        // "my dog" asked of a passage about pets: the broader concept speaks of it, less surely.
        for (const broader of m === 0 ? lexicon.broaderOf(concept) : []) {
          const at = conceptsIn(lexicon, bags.own).has(broader)
            ? 1
            : conceptsIn(lexicon, bags.context).has(broader)
              ? READER_RULES.contextWeight
              : conceptsIn(lexicon, bags.title).has(broader)
                ? READER_RULES.titleWeight
                : 0;
          m = Math.max(m, READER_RULES.conceptWeight * READER_RULES.broaderWeight * at);
        }
      }
    }
    if (m === 0) {
      // The same name in the other script: «گجت‌گارد» is "GadgetGuard".
      const aliases = question.aliases?.get(term) ?? [];
      if (aliases.some((a) => bags.own.has(a))) m = 1;
      else if (aliases.some((a) => bags.context.has(a))) m = READER_RULES.contextWeight;
      else if (aliases.some((a) => bags.title.has(a))) m = READER_RULES.titleWeight;
    }
    // "vet bills" asked of a claims guide's row "Pet insurance — within 180 days": a word only the
    // pet pages use is spoken of by a unit naming the pet product, as its title would.
    if (m === 0 && bags.product !== undefined && namesDomainOf(term, bags.own, bags.product, taxonomy)) m = READER_RULES.titleWeight;
    // Told, not asked ("it's for my aunt"): counts only where the unit speaks of it.
    if (question.stated?.has(term) === true) {
      if (m === 0) continue;
      told++;
    }
    total += w;
    if (m === 0) missing.push(term);
    if (m === 0 && question.conditions?.has(term) === true) lackedCase += w;
    got += w * m;
  }
  // A unit stating all the question asks, beyond the case it supposes, need not retell the case
  // ("alternative accommodation — up to AED 15,000" for "if a fire makes the flat unliveable…").
  const conditions = question.conditions;
  if (lackedCase > 0 && conditions !== undefined && terms.some((t) => !conditions.has(t) && !isAttributeWord(t)) && missing.every((t) => conditions.has(t))) {
    total -= (1 - READER_RULES.conditionWeight) * lackedCase;
    got = Math.min(got, total);
  }
  const quantities = question.quantities.filter(judgeable).length - silent;
  if (quantities > 0) {
    // Each stated quantity weighs more than an average term (an age or a trip length picks the
    // row the answer is in); fitting one covers it.
    const w = (terms.length > 0 ? total / terms.length : 1) * READER_RULES.quantityWeight;
    total += quantities * w;
    got += Math.min(quantityFit, quantities) * w;
  }
  return { coverage: total === 0 ? 0 : got / total, missing, ...(told > 0 ? { told } : {}) };
}

// Per taxonomy: the general products, and each name term's product domain.
const domainNames = new WeakMap<Taxonomy, { general: ReadonlySet<string>; names: ReadonlyMap<string, string> }>();

/**
 * True when the unit is a general page's, the term is one line of business's own
 * (Taxonomy.domainTerms) and the unit's words name a product of it.
 */
function namesDomainOf(term: string, own: ReadonlySet<string>, product: string, taxonomy: Taxonomy): boolean {
  const domain = taxonomy.domainTerms.get(term);
  if (domain === undefined) return false;
  let known = domainNames.get(taxonomy);
  if (known === undefined) {
    known = {
      general: new Set(taxonomy.products.filter((p) => p.general).map((p) => p.product)),
      names: new Map(taxonomy.products.filter((p) => !p.general).flatMap((p) => p.nameTerms.map((t) => [t, p.domain] as const))),
    };
    domainNames.set(taxonomy, known);
  }
  if (!known.general.has(product)) return false;
  for (const word of own) if (known.names.get(word) === domain) return true;
  return false;
}

/** How the passage's own figures stand to the question's quantities: fitting ones, contradicting ones. */
export function quantityAgreement(text: string, question: QuestionAnalysis): { fit: number; conflict: number; silent: number } {
  const quantities = question.quantities.filter(judgeable);
  if (quantities.length === 0) return { fit: 0, conflict: 0, silent: 0 };
  const intervals = statedIntervals(text);
  // Carried quantities of a kind the passage states nothing of (QuestionAnalysis.carriedQuantities).
  const silent = (question.carriedQuantities ?? []).filter((q) => !intervals.some((i) => i.unit === q.kind)).length;
  let fit = 0;
  let conflict = 0;
  for (const q of quantities) {
    let fits = false;
    let against = false;
    for (const interval of intervals) {
      if (interval.unit !== q.kind) continue;
      if (quantityFits(q, interval)) fits = true;
      else against = true;
    }
    if (fits) fit++;
    else if (against) conflict++;
  }
  return { fit, conflict, silent };
}

/**
 * The question's main attribute must be what the passage is about and in the form it takes (a
 * price question wants a passage about prices stating a figure); a passage whose figures
 * contradict the question's quantities ("16–31 days" for a 10-day trip) answers another case.
 */
/** "(for example, 30 days for illness on Tandorost)": a figure given to illustrate a term, not one a passage states. */
const EXAMPLE_ASIDE = /\((?:for example|for instance|e\.g\.|eg|برای مثال|به عنوان مثال|به‌عنوان مثال|مثلاً|مثلا)[^)]*\)/giu;

export function judged(score: Scored, text: string, about: ReadonlySet<string>, question: QuestionAnalysis, conflicts: number): Scored {
  let coverage = score.coverage;
  const main = question.asked.find((a) => FIGURE_ATTRIBUTES.has(a));
  const stated = text.replace(EXAMPLE_ASIDE, " ");
  if (main !== undefined && ((!speaksOf(about, main) && !formSpeaksOf(stated, main)) || !formFits(stated, [main], { change: question.change !== false, asked: question.asked })))
    coverage *= READER_RULES.formlessFactor;
  if (conflicts > 0) coverage *= READER_RULES.formlessFactor;
  // "How long does a refund take?": the refund the question names by its noun is what the
  // passage must be about, however well it states a length of time.
  if (question.asked.some((a) => a !== main && NAMED_TOPICS.has(a) && question.terms.some((t) => attributeTerms(a).has(t)) && !speaksOf(about, a)))
    coverage *= READER_RULES.formlessFactor;
  return { ...score, coverage };
}

/** Attributes whose word names the question's topic, not only its form ("refund", "documents", "waiting period"). */
const NAMED_TOPICS: ReadonlySet<Attribute> = new Set<Attribute>(["refund", "documents", "waiting", "deductible", "discount"]);

export function tableScore(
  table: Table,
  reading: CellReading,
  question: QuestionAnalysis,
  terms: readonly string[],
  taxonomy: Taxonomy,
  /** Terms of the running text of the table's own section ("Pays benefits to your passengers if injured…"). */
  section: ReadonlySet<string> = new Set(),
): Scored {
  const sample = table.sample;
  const bags = unitBags(sample, taxonomy);
  const { title, lang } = bags;
  // Only a cell the question picked reads its section's text: a table that needs a choice is not
  // made more the answer by the paragraph around it.
  const context = section.size === 0 || reading.kind !== "cell" ? bags.context : union(bags.context, section);
  const header = termSet([table.caption ?? "", table.rowHeader, ...table.columns.map((c) => c.header)].join(" "));
  const labels = termSet(table.rows.map((r) => r.label).join(" "));
  const fitted = question.quantities.filter(judgeable).length;
  if (reading.kind === "cell") {
    const own = termSet(`${reading.row.label} ${reading.column.header} ${reading.column.value}`);
    // The row's other cells say when its value holds ("Condition: you also hold a renters
    // policy"): context of the cell, as its section's text is.
    const rowContext = termSet(
      reading.row.values
        .filter((v) => v.column !== reading.column.column)
        .map((v) => v.value)
        .join(" "),
    );
    // A table is about what its page is about: a grid of figures under "Monthly Prices" states prices.
    const about = union(union(union(own, context), header), title);
    // "How much cash is covered?", "windscreen limit?": the amount in the row the question names
    // is its limit, whatever the table calls its columns.
    const statesLimit = reading.rowMatched && AMOUNT.test(reading.column.value);
    const score = cover(
      question,
      terms,
      { own, context: union(union(context, header), rowContext), title, lang, product: sample.product, form: reading.column.value, ...(statesLimit ? { states: LIMIT } : {}) },
      taxonomy,
      // Only a row or column whose interval holds a stated quantity fits it: "Annual limit — Elite"
      // picked by words says nothing of a 62-year-old's premium.
      Math.min(fitted, reading.quantitiesHeld),
    );
    if (question.asked[0] === "limit" && statesLimit) return score;
    return judged(score, reading.column.value, about, question, 0);
  }
  // A table that needs a constraint, or matches none: how much of the question it is about.
  // Asking which column to read: the columns (or what is above them) must be about the asked
  // attribute, not a row's words ("Customer care (quotes…)" does not make "Number | Hours" prices).
  const about = reading.kind === "needs" && reading.dimension === "column" ? union(header, context) : union(union(header, labels), context);
  const score = cover(question, terms, { own: union(header, labels), context, title, lang, product: sample.product }, taxonomy, fitted);
  const judgedScore = judged(score, [table.caption ?? "", ...table.rows.map((r) => r.values.map((v) => v.value).join(" "))].join(" "), about, question, 0);
  return reading.kind === "needs" ? judgedScore : { ...judgedScore, coverage: judgedScore.coverage * READER_RULES.formlessFactor };
}
