import type { ProductEntry, Taxonomy } from "../domain/taxonomy.js";
import { productsNamed } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import type { Language } from "../text/language.js";
import { adjustsAmount, formFits, isAttributeWord, speaksOf } from "./attributes.js";
import { PAGE_WORDS } from "../text/attribute-words.js";
import { analyzeQuestion, type Attribute, type QuestionAnalysis } from "./question.js";
import { AMOUNT_ATTRIBUTES, cover, FIGURE_ATTRIBUTES, judged, READER_RULES, type Scored, unitBags } from "./score.js";
import type { CellReading, Table } from "./table.js";
import type { ReaderClaim, ReaderOption, ReadingUnit } from "./types.js";
import { labelTerms, termSet, union } from "./unit-terms.js";

/** What the reader weighs against each other: sentences, list items (alone or as a whole list), table readings; and the products a question names. */

export type TextCandidate = { kind: "sentence" | "item"; unit: ReadingUnit; text: string; extra: ReaderClaim[]; score: Scored };

export type Candidate = TextCandidate | { kind: "table"; table: Table; reading: CellReading; score: Scored };

export function productOf(c: Candidate): string {
  return c.kind === "table" ? c.table.sample.product : c.unit.product;
}

export function unitOf(c: Candidate): ReadingUnit {
  return c.kind === "table" ? c.table.sample : c.unit;
}

/**
 * The products a question is about: those it names by a word only they have ("rahvar"), or else
 * by a word their names share ("car" names both car products, "travel" one), but never by a word
 * most products' names have ("insurance"). Empty when it names none.
 */
export function productsMentioned(taxonomy: Taxonomy, terms: readonly string[]): ProductEntry[] {
  const products = taxonomy.products.filter((p) => !p.general);
  const distinct = productsNamed(taxonomy, terms).filter((p) => !p.general);
  if (distinct.length > 0) return distinct;
  const names = new Map(products.map((p) => [p.product, termSet(`${p.product.replace(/-/gu, " ")} ${Object.values(p.titles).flat().join(" ")}`)]));
  let found: ProductEntry[] = [];
  for (const term of terms) {
    // "cover" in "Hamsafar Travel Cover" says what is asked about a product, not which one; "plan"
    // in "… – Plans and Benefits" says what kind of page it is.
    if (isAttributeWord(term) || PAGE_WORDS.has(term)) continue;
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
// "10% of the repair cost", «۱۰ درصد از هزینه تعمیر»: what a percentage is taken of is its base,
// not a figure the item states ("25% discount" still states a discount).
const PERCENT_OF = /(?:%|\bpercent|درصد)\s+(?:of|از)\s+(?:the\s+|your\s+|its\s+)?(?:[\p{L}\u200C'-]+\s+){0,2}[\p{L}\u200C'-]+/giu;

/** The list a unit is an item of (its document, section and lead-in, if it has one), or null. */
function listOf(unit: ReadingUnit): string | null {
  return unit.shape.kind === "item" ? `${unit.documentId}\u0000${unit.sectionPath.join(">")}\u0000${unit.shape.leadIn ?? ""}` : null;
}

export function listCandidates(candidates: readonly Candidate[], question: QuestionAnalysis, terms: readonly string[], taxonomy: Taxonomy): Candidate[] {
  const main = question.asked.find((a) => FIGURE_ATTRIBUTES.has(a));
  const groups = new Map<string, TextCandidate[]>();
  for (const c of candidates) {
    const key = c.kind === "item" ? listOf(c.unit) : null;
    if (key === null || c.kind !== "item") continue;
    const group = groups.get(key) ?? [];
    group.push(c);
    groups.set(key, group);
  }
  if (main === undefined) return question.asked.some((a) => LIST_ATTRIBUTES.has(a)) ? [...groups.values()].flatMap((g) => wholeList(g, question, terms, taxonomy)) : [];
  const out: Candidate[] = [];
  for (const group of groups.values()) {
    if (group.length > READER_RULES.maxListItems) continue;
    // The items that state the figure must tie; an item that states none ("Friday: closed") is
    // still part of the list's answer.
    // An item whose own words name another figure ("25% discount") states that one, not the asked one.
    const states = (item: string) => {
      const own = termSet(item.replace(PERCENT_OF, "%"));
      const other = AMOUNT_ATTRIBUTES.some((a) => !question.asked.includes(a) && speaksOf(own, a));
      return formFits(item, [main]) && (!other || speaksOf(own, main));
    };
    const stating = group.filter((c) => c.unit.shape.kind === "item" && states(c.unit.shape.item));
    if (stating.length < 2) continue;
    const coverages = stating.map((c) => c.score.coverage);
    if (Math.max(...coverages) - Math.min(...coverages) > READER_RULES.structureMargin) continue;
    out.push(asList(group, question, terms, taxonomy));
  }
  return out;
}

/** …of which those a heading may ask of every product alike: the steps or channels, the documents. */
const PROCEDURES: ReadonlySet<Attribute> = new Set<Attribute>(["documents", "how"]);

/** Attributes a list states whole: the documents to bring, the steps to take, what is (not) covered. */
const LIST_ATTRIBUTES: ReadonlySet<Attribute> = new Set<Attribute>(["documents", "how", "covered", "excluded"]);

/**
 * "What documents do I need for a claim?": a question asking for what a list states, in no words
 * but those its heading and lead-in say ("Documents needed for every claim"), asks for the list —
 * not the item that happens to repeat a word of the heading. A word only some items say ("do I
 * need a police report?") picks those, and no list is offered.
 */
function wholeList(group: readonly TextCandidate[], question: QuestionAnalysis, terms: readonly string[], taxonomy: Taxonomy): Candidate[] {
  if (group.length < 2 || group.length > READER_RULES.maxListItems) return [];
  const first = group[0]!;
  const leadIn = first.unit.shape.kind === "item" ? (first.unit.shape.leadIn ?? "") : "";
  const { context, title } = unitBags(first.unit, taxonomy);
  const shared = union(union(context, title), termSet(leadIn));
  if (!terms.every((t) => shared.has(t) || isAttributeWord(t))) return [];
  // What is not covered is answered by a list of exclusions ("What is not covered"), what is
  // covered by one that is not: the heading says which.
  const heading = analyzeQuestion([...first.unit.sectionPath, leadIn].join(" "), first.unit.lang).asked;
  if (heading.includes("excluded") !== question.asked.includes("excluded")) return [];
  // A heading that asks what the question asks ("Where to file a claim") makes the list the
  // answer as much as its items' words: its words are the list's own.
  return [asList(group, question, terms, taxonomy, heading.some((a) => PROCEDURES.has(a) && question.asked.includes(a)) ? shared : undefined)];
}

/** The list of `group`'s items as one candidate: its lead-in and every item, each cited. */
function asList(group: readonly TextCandidate[], question: QuestionAnalysis, terms: readonly string[], taxonomy: Taxonomy, heading?: ReadonlySet<string>): Candidate {
  const ordered = [...group].sort((a, b) => (a.unit.position ?? 0) - (b.unit.position ?? 0));
  const first = ordered[0]!;
  const leadIn = first.unit.shape.kind === "item" ? (first.unit.shape.leadIn ?? "") : "";
  const items = termSet([leadIn, ...ordered.map((c) => (c.unit.shape.kind === "item" ? c.unit.shape.item : ""))].join(" "));
  const own = heading === undefined ? items : union(items, heading);
  const { context, title, lang } = unitBags(first.unit, taxonomy);
  const score = cover(question, terms, { own, context, title, lang, form: ordered.map((c) => c.unit.text).join(" ") }, taxonomy, 0);
  return {
    kind: "item",
    unit: first.unit,
    text: first.text,
    // The first item with its heading and lead-in, then the others' own words.
    extra: ordered.slice(1).map((c) => ({ text: c.unit.shape.kind === "item" ? c.unit.shape.item : c.text, chunkIds: [c.unit.chunkId] })),
    score: judged(score, leadIn + " " + ordered.map((c) => c.text).join(" "), union(own, context), question, 0),
  };
}

/**
 * Cells beat items beat sentences on a tie: the more structured answer states less around the fact.
 * A table whose row the question picked and that needs only its column (the plan) is as good as an
 * item: its cells are the answer, once the customer says which.
 */
export function rank(c: Candidate): number {
  if (c.kind === "table") return c.reading.kind === "cell" ? 3 : c.reading.kind === "needs" && c.reading.row !== undefined ? 2 : 1;
  return c.kind === "item" ? 2 : 1;
}

export function productOptions(products: readonly string[], contenders: readonly Candidate[], language: Language, taxonomy: Taxonomy): ReaderOption[] {
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

/** A single list item's list, when it stands among the best (not the whole-list answer, which has extras). */
const listKey = (c: Candidate): string | null => (c.kind === "item" && c.extra.length === 0 ? listOf(c.unit) : null);

/** The numbers a text says, as the analyzer writes them (either digit system). */
export const numbersOf = (text: string): ReadonlySet<string> => new Set(analyze(text).filter((t) => /^\d/u.test(t)));

/**
 * The lists two or more of whose items are among the best beside a sentence of their document,
 * each with the one item a number of the question picks (null when none or several say one).
 */
export function tiedSiblings(near: readonly Candidate[], numbers: ReadonlySet<string>): ReadonlyMap<string, Candidate | null> {
  const groups = new Map<string, Candidate[]>();
  for (const c of near) {
    const key = listKey(c);
    if (key !== null) groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out = new Map<string, Candidate | null>();
  for (const [key, items] of groups) {
    // Only a sentence of their own document states the rule they share; another list's item does not.
    if (items.length < 2 || !near.some((c) => c.kind === "sentence" && c.unit.documentId === unitOf(items[0]!).documentId)) continue;
    const picked =
      numbers.size === 0 ? [] : items.filter((c) => [...numbersOf(c.kind === "item" && c.unit.shape.kind === "item" ? c.unit.shape.item : "")].some((n) => numbers.has(n)));
    out.set(key, picked.length === 1 ? picked[0]! : null);
  }
  return out;
}

export const structure = (c: Candidate, siblings: ReadonlyMap<string, Candidate | null>): number => {
  // The whole list, built only when its items tie, answers better than any one of them on a tie.
  if (c.kind === "item" && c.extra.length > 0) return rank(c) + 0.25;
  const key = listKey(c);
  if (key === null || !siblings.has(key)) return rank(c);
  return siblings.get(key) === c ? rank(c) : 0.5;
};

/** A unit's document and heading path: units under one heading of one document share it. */
export const sectionKey = (unit: ReadingUnit) => `${unit.documentId}\u0000${unit.sectionPath.join("\u0000")}`;

/**
 * A heading that names its items' topics ("Outpatient, dental, maternity and glasses") speaks of
 * each item's own topic only: per item, the label words of the other items of its section (a word
 * one of them has as its label is that item's, not context for the rest).
 */
export function siblingLabelsOf(units: readonly ReadingUnit[]): (unit: ReadingUnit) => ReadonlySet<string> {
  const labels = new Map<string, Map<string, ReadonlySet<string>>>();
  for (const u of units) {
    if (u.shape.kind !== "item") continue;
    const key = sectionKey(u);
    (labels.get(key) ?? labels.set(key, new Map()).get(key)!).set(u.chunkId, labelTerms(u.shape.item));
  }
  return (unit) => new Set([...(labels.get(sectionKey(unit)) ?? [])].flatMap(([id, ts]) => (id === unit.chunkId ? [] : [...ts])));
}

/**
 * The note beside a table that adjusts the cell for the customer's case ("Motorcycles used for
 * food or parcel delivery: +25% on the price above"): in the table's section, stating an
 * adjustment, and speaking of words of the question the cell leaves out ("food", "delivery").
 * The one covering most of those; none when no note speaks of them.
 */
export function adjustingNote(table: Table, missing: readonly string[], candidates: readonly Candidate[]): ReaderClaim | null {
  const section = sectionKey(table.sample);
  let best: { claim: ReaderClaim; covered: number } | null = null;
  for (const c of candidates) {
    if (c.kind === "table" || sectionKey(c.unit) !== section || !adjustsAmount(c.text)) continue;
    const covered = missing.filter((t) => !c.score.missing.includes(t)).length;
    if (covered > 0 && (best === null || covered > best.covered)) {
      best = { claim: { text: c.unit.shape.kind === "item" ? c.unit.shape.item : c.text, chunkIds: [c.unit.chunkId] }, covered };
    }
  }
  return best?.claim ?? null;
}
