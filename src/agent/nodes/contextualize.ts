import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { analyze, analyzeWord, words } from "../../text/analysis/index.js";
import { questionOf } from "../../text/sentences.js";
import { askedText } from "../asked.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue, RetrievalFilter } from "../state.js";
import type { ClarifyOption } from "../../domain/turn.js";
import type { Taxonomy } from "../../domain/taxonomy.js";
import { ATTRIBUTE_TERMS } from "../../text/attribute-words.js";
import { questionTerms } from "../../reading/index.js";

/**
 * Rewrites the turn into a standalone retrieval query. The user's text is never modified.
 * No model call when nothing needs rewriting: a first turn, a pick from the previous clarifying
 * question (the pick narrows retrieval to the chosen document), or a reply to it that picks none.
 */
export function contextualizeNode(deps: AgentDeps) {
  const asked = askedText(deps);
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    const text = asked(turn.text);
    const filter: RetrievalFilter = turn.domain !== "" ? { domain: turn.domain } : {};
    if (state.gate?.kind === "clarify_choice" && state.pendingClarify !== null) {
      const { option } = state.gate;
      // The label names what was chosen: a product's title, or a table's row or column ("Premier").
      // Words of the reply beyond the choice are the customer's too ("third party — a pickup, I'm 26").
      const label = new Set(analyze(`${option.label} ${option.title}`));
      const more = analyze(text).some((t) => !label.has(t) && !/^\d+$/u.test(t)) ? text : "";
      return {
        rewrittenQuery: `${state.pendingClarify.query} ${option.label} ${more}`.trim(),
        retrievalFilter: { ...filter, documentIds: pickedDocuments(state.pendingClarify.options, option, await deps.retriever.taxonomy(turn.tenantId, config.signal)) },
      };
    }
    // A reply that picks none of the options and asks nothing of its own ("the main one") answers
    // the clarifying question: the question it answers still stands, with the reply's words.
    if (state.gate?.kind === "clarify_reply" && state.pendingClarify !== null) {
      return { rewrittenQuery: `${state.pendingClarify.query} ${text}`.trim(), retrievalFilter: filter };
    }
    const question = questionOf(text);
    // A first turn's question without its statements; but the product a statement named is still
    // the one asked about ("I'm 40 and thinking about term life. Will I need a medical exam?").
    if (state.history.length === 0 && question === text.trim()) return { rewrittenQuery: question, retrievalFilter: filter };
    const taxonomy = await deps.retriever.taxonomy(turn.tenantId, config.signal);
    const productTerms = [...new Set(taxonomy.products.filter((p) => !p.general).flatMap((p) => p.nameTerms))];
    if (state.history.length === 0) return { rewrittenQuery: withStatedProduct(withReferent(question, text, taxonomy), text, new Set(productTerms)), retrievalFilter: filter };
    const call = await callModel(
      deps,
      state,
      "contextualize",
      {
        text,
        language: state.language,
        history: state.history,
        summary: state.summary,
        profile: state.profile,
        productTerms,
        labelGroups: taxonomy.labelGroups.map((g) => [...g]),
      },
      config.signal,
    );
    if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
    return { ...call.accounting, rewrittenQuery: call.output.query, retrievalFilter: filter };
  };
}

/**
 * Where a pick is answered from. A table's row or column: the table's document. A product, among
 * products: every document of that product (the option names the product by its shortest title,
 * which may be another of its documents than the one retrieval offered), and the offered one.
 */
export function pickedDocuments(options: readonly ClarifyOption[], option: ClarifyOption, taxonomy: Taxonomy): string[] {
  const products = new Set(options.map((o) => o.product));
  if (products.size < 2 || option.product === "") return [option.documentId];
  const entry = taxonomy.products.find((p) => p.product === option.product);
  return [...new Set([option.documentId, ...(entry?.documentIds ?? [])])];
}

/** The question, followed by the product names the message's other sentences used when the question names none. */
export function withStatedProduct(question: string, text: string, productTerms: ReadonlySet<string>): string {
  if (analyze(question).some((t) => productTerms.has(t))) return question;
  return withWordsOf(question, text, (term) => productTerms.has(term));
}

/** The question followed by the words of `text` whose analysed term `keep` accepts, each once. */
function withWordsOf(question: string, text: string, keep: (term: string) => boolean): string {
  const kept = words(text).filter((w) => {
    const term = analyzeWord(w);
    return term !== null && keep(term);
  });
  return kept.length === 0 ? question : `${question} ${[...new Set(kept)].join(" ")}`;
}

// "it", "they", «اونو»: the question points back at what a statement before it named. Not «آن» or
// «اون» alone: they are as often "that" before a noun («سقف آن», «اون شعبه»).
const POINTS_BACK = /(?<![\p{L}])(?:it|its|they|them|their|اونو|آنرا|آن\s+را)(?![\p{L}])/iu;

/**
 * "My e-bike cost me $2,000. If it gets stolen, is the whole amount covered?": a question that
 * points back at its statements asks about what they named. Their words that the product pages
 * name things with (Taxonomy.labelVocabulary: titles, headings, labels) join the query; not words
 * of the customer's case ("I keep it at the marina"), not those that say what is asked ("cost"),
 * nor figures (the reader finds those in the customer's own words).
 */
export function withReferent(question: string, text: string, taxonomy: Taxonomy): string {
  // "…comes with a replacement car. For how many days?": a question of nothing but its asking
  // is about what the statement named, as much as one saying "it".
  const bare = questionTerms(question).every((t) => ATTRIBUTE_TERMS.has(t));
  if (question === text.trim() || !(bare || POINTS_BACK.test(question))) return question;
  const asked = new Set(analyze(question));
  const before = text.slice(0, Math.max(0, text.indexOf(question.slice(0, 20))));
  // The reader's content terms: no words of asking, no frame of a stated figure ("worth", "AED").
  const content = new Set(questionTerms(before, true));
  return withWordsOf(question, before, (term) => content.has(term) && !asked.has(term) && taxonomy.labelVocabulary.has(term) && !ATTRIBUTE_TERMS.has(term));
}
