import { crossScriptAliases, productsNamed, type Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
import type { Language } from "../text/language.js";
import { foldForMatch } from "../text/normalize.js";
import { attributesNamed, speaksOf } from "./attributes.js";
import {
  adjustingNote,
  type Candidate,
  listCandidates,
  sectionKey,
  numbersOf,
  productOf,
  productOptions,
  rank,
  siblingLabelsOf,
  structure,
  tiedSiblings,
  unitOf,
} from "./candidates.js";
import { correctTerm, supposedCase, focusPhrases, focusTerms, ownedFocus, questionTerms, tenantForm, termWeight } from "./evidence-terms.js";
import { kindProducts, labelPicksProduct, namedBy, namedOptions, PRODUCT_ATTRIBUTES, productColumns, productTableClarify, sharedClassOnly, unsoldKinds } from "./products.js";
import { judgeable, parseQuantities } from "../text/quantities.js";
import { analyzeQuestion, asksChange, type QuestionAnalysis } from "./question.js";
import { deniedTerms } from "./negation.js";
import { AMOUNT_ATTRIBUTES, cover, judged, quantityAgreement, READER_RULES, tableScore, unitBags } from "./score.js";
import { type CellReading, readTable, recordRow, renderCell, rowsOfOtherQuantities, type Table, tablesOf } from "./table.js";
import { moreSpecific, resolvedByContext } from "./said.js";
import { alsoAskedColumns } from "./clauses.js";
import { carriedQuantities, carriedTerms, followUpFocus, phraseConcepts, statedTerms, withContextQuantities } from "./context.js";
import { namesAny, ruledOut } from "./excluded.js";
import type { ReaderClaim, ReaderOption, ReadingUnit } from "./types.js";

export type { ReaderClaim, ReaderOption } from "./types.js";
import { conceptsIn, labelTerms, termSet, termsBeside, union, wordSentences } from "./unit-terms.js";

export { READER_RULES } from "./score.js";

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
  /**
   * The customer's earlier messages of the conversation: what they stated there still holds ("I
   * have a 4-cylinder saloon" before "and in my father's name?"), for the table labels it names.
   */
  earlier?: string;
  /** Words of one meaning across both languages: a unit that names the question's concept covers its term. */
  lexicon?: ConceptLexicon;
  /** Diagnostics: receives the ranked candidates (best first) before the decision. */
  trace?: (candidates: ReadonlyArray<{ kind: string; text: string; coverage: number; missing: string[] }>) => void;
}

export type ReaderVerdict =
  | { kind: "answer"; basis: "cell" | "item" | "sentence"; claims: ReaderClaim[]; coverage: number; documentId: string; product: string }
  | { kind: "clarify_products"; options: ReaderOption[]; coverage: number }
  | { kind: "clarify_table"; header: string; options: ReaderOption[]; coverage: number; documentId: string; product: string }
  | { kind: "insufficient"; reason: string; coverage: number };

const INTRODUCES_LIST = /:\s*$/u;
const QUESTION = /[?\u061F][*_"'»)\]\s]*$/u;
// A worked example illustrates a rule; the rule itself is the better answer.
const EXAMPLE = /^(?:for example|for instance|e\.g\.|example:|برای مثال|مثلاً|مثلا|مثال:)/iu;

/**
 * True when the documents name the term's concept in other words ("bunny" where a heading says
 * "Rabbits"): among the words that say what the products are (titles, labels, words a line of
 * business keeps using), not a passing mention («حیوان», an animal on the road, is no pet cover).
 */
function conceptDocumented(term: string, taxonomy: Taxonomy, lexicon: ConceptLexicon | undefined, phrases?: ReadonlyMap<string, string>): boolean {
  // A word with no concept of its own has its phrase's ("trip" of "trip insurance").
  const concept = lexicon?.conceptOfTerm(term) ?? phrases?.get(term);
  return lexicon !== undefined && concept !== undefined && conceptNamedByProducts(concept, taxonomy, lexicon);
}

function conceptNamedByProducts(concept: string, taxonomy: Taxonomy, lexicon: ConceptLexicon): boolean {
  // A phrase's concept ("travel insurance") is named by a title saying the phrase, not by its words apart.
  return (
    conceptsIn(lexicon, taxonomy.productVocabulary).has(concept) ||
    taxonomy.products.some((p) => Object.values(p.titles).some((titles) => titles?.some((title) => lexicon.conceptsOf(title).includes(concept))))
  );
}

/** Title or heading words of a page that defines terms: a glossary. */
const GLOSSARY = termSet("glossary glossaries definitions واژه‌نامه واژه نامه واژگان اصطلاحات تعاریف");

function isGlossary(unit: ReadingUnit, taxonomy: Taxonomy): boolean {
  const { title, context } = unitBags(unit, taxonomy);
  return [...GLOSSARY].some((t) => title.has(t) || context.has(t));
}

export function read(input: ReaderInput): ReaderVerdict {
  const { taxonomy } = input;
  const asked = analyzeQuestion(input.query, input.language);
  // The customer's own words say whether a change is asked ("how much more?") and what is not so
  // ("I don't smoke") when the query left it out.
  const question =
    input.context === undefined
      ? asked
      : {
          ...asked,
          quantities: withContextQuantities(asked.quantities, parseQuantities(input.context)),
          change: asked.change === true || asksChange(input.context),
          denied: new Set([...(asked.denied ?? []), ...deniedTerms(input.context)]),
        };
  const held = carriedQuantities(question, input.context, input.earlier === undefined ? undefined : analyzeQuestion(input.earlier, input.language).asked);
  if (held.length > 0) question.carriedQuantities = held;
  const judgeableQuantities = question.quantities.some(judgeable);
  const raw = questionTerms(input.query, judgeableQuantities);
  // A word the concept lexicon knows ("crash") is a word, not a misspelling of one the documents
  // use ("cash"): its concept carries it.
  const known = (t: string) => input.lexicon?.conceptOfTerm(t) !== undefined && !taxonomy.vocabulary.has(t);
  // "the regular one (not the plus)", «طرح معمولی (نه پلاس)»: a plan or product named only to be
  // ruled out is no word to find, and what names it answers another question.
  const excluded = ruledOut(input.query, taxonomy);
  const terms = [...new Set(raw.map((t) => (known(t) ? t : tenantForm(taxonomy, t))))].filter((t) => !excluded.has(t));
  // A word the documents never use, respelt as one they do ("stuff" → "staff"), may be a guess:
  // it weighs like a common word, as the unknown word itself would.
  const guessed = new Set(raw.filter((t) => !known(t) && !taxonomy.vocabulary.has(t) && correctTerm(taxonomy, t) !== t).map((t) => correctTerm(taxonomy, t)));
  if (terms.length === 0 && question.quantities.length === 0) return { kind: "insufficient", reason: "the question has no content terms", coverage: 0 };
  // The customer's own words this turn, in the tenant's spelling.
  const said = input.context === undefined ? null : new Set(analyze(input.context).map((t) => tenantForm(taxonomy, t)));
  const stated = input.earlier === undefined ? null : statedTerms(terms, input.context, taxonomy);
  const turnFocus = stated === null ? followUpFocus(terms, said, input.lexicon) : null;
  const conditions = new Set(
    supposedCase(input.query)
      .map((t) => (known(t) ? t : tenantForm(taxonomy, t)))
      .filter((t) => terms.includes(t)),
  );
  const aliases = crossScriptAliases(taxonomy, input.query);
  const carried = input.lexicon === undefined ? undefined : carriedTerms(input.query, input.lexicon, taxonomy);
  const inPhrases = input.lexicon === undefined ? undefined : phraseConcepts(input.query, input.lexicon, taxonomy);
  const corrected: QuestionAnalysis = {
    ...question,
    terms,
    guessed,
    ...(aliases.size === 0 ? {} : { aliases }),
    ...(carried === undefined ? {} : { carried }),
    ...(inPhrases === undefined || inPhrases.size === 0 ? {} : { phraseConcepts: inPhrases }),
    ...(input.lexicon === undefined ? {} : { lexicon: input.lexicon }),
    ...(turnFocus === null ? {} : { turnFocus }),
    ...(stated === null ? {} : { stated }),
    ...(conditions.size === 0 ? {} : { conditions }),
  };
  // What the question is about, named by a word the tenant's documents never use: they cannot answer.
  const unknownFocus = [
    ...focusTerms(
      input.query,
      corrected.asked.some((a) => AMOUNT_ATTRIBUTES.includes(a)),
    ),
    ...(input.context === undefined ? [] : ownedFocus(input.context)),
  ]
    .map((t) => tenantForm(taxonomy, t))
    .filter((t) => !taxonomy.vocabulary.has(t) && !conceptDocumented(t, taxonomy, input.lexicon, inPhrases) && stated?.has(t) !== true);
  // «بیمه ساعت هوشمند»: two words the lexicon knows as one thing (a smartwatch, not «ساعت», an
  // hour) are what the question is about; the documents must name that thing.
  const lexicon = input.lexicon;
  if (lexicon !== undefined) {
    for (const phrase of focusPhrases(input.query)) {
      // The phrase's own concept: one neither word names alone.
      const alone = new Set(analyze(phrase).map((t) => lexicon.conceptOfTerm(t)));
      const concept = lexicon.conceptsOf(phrase).find((c) => !alone.has(c));
      if (concept !== undefined && !conceptNamedByProducts(concept, taxonomy, lexicon)) unknownFocus.push(phrase);
    }
  }
  if (unknownFocus.length > 0) {
    return { kind: "insufficient", reason: `the documents never mention ${unknownFocus.slice(0, 3).join(", ")}`, coverage: 0 };
  }
  const unsold = unsoldKinds(input.query, taxonomy, input.lexicon);
  if (unsold.length > 0) return { kind: "insufficient", reason: `no product is ${unsold.slice(0, 3).join(", ")} insurance`, coverage: 0 };

  // A product the question names (its own brand or title words) rules out every other product's
  // documents; general pages still apply.
  const named = namedBy(taxonomy, terms, aliases);
  const namedSet = new Set(named.map((p) => p.product));
  const general = new Set(taxonomy.products.filter((p) => p.general).map((p) => p.product));
  let units = input.units.filter((u) => namedSet.size === 0 || namedSet.has(u.product) || general.has(u.product));
  // Answer from documents in the reply language when the product has any (retrieved or not: a
  // product documented in both languages is not read across them).
  const inLanguage = units.filter((u) => u.lang === input.language);
  const documented = new Set([...inLanguage.map((u) => u.product), ...taxonomy.products.filter((p) => p.languages.includes(input.language)).map((p) => p.product)]);
  units = units.filter((u) => u.lang === input.language || !documented.has(u.product));

  const siblingLabels = siblingLabelsOf(units);

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    if (unit.shape.kind === "row" || seen.has(unit.chunkId)) continue;
    seen.add(unit.chunkId);
    const { context, title, lang } = unitBags(unit, taxonomy);
    if (unit.shape.kind === "item") {
      // The item's own words; its heading and lead-in (rendered into its text) are context.
      const own = termSet(unit.shape.item);
      const agreement = quantityAgreement(unit.text, corrected);
      const others = siblingLabels(unit);
      const mine = labelTerms(unit.shape.item);
      const beside = [...union(context, termsBeside(unit.text, own))].filter((t) => !others.has(t) || mine.has(t));
      const score = cover(
        corrected,
        terms,
        { own, context: new Set(beside), title, lang, product: unit.product, form: unit.shape.item },
        taxonomy,
        agreement.fit,
        agreement.silent,
      );
      candidates.push({ kind: "item", unit, text: unit.text, extra: [], score: judged(score, unit.text, union(own, context), corrected, agreement.conflict) });
      continue;
    }
    const sentences = wordSentences(unit.text);
    sentences.forEach((sentence, i) => {
      // A question ("Visiting family in the UAE?") states nothing: its answer follows it.
      if (QUESTION.test(sentence)) return;
      const extra: ReaderClaim[] = [];
      // A sentence that introduces what follows ("The deductible is:") brings the next one.
      if (INTRODUCES_LIST.test(sentence) && sentences[i + 1] !== undefined) extra.push({ text: sentences[i + 1]!, chunkIds: [unit.chunkId] });
      const full = `${sentence} ${extra.map((e) => e.text).join(" ")}`;
      const own = termSet(full);
      const agreement = quantityAgreement(full, corrected);
      const score = cover(corrected, terms, { own, context, title, lang, product: unit.product, form: full }, taxonomy, agreement.fit, agreement.silent);
      const judgedScore = judged(score, full, union(own, context), corrected, agreement.conflict);
      if (EXAMPLE.test(sentence.trim())) judgedScore.coverage *= 0.9;
      candidates.push({ kind: "sentence", unit, text: sentence, extra, score: judgedScore });
    });
  }
  candidates.push(...listCandidates(candidates, corrected, terms, taxonomy));
  // A table is about what its section's running text says: the paragraph before a benefits table
  // says whom and when it pays ("your passengers, if injured in a collision").
  const sectionText = new Map<string, Set<string>>();
  for (const unit of units) {
    if (unit.shape.kind !== "paragraph") continue;
    const key = sectionKey(unit);
    sectionText.set(key, new Set([...(sectionText.get(key) ?? []), ...termSet(unit.text)]));
  }
  for (const table of tablesOf(units)) {
    const reading = readTable(table, corrected, (t) => termWeight(taxonomy, t));
    const score = tableScore(table, reading, corrected, terms, taxonomy, sectionText.get(sectionKey(table.sample)));
    candidates.push({ kind: "table", table, reading, score });
  }
  if (candidates.length === 0) return { kind: "insufficient", reason: "nothing was retrieved for the question's product", coverage: 0 };
  if (excluded.size > 0) for (const c of candidates) if (namesAny(c, excluded)) c.score.coverage *= READER_RULES.formlessFactor;
  // "Tandorost covers medical emergencies abroad…" on a Hamsafar page is about Tandorost: a passage
  // whose own words name only other products than the one asked about says nothing of it.
  // "car insurance excess": a passage of a product that is no car insurance (a building's
  // "vehicle impact" peril) answers another question.
  const kind = namedSet.size === 0 ? kindProducts(input.query, taxonomy, input.lexicon) : null;
  if (kind !== null) for (const c of candidates) if (!kind.has(productOf(c)) && !general.has(productOf(c))) c.score.coverage *= READER_RULES.otherProductFactor;
  if (namedSet.size > 0) {
    for (const c of candidates) {
      if (c.kind === "table") continue;
      const own = ownProducts(c.text, taxonomy);
      if (own.length > 0 && !own.some((p) => namedSet.has(p.product))) c.score.coverage *= READER_RULES.otherProductFactor;
    }
  }

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
  // A cell under a header naming the asked attribute ("Annual premium") states it outright: a
  // sentence must be clearly better to be preferred to it.
  const main = corrected.asked[0];
  const margin = (c: Candidate) =>
    c.kind === "table" && c.reading.kind === "cell" && main !== undefined && speaksOf(termSet(c.reading.column.header), main)
      ? READER_RULES.headerMargin
      : READER_RULES.structureMargin;
  const near = candidates.filter((c) => c.score.coverage >= top - margin(c));
  // Two items of one list that tie say the question picks neither: either one is an arbitrary
  // part of the answer, no more structured than a sentence stating the rule they share ("offers
  // installment plans for premiums above…" rather than "6 monthly installments: 2%").
  // One of them saying a number the question says ("6 installments") is picked by it.
  const siblings = tiedSiblings(near, numbersOf(input.query));
  // "What is meant by a grace period?": a glossary's entry defines the term; a passage of a
  // product page stating the same rule is not its definition, however structured.
  const defining = corrected.asked.includes("definition") ? near.filter((c) => isGlossary(unitOf(c), taxonomy)) : [];
  const best = (defining.length > 0 ? defining : near).reduce((a, b) => (structure(b, siblings) > structure(a, siblings) ? b : a));
  if (best.score.coverage < READER_RULES.sufficient) {
    return {
      kind: "insufficient",
      reason: `best evidence covers ${Math.round(best.score.coverage * 100)}% of the question (missing: ${best.score.missing.slice(0, 4).join(", ")})`,
      coverage: best.score.coverage,
    };
  }

  // The customer told their case ("it's for my in-laws, visiting"): a passage that speaks of none
  // of it answers someone else's case, however well it answers the earlier question.
  if (stated !== null && (best.score.told ?? 0) === 0) {
    return { kind: "insufficient", reason: `the best evidence says nothing of what the customer told (${[...stated].slice(0, 4).join(", ")})`, coverage: best.score.coverage };
  }

  // Several products answer about equally well and the question names none of them alone: ask which.
  // A question of nothing but its attribute ("how much does it cost?") is answered by every
  // product that states one: each is a contender, however close to the best.
  if (namedSet.size !== 1) {
    const broad = terms.every((t) => attributesNamed(t, corrected.asked).length > 0 || (taxonomy.documentFrequency.get(t) ?? 0) > taxonomy.documents / 2);
    const floor = broad ? READER_RULES.sufficient : Math.max(READER_RULES.sufficient, best.score.coverage - READER_RULES.ambiguityMargin);
    // What the customer told of their case ("I'm renting") leaves out the products not speaking of it.
    const toldOnly = (best.score.told ?? 0) > 0;
    const contenders = candidates.filter((c) => c.score.coverage >= floor && (!toldOnly || (c.score.told ?? 0) > 0));
    const products = [...new Set(contenders.map(productOf))].filter((p) => !general.has(p));
    // A general page answers for every product, unless its passage is about some of them ("Car
    // policies have no grace period: Rahvar and Jadeh…"): then the others' passages contend.
    const speaksFor = general.has(productOf(best)) ? ownProducts(best.kind === "table" ? "" : best.text, taxonomy).map((p) => p.product) : null;
    const answersAll = speaksFor !== null && (speaksFor.length === 0 || products.every((p) => speaksFor.includes(p)));
    if (!answersAll && products.length >= 2) {
      return { kind: "clarify_products", options: productOptions(products, contenders, input.language, taxonomy), coverage: best.score.coverage };
    }
  }

  // A general page's table gives the asked attribute per product, and the question's words do
  // not tell the best answer's product from others there ("a medical claim": two rows are
  // medical products'): which product decides the answer.
  const byProduct = productTableClarify(best, candidates, general, [...terms, ...[...aliases.values()].flat()], input.language, taxonomy);
  if (byProduct !== null) return { kind: "clarify_products", options: byProduct, coverage: best.score.coverage };
  // …or its columns are products, one of them the best answer's: ask among its columns.
  const byColumn = productColumns(best, candidates, general, taxonomy);
  if (byColumn !== null && byColumn.reading.kind === "needs") return tableClarify(byColumn.table, byColumn.reading, best.score.coverage);

  // A word several products share names a class, not a product ("car insurance" of a comprehensive
  // and a third-party product), as does a kind several products' titles are: what it costs or
  // covers depends on which one.
  const byName = namedSet.size >= 2 && sharedClassOnly(taxonomy, terms) ? named : [];
  const shared = byName.length > 0 ? byName : kind !== null && kind.size >= 2 ? taxonomy.products.filter((p) => kind.has(p.product)) : [];
  // So does a need with no attribute asked ("I need health insurance for my parents"): which one.
  const asksOfProduct = corrected.asked.length === 0 || corrected.asked.some((a) => PRODUCT_ATTRIBUTES.has(a));
  if (shared.some((p) => p.product === productOf(best)) && asksOfProduct && !labelPicksProduct(best, candidates, terms)) {
    return { kind: "clarify_products", options: namedOptions(shared, candidates, input.language, taxonomy), coverage: best.score.coverage };
  }

  if (best.kind === "table") {
    const stated = said === null || input.earlier === undefined ? said : new Set([...said, ...analyze(input.earlier).map((t) => tenantForm(taxonomy, t))]);
    const reading = moreSpecific(best.table, resolvedByContext(best.table, best.reading, corrected, stated, taxonomy), stated);
    const record = recordRow(reading);
    if (record !== null) {
      return {
        kind: "answer",
        basis: "cell",
        claims: [{ text: record.unit.text, chunkIds: [record.unit.chunkId] }],
        coverage: best.score.coverage,
        documentId: best.table.documentId,
        product: best.table.sample.product,
      };
    }
    if (reading.kind === "needs") return tableClarify(best.table, reading, best.score.coverage);
    if (reading.kind === "no_match") return { kind: "insufficient", reason: `no ${reading.dimension} of the table matches the question`, coverage: best.score.coverage };
    return {
      kind: "answer",
      basis: "cell",
      claims: [
        {
          text: renderCell(
            reading,
            alsoAskedColumns(reading, input.context ?? input.query, corrected, taxonomy, (t) => termWeight(taxonomy, t)),
          ),
          chunkIds: [reading.row.unit.chunkId],
        },
        ...rowsOfOtherQuantities(reading, corrected).map((other) => ({ text: renderCell(other), chunkIds: [other.row.unit.chunkId] })),
        ...[adjustingNote(best.table, best.score.missing, candidates)].filter((n) => n !== null),
      ],
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

/** Folded text of a unit, for tests and diagnostics. */
export function describeUnit(unit: ReadingUnit): string {
  return foldForMatch(`${unit.chunkId}: ${unit.text}`);
}

/** The products a passage's own words name (in either script), general pages aside. */
const ownProducts = (text: string, taxonomy: Taxonomy) =>
  productsNamed(taxonomy, [...termSet(text), ...[...crossScriptAliases(taxonomy, text).values()].flat()]).filter((p) => !p.general);

/** The clarifying question a table asks when the question picks none of its rows (or columns): its own labels. */
function tableClarify(table: Table, reading: Extract<CellReading, { kind: "needs" }>, coverage: number): ReaderVerdict {
  const sample = table.sample;
  return {
    kind: "clarify_table",
    header: reading.header,
    options: reading.options
      .slice(0, READER_RULES.maxOptions * 2)
      .map((label) => ({ label, documentId: sample.documentId, product: sample.product, domain: sample.domain, title: sample.title })),
    coverage,
    documentId: sample.documentId,
    product: sample.product,
  };
}
