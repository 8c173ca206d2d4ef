import type { ProductEntry, Taxonomy } from "../domain/taxonomy.js";
import { productsNamed } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
import type { Language } from "../text/language.js";
import { foldForMatch } from "../text/normalize.js";
import { attributesNamed, formFits, formSpeaksOf, isAttributeWord, speaksOf } from "./attributes.js";
import { correctTerm, focusTerms, questionTerms, tenantForm, termWeight } from "./evidence-terms.js";
import { parseQuantities, quantityFits, type Quantity } from "./quantities.js";
import { analyzeQuestion, type Attribute, type QuestionAnalysis } from "./question.js";
import { readTable, renderCell, tablesOf, type CellReading, type Table } from "./table.js";
import type { ReadingUnit } from "./types.js";
import { conceptsIn, statedIntervals, termSet, termsBeside, union, wordSentences } from "./unit-terms.js";

/**
 * The reader: from a question and the units retrieval found, the one thing to do — answer with
 * the cell, the list item or the sentence that states what is asked; ask which product, or which
 * of a table's rows or columns, when the documents answer differently and the question does not
 * say; or say the evidence does not answer. Every decision rests on evidence that means the same
 * in any corpus: the share of the question's content a unit covers (terms weighed by their rarity
 * in the tenant's own documents), whether the unit speaks of the asked attribute and has its form
 * (a figure for a price), whether a quantity falls in a row's range, and which products the
 * question names (the tenant's taxonomy).
 */

export interface ReaderInput {
  /** The standalone query (contextualized). */
  query: string;
  language: Language;
  /** Retrieved units, best first, then their neighbours (whole tables for rows). */
  units: readonly ReadingUnit[];
  taxonomy: Taxonomy;
  /**
   * The customer's own words this turn, when the query left statements out ("I'm 35. How much is
   * it?"): their quantities (an age, a price paid, a trip's length) still pick a table's row or
   * column, but their other words are not asked about.
   */
  context?: string;
  /** Words of one meaning across both languages: a unit that names the question's concept covers its term. */
  lexicon?: ConceptLexicon;
  /** Diagnostics: receives the ranked candidates (best first) before the decision. */
  trace?: (candidates: ReadonlyArray<{ kind: string; text: string; coverage: number; missing: string[] }>) => void;
}

export interface ReaderClaim {
  text: string;
  chunkIds: string[];
}

export interface ReaderOption {
  label: string;
  documentId: string;
  product: string;
  domain: string;
  title: string;
}

export type ReaderVerdict =
  | { kind: "answer"; basis: "cell" | "item" | "sentence"; claims: ReaderClaim[]; coverage: number; documentId: string; product: string }
  | { kind: "clarify_products"; options: ReaderOption[]; coverage: number }
  | { kind: "clarify_table"; header: string; options: ReaderOption[]; coverage: number; documentId: string; product: string }
  | { kind: "insufficient"; reason: string; coverage: number };

/** Tuning, as shares: fitted on one insurer's dev half, checked unchanged on the others (docs/evaluation.md). */
export const READER_RULES = {
  /** The best unit must cover this share of the question's weighted content to answer. */
  sufficient: 0.5,
  /** A cell or item this close to the best sentence is preferred to it. */
  structureMargin: 0.02,
  /** Units of other products within this share of the best are equally good (ambiguity). */
  ambiguityMargin: 0.12,
  /** Weights of a question term found only in a unit's heading path / caption / headers, or only in its title or product name. */
  contextWeight: 0.8,
  titleWeight: 0.6,
  /** A follow-up's own terms (QuestionAnalysis.turnFocus) weigh this many times the carried-over ones. */
  turnWeight: 2,
  /** A stated age, amount or duration weighs this many average terms. */
  quantityWeight: 1.5,
  /** A term covered by a word of its concept rather than itself counts this share. */
  conceptWeight: 0.9,
  /** A unit that speaks of the asked attribute but lacks its form (a price question, no figure) counts this share. */
  formlessFactor: 0.5,
  maxOptions: 4,
  /** The longest list answered whole (its items each cited). */
  maxListItems: 8,
} as const;

interface Bags {
  own: ReadonlySet<string>;
  context: ReadonlySet<string>;
  title: ReadonlySet<string>;
  /** The unit's own text, for attributes said by form ("up to 2,000" is a limit). */
  form?: string;
  /** Attributes the unit states by its structure (an amount in the row the question names is a limit). */
  states?: ReadonlySet<Attribute>;
}

type UnitBags = { context: ReadonlySet<string>; title: ReadonlySet<string> };

const bagCache = new WeakMap<ReadingUnit, UnitBags>();

/** A unit's heading path (with its caption or lead-in) and its title, as terms: shared by every unit of the same text. */
function unitBags(unit: ReadingUnit): UnitBags {
  let bags = bagCache.get(unit);
  if (bags === undefined) {
    const shape = unit.shape;
    const context = termSet([...unit.sectionPath, shape.kind === "row" ? (shape.caption ?? "") : shape.kind === "item" ? (shape.leadIn ?? "") : ""].join(" "));
    const title = termSet(`${unit.title} ${unit.product.replace(/-/gu, " ")}`);
    bags = { context, title };
    bagCache.set(unit, bags);
  }
  return bags;
}

interface Scored {
  coverage: number;
  /** Terms of the question the candidate does not cover. */
  missing: string[];
}

/** Attributes a passage can answer by what it speaks of: its own words, heading path, caption and headers. */
const FIGURE_ATTRIBUTES: ReadonlySet<Attribute> = new Set(["price", "limit", "deductible", "waiting", "deadline", "duration", "discount", "age", "hours", "contact"]);

const LIMIT: ReadonlySet<Attribute> = new Set<Attribute>(["limit"]);

/** A sum of money as a table cell states it ("AED 2,500", «۲٬۵۰۰ درهم», "€500"). */
const AMOUNT = /(?:aed|usd|eur|gbp|irr|dhs?|\$|€|£|rials?|dirhams?|ریال|درهم|تومان)\s*[\d٠-٩۰-۹]|[\d٠-٩۰-۹][\d٠-٩۰-۹.,٬]*\s*(?:aed|usd|eur|dhs?|rials?|dirhams?|ریال|درهم|تومان)/iu;

/** Amounts of money a passage can state, each named by its own nouns: one is not another. */
const AMOUNT_ATTRIBUTES: readonly Attribute[] = ["price", "limit", "deductible", "discount"];

/** Quantities that a passage can fit or contradict (a bare count cannot be judged). */
const judgeable = (q: Quantity) => q.kind === "days" || q.kind === "age" || q.kind === "money";

function cover(question: QuestionAnalysis, terms: readonly string[], bags: Bags, taxonomy: Taxonomy, quantityFit = 0): Scored {
  let total = 0;
  let got = 0;
  const missing: string[] = [];
  const all = union(bags.own, bags.context);
  const lexicon = question.lexicon;
  for (const term of terms) {
    let w = termWeight(taxonomy, term);
    // A term the tenant's documents never use (and that names no focus: see focusTerms) is most
    // often a colloquial or filler word the documents phrase otherwise: it weighs like a common one.
    if (!taxonomy.vocabulary.has(term) || question.guessed?.has(term) === true) w = Math.min(w, 1);
    if (question.turnFocus?.has(term) === true) w *= READER_RULES.turnWeight;
    total += w;
    let m = 0;
    if (bags.own.has(term)) m = 1;
    else if (bags.context.has(term)) m = READER_RULES.contextWeight;
    else if (bags.title.has(term)) m = READER_RULES.titleWeight;
    else if (attributesNamed(term, question.asked).some((a) => speaksOf(all, a) || (bags.form !== undefined && formSpeaksOf(bags.form, a)) || bags.states?.has(a) === true)) m = 1;
    else if (lexicon !== undefined) {
      // The same meaning in other words, or in the other language: «سرقت» for "stolen".
      const concept = lexicon.conceptOfTerm(term);
      if (concept !== undefined) {
        if (conceptsIn(lexicon, bags.own).has(concept)) m = READER_RULES.conceptWeight;
        else if (conceptsIn(lexicon, bags.context).has(concept)) m = READER_RULES.conceptWeight * READER_RULES.contextWeight;
        else if (conceptsIn(lexicon, bags.title).has(concept)) m = READER_RULES.conceptWeight * READER_RULES.titleWeight;
      }
    }
    if (m === 0) missing.push(term);
    got += w * m;
  }
  const quantities = question.quantities.filter(judgeable).length;
  if (quantities > 0) {
    // Each stated quantity weighs more than an average term (an age or a trip length picks the
    // row the answer is in); fitting one covers it.
    const w = (terms.length > 0 ? total / terms.length : 1) * READER_RULES.quantityWeight;
    total += quantities * w;
    got += Math.min(quantityFit, quantities) * w;
  }
  return { coverage: total === 0 ? 0 : got / total, missing };
}

/** How the passage's own figures stand to the question's quantities: fitting ones, contradicting ones. */
function quantityAgreement(text: string, question: QuestionAnalysis): { fit: number; conflict: number } {
  const quantities = question.quantities.filter(judgeable);
  if (quantities.length === 0) return { fit: 0, conflict: 0 };
  const intervals = statedIntervals(text);
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
  return { fit, conflict };
}

type TextCandidate = { kind: "sentence" | "item"; unit: ReadingUnit; text: string; extra: ReaderClaim[]; score: Scored };
type Candidate = TextCandidate | { kind: "table"; table: Table; reading: CellReading; score: Scored };

function productOf(c: Candidate): string {
  return c.kind === "table" ? c.table.sample.product : c.unit.product;
}

function unitOf(c: Candidate): ReadingUnit {
  return c.kind === "table" ? c.table.sample : c.unit;
}

const INTRODUCES_LIST = /:\s*$/u;
// A worked example illustrates a rule; the rule itself is the better answer.
const EXAMPLE = /^(?:for example|for instance|e\.g\.|example:|برای مثال|مثلاً|مثلا|مثال:)/iu;

/**
 * The query's terms the customer's message says itself, by word or by concept, when the query
 * (rewritten from the conversation) says more; null when they are all of it or none.
 */
function followUpFocus(terms: readonly string[], context: string | undefined, taxonomy: Taxonomy, lexicon: ConceptLexicon | undefined): ReadonlySet<string> | null {
  if (context === undefined) return null;
  const said = new Set(analyze(context).map((t) => tenantForm(taxonomy, t)));
  const concepts = lexicon === undefined ? new Set<string>() : new Set(lexicon.conceptsOfTerms([...said]));
  const focus = new Set(terms.filter((t) => said.has(t) || (lexicon !== undefined && concepts.has(lexicon.conceptOfTerm(t) ?? "\u0000"))));
  return focus.size === 0 || focus.size === terms.length ? null : focus;
}

/** The query's quantities, then the context's that say something the query does not (by kind and value). */
function withContextQuantities(own: readonly Quantity[], context: readonly Quantity[]): Quantity[] {
  const key = (q: Quantity) => JSON.stringify(q);
  const seen = new Set(own.map(key));
  return [...own, ...context.filter((q) => !seen.has(key(q)))];
}

export function read(input: ReaderInput): ReaderVerdict {
  const { taxonomy } = input;
  const asked = analyzeQuestion(input.query, input.language);
  const question = input.context === undefined ? asked : { ...asked, quantities: withContextQuantities(asked.quantities, parseQuantities(input.context)) };
  const judgeableQuantities = question.quantities.some(judgeable);
  const raw = questionTerms(input.query, judgeableQuantities);
  const terms = [...new Set(raw.map((t) => tenantForm(taxonomy, t)))];
  // A word the documents never use, respelt as one they do ("stuff" → "staff"), may be a guess:
  // it weighs like a common word, as the unknown word itself would.
  const guessed = new Set(raw.filter((t) => !taxonomy.vocabulary.has(t) && correctTerm(taxonomy, t) !== t).map((t) => correctTerm(taxonomy, t)));
  if (terms.length === 0 && question.quantities.length === 0) return { kind: "insufficient", reason: "the question has no content terms", coverage: 0 };
  const turnFocus = followUpFocus(terms, input.context, taxonomy, input.lexicon);
  const corrected: QuestionAnalysis = {
    ...question,
    terms,
    guessed,
    ...(input.lexicon === undefined ? {} : { lexicon: input.lexicon }),
    ...(turnFocus === null ? {} : { turnFocus }),
  };
  // What the question is about, named by a word the tenant's documents never use: they cannot answer.
  const unknownFocus = focusTerms(
    input.query,
    corrected.asked.some((a) => AMOUNT_ATTRIBUTES.includes(a)),
  )
    .map((t) => tenantForm(taxonomy, t))
    .filter((t) => !taxonomy.vocabulary.has(t));
  if (unknownFocus.length > 0) {
    return { kind: "insufficient", reason: `the documents never mention ${unknownFocus.slice(0, 3).join(", ")}`, coverage: 0 };
  }

  // A product the question names (its own brand or title words) rules out every other product's
  // documents; general pages still apply.
  const named = productsMentioned(taxonomy, terms);
  const namedSet = new Set(named.map((p) => p.product));
  const general = new Set(taxonomy.products.filter((p) => p.general).map((p) => p.product));
  let units = input.units.filter((u) => namedSet.size === 0 || namedSet.has(u.product) || general.has(u.product));
  // Answer from documents in the reply language when the product has any.
  const inLanguage = units.filter((u) => u.lang === input.language);
  const documented = new Set(inLanguage.map((u) => u.product));
  units = units.filter((u) => u.lang === input.language || !documented.has(u.product));

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    if (unit.shape.kind === "row" || seen.has(unit.chunkId)) continue;
    seen.add(unit.chunkId);
    const { context, title } = unitBags(unit);
    if (unit.shape.kind === "item") {
      // The item's own words; its heading and lead-in (rendered into its text) are context.
      const own = termSet(unit.shape.item);
      const agreement = quantityAgreement(unit.text, corrected);
      const score = cover(corrected, terms, { own, context: union(context, termsBeside(unit.text, own)), title, form: unit.shape.item }, taxonomy, agreement.fit);
      candidates.push({ kind: "item", unit, text: unit.text, extra: [], score: judged(score, unit.text, union(own, context), corrected, agreement.conflict) });
      continue;
    }
    const sentences = wordSentences(unit.text);
    sentences.forEach((sentence, i) => {
      const extra: ReaderClaim[] = [];
      // A sentence that introduces what follows ("The deductible is:") brings the next one.
      if (INTRODUCES_LIST.test(sentence) && sentences[i + 1] !== undefined) extra.push({ text: sentences[i + 1]!, chunkIds: [unit.chunkId] });
      const full = `${sentence} ${extra.map((e) => e.text).join(" ")}`;
      const own = termSet(full);
      const agreement = quantityAgreement(full, corrected);
      const score = cover(corrected, terms, { own, context, title, form: full }, taxonomy, agreement.fit);
      const judgedScore = judged(score, full, union(own, context), corrected, agreement.conflict);
      if (EXAMPLE.test(sentence.trim())) judgedScore.coverage *= 0.9;
      candidates.push({ kind: "sentence", unit, text: sentence, extra, score: judgedScore });
    });
  }
  candidates.push(...listCandidates(candidates, corrected, terms, taxonomy));
  for (const table of tablesOf(units)) {
    const reading = readTable(table, corrected);
    const score = tableScore(table, reading, corrected, terms, taxonomy);
    candidates.push({ kind: "table", table, reading, score });
  }
  if (candidates.length === 0) return { kind: "insufficient", reason: "nothing was retrieved for the question's product", coverage: 0 };

  candidates.sort((a, b) => b.score.coverage - a.score.coverage || rank(b) - rank(a));
  input.trace?.(
    candidates.slice(0, 8).map((c) => ({
      kind: c.kind === "table" ? `table:${c.reading.kind}` : c.kind,
      text: c.kind === "table" ? (c.reading.kind === "cell" ? renderCell(c.reading) : `${c.table.caption ?? ""} [${c.reading.kind}]`) : c.text,
      coverage: c.score.coverage,
      missing: c.score.missing,
    })),
  );
  // Within a hair of the best, the more structured answer wins: a cell states less around the fact.
  const top = candidates[0]!.score.coverage;
  const best = candidates.filter((c) => c.score.coverage >= top - READER_RULES.structureMargin).reduce((a, b) => (rank(b) > rank(a) ? b : a));
  if (best.score.coverage < READER_RULES.sufficient) {
    return {
      kind: "insufficient",
      reason: `best evidence covers ${Math.round(best.score.coverage * 100)}% of the question (missing: ${best.score.missing.slice(0, 4).join(", ")})`,
      coverage: best.score.coverage,
    };
  }

  // Several products answer about equally well and the question names none of them alone: ask which.
  // A question of nothing but its attribute ("how much does it cost?") is answered by every
  // product that states one: each is a contender, however close to the best.
  if (namedSet.size !== 1) {
    const broad = terms.every((t) => attributesNamed(t, corrected.asked).length > 0 || (taxonomy.documentFrequency.get(t) ?? 0) > taxonomy.documents / 2);
    const floor = broad ? READER_RULES.sufficient : Math.max(READER_RULES.sufficient, best.score.coverage - READER_RULES.ambiguityMargin);
    const contenders = candidates.filter((c) => c.score.coverage >= floor);
    const products = [...new Set(contenders.map(productOf))].filter((p) => !general.has(p));
    if (!general.has(productOf(best)) && products.length >= 2) {
      return { kind: "clarify_products", options: productOptions(products, contenders, input.language, taxonomy), coverage: best.score.coverage };
    }
  }

  if (best.kind === "table") {
    const reading = best.reading;
    if (reading.kind === "needs") {
      const sample = best.table.sample;
      return {
        kind: "clarify_table",
        header: reading.header,
        options: reading.options
          .slice(0, READER_RULES.maxOptions * 2)
          .map((label) => ({ label, documentId: sample.documentId, product: sample.product, domain: sample.domain, title: sample.title })),
        coverage: best.score.coverage,
        documentId: sample.documentId,
        product: sample.product,
      };
    }
    if (reading.kind === "no_match") return { kind: "insufficient", reason: `no ${reading.dimension} of the table matches the question`, coverage: best.score.coverage };
    return {
      kind: "answer",
      basis: "cell",
      claims: [{ text: renderCell(reading), chunkIds: [reading.row.unit.chunkId] }],
      coverage: best.score.coverage,
      documentId: best.table.documentId,
      product: best.table.sample.product,
    };
  }
  const unit = unitOf(best);
  return {
    kind: "answer",
    basis: best.kind,
    claims: [{ text: best.text, chunkIds: [unit.chunkId] }, ...best.extra],
    coverage: best.score.coverage,
    documentId: unit.documentId,
    product: unit.product,
  };
}

/**
 * The products a question is about: those it names by a word only they have ("rahvar"), or else
 * by a word their names share ("car" names both car products, "travel" one), but never by a word
 * most products' names have ("insurance"). Empty when it names none.
 */
function productsMentioned(taxonomy: Taxonomy, terms: readonly string[]): ProductEntry[] {
  const products = taxonomy.products.filter((p) => !p.general);
  const distinct = productsNamed(taxonomy, terms).filter((p) => !p.general);
  if (distinct.length > 0) return distinct;
  const names = new Map(products.map((p) => [p.product, termSet(`${p.product.replace(/-/gu, " ")} ${Object.values(p.titles).flat().join(" ")}`)]));
  let found: ProductEntry[] = [];
  for (const term of terms) {
    // "cover" in "Hamsafar Travel Cover" says what is asked about a product, not which one.
    if (isAttributeWord(term)) continue;
    const having = products.filter((p) => names.get(p.product)!.has(term));
    if (having.length === 0 || having.length > Math.max(1, products.length / 2)) continue;
    const both = found.filter((p) => having.includes(p));
    // Words naming different products ("car" and "travel") name them all.
    found = found.length === 0 ? having : both.length > 0 ? both : [...found, ...having.filter((p) => !found.includes(p))];
  }
  return found;
}

/**
 * A list whose items each state the asked figure for another case ("Up to 7 days: 4,500,000
 * rials", "8 to 15 days: …"), asked about without saying which case: no item answers better than
 * the others, and the answer is the list — its lead-in and its items, each cited. When the
 * question's words or quantities pick one item, that item stands out and no list is offered.
 */
function listCandidates(candidates: readonly Candidate[], question: QuestionAnalysis, terms: readonly string[], taxonomy: Taxonomy): Candidate[] {
  const main = question.asked.find((a) => FIGURE_ATTRIBUTES.has(a));
  if (main === undefined) return [];
  const groups = new Map<string, TextCandidate[]>();
  for (const c of candidates) {
    if (c.kind !== "item" || c.unit.shape.kind !== "item" || c.unit.shape.leadIn === null) continue;
    const key = `${c.unit.documentId}\u0000${c.unit.sectionPath.join(">")}\u0000${c.unit.shape.leadIn}`;
    const group = groups.get(key) ?? [];
    group.push(c);
    groups.set(key, group);
  }
  const out: Candidate[] = [];
  for (const group of groups.values()) {
    if (group.length > READER_RULES.maxListItems) continue;
    // The items that state the figure must tie; an item that states none ("Friday: closed") is
    // still part of the list's answer.
    // An item whose own words name another figure ("25% discount") states that one, not the asked one.
    const states = (item: string) => {
      const own = termSet(item);
      const other = AMOUNT_ATTRIBUTES.some((a) => !question.asked.includes(a) && speaksOf(own, a));
      return formFits(item, [main]) && (!other || speaksOf(own, main));
    };
    const stating = group.filter((c) => c.unit.shape.kind === "item" && states(c.unit.shape.item));
    if (stating.length < 2) continue;
    const coverages = stating.map((c) => c.score.coverage);
    if (Math.max(...coverages) - Math.min(...coverages) > READER_RULES.structureMargin) continue;
    const ordered = [...group].sort((a, b) => (a.unit.position ?? 0) - (b.unit.position ?? 0));
    const first = ordered[0]!;
    const leadIn = first.unit.shape.kind === "item" ? (first.unit.shape.leadIn ?? "") : "";
    const own = termSet([leadIn, ...ordered.map((c) => (c.unit.shape.kind === "item" ? c.unit.shape.item : ""))].join(" "));
    const { context, title } = unitBags(first.unit);
    const score = cover(question, terms, { own, context, title, form: ordered.map((c) => c.unit.text).join(" ") }, taxonomy, 0);
    out.push({
      kind: "item",
      unit: first.unit,
      text: first.text,
      // The first item with its heading and lead-in, then the others' own words.
      extra: ordered.slice(1).map((c) => ({ text: c.unit.shape.kind === "item" ? c.unit.shape.item : c.text, chunkIds: [c.unit.chunkId] })),
      score: judged(score, leadIn + " " + ordered.map((c) => c.text).join(" "), union(own, context), question, 0),
    });
  }
  return out;
}

/** Cells beat items beat sentences on a tie: the more structured answer states less around the fact. */
function rank(c: Candidate): number {
  if (c.kind === "table") return c.reading.kind === "cell" ? 3 : 1;
  return c.kind === "item" ? 2 : 1;
}

/**
 * The question's main attribute must be what the passage is about and in the form it takes (a
 * price question wants a passage about prices stating a figure); a passage whose figures
 * contradict the question's quantities ("16–31 days" for a 10-day trip) answers another case.
 */
function judged(score: Scored, text: string, about: ReadonlySet<string>, question: QuestionAnalysis, conflicts: number): Scored {
  let coverage = score.coverage;
  const main = question.asked.find((a) => FIGURE_ATTRIBUTES.has(a));
  if (main !== undefined && ((!speaksOf(about, main) && !formSpeaksOf(text, main)) || !formFits(text, [main]))) coverage *= READER_RULES.formlessFactor;
  if (conflicts > 0) coverage *= READER_RULES.formlessFactor;
  return { ...score, coverage };
}

function tableScore(table: Table, reading: CellReading, question: QuestionAnalysis, terms: readonly string[], taxonomy: Taxonomy): Scored {
  const sample = table.sample;
  const { context, title } = unitBags(sample);
  const header = termSet([table.caption ?? "", table.rowHeader, ...table.columns.map((c) => c.header)].join(" "));
  const labels = termSet(table.rows.map((r) => r.label).join(" "));
  const fitted = question.quantities.filter(judgeable).length;
  if (reading.kind === "cell") {
    const own = termSet(`${reading.row.label} ${reading.column.header} ${reading.column.value}`);
    const about = union(union(own, context), header);
    const fits = (reading.rowMatched ? 1 : 0) + (reading.columnMatched ? 1 : 0);
    // "How much cash is covered?", "windscreen limit?": the amount in the row the question names
    // is its limit, whatever the table calls its columns.
    const statesLimit = reading.rowMatched && AMOUNT.test(reading.column.value);
    const score = cover(
      question,
      terms,
      { own, context: union(context, header), title, form: reading.column.value, ...(statesLimit ? { states: LIMIT } : {}) },
      taxonomy,
      Math.min(fitted, fits),
    );
    if (question.asked[0] === "limit" && statesLimit) return score;
    return judged(score, reading.column.value, about, question, 0);
  }
  // A table that needs a constraint, or matches none: how much of the question it is about.
  // Asking which column to read: the columns (or what is above them) must be about the asked
  // attribute, not a row's words ("Customer care (quotes…)" does not make "Number | Hours" prices).
  const about = reading.kind === "needs" && reading.dimension === "column" ? union(header, context) : union(union(header, labels), context);
  const score = cover(question, terms, { own: union(header, labels), context, title }, taxonomy, fitted);
  const judgedScore = judged(score, [table.caption ?? "", ...table.rows.map((r) => r.values.map((v) => v.value).join(" "))].join(" "), about, question, 0);
  return reading.kind === "needs" ? judgedScore : { ...judgedScore, coverage: judgedScore.coverage * READER_RULES.formlessFactor };
}

function productOptions(products: readonly string[], contenders: readonly Candidate[], language: Language, taxonomy: Taxonomy): ReaderOption[] {
  return products.slice(0, READER_RULES.maxOptions).map((product) => {
    const entry: ProductEntry | undefined = taxonomy.products.find((p) => p.product === product);
    const units = contenders.filter((c) => productOf(c) === product).map(unitOf);
    const unit = units.find((u) => u.lang === language) ?? units[0]!;
    const titles = entry?.titles[language] ?? [];
    // The shortest title in the reply language names the product best ("Tandorost – Benefit Schedule" < …).
    const label = titles.length > 0 ? [...titles].sort((a, b) => a.length - b.length)[0]! : unit.title;
    return { label, documentId: unit.documentId, product, domain: unit.domain, title: unit.title };
  });
}

/** Folded text of a unit, for tests and diagnostics. */
export function describeUnit(unit: ReadingUnit): string {
  return foldForMatch(`${unit.chunkId}: ${unit.text}`);
}
