import type { Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
import { judgeable, parseQuantities, type Quantity } from "../text/quantities.js";
import type { Attribute, QuestionAnalysis } from "./question.js";
import { asksSomething, FOLLOW_UP_TERMS } from "../text/sentences.js";
import { tenantForm } from "./evidence-terms.js";

/**
 * What the conversation adds to the question the reader reads: the words the customer's own
 * message says in a follow-up (its focus), the case a statement told, the quantities stated
 * outside the query, and the terms the concept lexicon carries across languages.
 */

/**
 * The query's terms the customer's message says itself, by word or by concept, when the query
 * (rewritten from the conversation) says more; null when they are all of it or none.
 */
export function followUpFocus(terms: readonly string[], said: ReadonlySet<string> | null, lexicon: ConceptLexicon | undefined): ReadonlySet<string> | null {
  if (said === null) return null;
  const concepts = lexicon === undefined ? new Set<string>() : new Set(lexicon.conceptsOfTerms([...said]));
  const focus = new Set(terms.filter((t) => said.has(t) || (lexicon !== undefined && concepts.has(lexicon.conceptOfTerm(t) ?? "\u0000"))));
  return focus.size === 0 || focus.size === terms.length ? null : focus;
}

/**
 * The query's terms a statement of this turn told ("it's for my aunt who's visiting, we'd buy it
 * after she lands"), when the query carries the conversation's earlier question: a message
 * that asks nothing and says more than a follow-up's word or two. Null otherwise: a short "and for
 * my wife" is the follow-up's focus (followUpFocus), a question asks its own words.
 */
export function statedTerms(terms: readonly string[], context: string | undefined, taxonomy: Taxonomy): ReadonlySet<string> | null {
  if (context === undefined || asksSomething(context)) return null;
  const said = new Set(analyze(context).flatMap((t) => [t, tenantForm(taxonomy, t)]));
  const told = terms.filter((t) => said.has(t));
  return told.length > FOLLOW_UP_TERMS && told.length < terms.length ? new Set(told) : null;
}

/** The query's quantities, then the context's that say something the query does not (by kind and value). */
export function withContextQuantities(own: readonly Quantity[], context: readonly Quantity[]): Quantity[] {
  const key = (q: Quantity) => JSON.stringify(q);
  const seen = new Set(own.map(key));
  return [...own, ...context.filter((q) => !seen.has(key(q)))];
}

/**
 * "is it cheaper if I pay once a year?" after "I'm 35… $500,000 a month?": a follow-up asking of
 * another attribute than the question `before` it carries the conversation's ages and sums, which
 * still pick a row, but a passage stating none of their kind ("paying yearly costs 4% less") is
 * not the worse for them (score.ts quantityAgreement). Those not said in the turn's own words.
 */
export function carriedQuantities(question: QuestionAnalysis, context: string | undefined, before: readonly Attribute[] | undefined): Quantity[] {
  if (before === undefined || context === undefined || question.asked.length === 0 || before.includes(question.asked[0]!)) return [];
  const said = new Set(parseQuantities(context).map((q) => `${q.kind}:${q.value}`));
  return question.quantities.filter((q) => judgeable(q) && !said.has(`${q.kind}:${q.value}`));
}

/** The question's terms that some concept of the lexicon carries, alone or as part of a phrase. */
export function carriedTerms(query: string, lexicon: ConceptLexicon, taxonomy: Taxonomy): Set<string> {
  const all = analyze(query);
  const concepts = lexicon.conceptsOfTerms(all).length;
  const out = new Set<string>();
  all.forEach((term, i) => {
    if (lexicon.conceptOfTerm(term) !== undefined || lexicon.conceptsOfTerms([...all.slice(0, i), ...all.slice(i + 1)]).length < concepts) {
      out.add(term);
      out.add(tenantForm(taxonomy, term));
    }
  });
  return out;
}

/**
 * The concept each query term without one of its own carries as part of a phrase: «صفحه» of
 * «صفحه گوشی» is the screen. A passage naming that concept in other words (or the other
 * language: "screen-only repair") says the term.
 */
export function phraseConcepts(query: string, lexicon: ConceptLexicon, taxonomy: Taxonomy): Map<string, string> {
  const all = analyze(query);
  const concepts = lexicon.conceptsOfTerms(all);
  const out = new Map<string, string>();
  all.forEach((term, i) => {
    if (lexicon.conceptOfTerm(term) !== undefined) return;
    const without = new Set(lexicon.conceptsOfTerms([...all.slice(0, i), ...all.slice(i + 1)]));
    const lost = concepts.filter((c) => !without.has(c));
    // A word of two phrases at once is neither's alone.
    if (lost.length !== 1) return;
    out.set(term, lost[0]!);
    out.set(tenantForm(taxonomy, term), lost[0]!);
  });
  return out;
}
