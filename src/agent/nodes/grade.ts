import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ClarifyOption } from "../../domain/turn.js";
import { addsToQuestion, namedProducts, read, type ReaderVerdict } from "../../reading/index.js";
import { redactPersonalData } from "../../text/pii.js";
import { evidenceFromHits, readingUnits } from "../evidence.js";
import { askedText } from "../asked.js";
import { leanHandoff, topicHandoff } from "../gates.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue, GradeState } from "../state.js";

/**
 * Judges what retrieval returned: sufficient, ambiguous or insufficient. The deterministic
 * reader (src/reading) decides first, from evidence that means the same in any corpus: how much
 * of the question a unit covers, whether it states the asked attribute, which products the
 * question names (the tenant's taxonomy), whether a table needs a constraint the question lacks.
 * The model (when one is configured) is asked only when the reader found nothing and retrieval
 * still scored above the insufficient score. Budgets are applied here: an insufficient result with no retrieval round left,
 * or an ambiguity after the clarify budget, becomes an escalation.
 *
 * A message the gate classifier read as out of scope gets the out-of-scope reply unless the reader
 * finds its answer in the documents. A reply to a clarifying question that picks none of its
 * options (triage's clarify_reply) and adds nothing the documents answer is not an insufficient
 * retrieval: the pending question is asked again, within the same clarify budget, so the second
 * such reply ends in budget_exhausted. So is one the reader would answer from a product neither
 * offered nor named in the reply.
 */
export function gradeNode(deps: AgentDeps) {
  const asked = askedText(deps);
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const { grading, budgets } = deps.settings;
    const hits = state.hits;
    const best = hits[0]?.score ?? 0;
    const relevant = hits.filter((h) => h.score >= grading.insufficientScore).map((h) => h.chunk.chunkId);
    let update: AgentStateUpdate = {};
    let grade: GradeState;

    const taxonomy = await deps.retriever.taxonomy(state.turn!.tenantId, config.signal);
    const pending = state.pendingClarify;
    // A reply that picks no option and gives retrieval nothing new ("the insurance") leaves the
    // question as ambiguous as it was: it is asked again, within the clarify budget.
    const repeats = state.gate?.kind === "clarify_reply" && pending !== null && pending.options.length > 0 && !addsToQuestion(asked(state.turn!.text), pending.query, taxonomy);
    const reading: ReaderVerdict = repeats
      ? { kind: "insufficient", reason: "the reply to the clarifying question adds nothing", coverage: 0 }
      : hits.length === 0
        ? { kind: "insufficient", reason: "nothing was retrieved", coverage: 0 }
        : // Without the user's personal values: no document states them, so they are never evidence,
          // and the reader's reasons (kept in the handoff's detail) must not list their pieces.
          read({
            query: redactPersonalData(state.rewrittenQuery, { action: () => "drop" }),
            language: state.language,
            units: readingUnits(hits),
            taxonomy,
            ...(deps.lexicon === undefined ? {} : { lexicon: deps.lexicon }),
            // A pick's number ("1") names an option, not a quantity: its words are in the query.
            context: redactPersonalData(state.gate?.kind === "clarify_choice" ? state.rewrittenQuery : asked(state.turn!.text), { action: () => "drop" }),
            ...(state.history.length === 0 ? {} : { earlier: redactPersonalData(asked(state.history.at(-1)!.user), { action: () => "drop" }) }),
          });
    // A reply that picks none of the offered products ("the main one") is not answered from a
    // product that was neither offered nor named in it: its words matched a passage elsewhere, not
    // the customer's choice ("supplementary health", not offered, names its own).
    const general = new Set(taxonomy.products.filter((p) => p.general).map((p) => p.product));
    const offered = new Set(pending?.options.map((o) => o.product) ?? []);
    const answered = reading.kind === "answer" ? reading.product : null;
    // …nor from a general page's passage about some of the products only ("Annual limit – …
    // (Tandorost: AED 150,000 …)"): that picks one for the customer.
    const about =
      reading.kind === "answer" && answered !== null && general.has(answered)
        ? namedProducts(reading.claims.map((c) => c.text).join(" "), taxonomy)
            .map((p) => p.product)
            .filter((p) => !general.has(p))
        : [];
    const replyNames = namedProducts(asked(state.turn!.text), taxonomy).map((p) => p.product);
    const elsewhere =
      state.gate?.kind === "clarify_reply" &&
      offered.size > 1 &&
      answered !== null &&
      ((!offered.has(answered) && !general.has(answered)) || (about.length > 0 && ![...offered].every((p) => about.includes(p)))) &&
      !replyNames.some((p) => p === answered || about.includes(p));
    const verdict: ReaderVerdict = elsewhere ? { kind: "insufficient", reason: "the reply to the clarifying question picks no offered product", coverage: 0 } : reading;

    // Out of scope by the classifier, and the documents do not say otherwise: that is the reply.
    // One shared word ("Tehran" in a weather question) is not an answer: the reading must cover
    // most of the question.
    // The wider margin is for a classifier sure of itself; when it was unsure and the triage model
    // guessed "out of scope", a reading that answers is enough ("what's your WhatsApp number?").
    const required = state.gate?.kind === "classifier" && state.gate.by === "alone" ? grading.outOfScopeCoverage : 0;
    if (state.gate?.kind === "classifier" && state.gate.label === "out_of_scope" && (verdict.kind !== "answer" || verdict.coverage < required)) {
      return {
        grading: { verdict: "insufficient", relevantChunkIds: [], method: "reader", options: [], why: verdict.kind === "insufficient" ? verdict.reason : "out of scope" },
        intent: "out_of_scope",
      };
    }

    switch (verdict.kind) {
      case "answer": {
        const cited = verdict.claims.flatMap((c) => c.chunkIds);
        grade = {
          verdict: "sufficient",
          relevantChunkIds: [...new Set([...cited, ...relevant])],
          method: "reader",
          options: [],
          reading: { basis: verdict.basis, claims: verdict.claims, coverage: verdict.coverage },
        };
        break;
      }
      case "clarify_products":
      case "clarify_table": {
        const options: ClarifyOption[] = verdict.options.map((o) => ({ ...o }));
        grade = {
          verdict: "ambiguous",
          relevantChunkIds: relevant,
          method: "reader",
          options,
          ...(verdict.kind === "clarify_table" ? { dimension: verdict.header } : {}),
        };
        break;
      }
      case "insufficient": {
        grade = { verdict: "insufficient", relevantChunkIds: [], method: "reader", options: [], why: verdict.reason };
        // A model may still find the answer in a paraphrase the reader's words do not reach; the
        // offline provider's grade is the reader itself, so it is not asked.
        if (deps.settings.gradeWithModel && !repeats && !elsewhere && best >= grading.insufficientScore) {
          const call = await callModel(deps, state, "grade", { query: state.rewrittenQuery, language: state.language, chunks: evidenceFromHits(hits, relevant) }, config.signal);
          if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
          update = { ...call.accounting };
          const known = new Set(hits.map((h) => h.chunk.chunkId));
          const ids = call.output.relevantChunkIds.filter((id) => known.has(id));
          // A clarifying question needs options from retrieval; a model's "ambiguous" has none.
          const modelVerdict = call.output.verdict === "ambiguous" ? "insufficient" : call.output.verdict;
          grade = { verdict: modelVerdict, relevantChunkIds: ids.length > 0 ? ids : relevant, method: "model", options: [] };
        }
        break;
      }
    }

    // A reply to a clarifying question that picked none of its options and that the documents do
    // not answer: the question is asked again, and that counts toward the clarify budget.
    if (
      grade.verdict === "insufficient" &&
      (repeats || elsewhere || state.retrievalRounds >= budgets.retrievalRounds) &&
      state.gate?.kind === "clarify_reply" &&
      pending !== null &&
      pending.options.length > 0
    ) {
      grade = { verdict: "ambiguous", relevantChunkIds: [], method: "clarify_reply", options: pending.options };
    }
    if (grade.verdict === "insufficient" && state.retrievalRounds >= budgets.retrievalRounds) {
      const detail = `nothing answers the question after ${state.retrievalRounds} retrieval round(s) (best score ${best.toFixed(2)}; ${grade.why ?? "model grade"})`;
      update.escalation = topicHandoff(state.gate, deps.policy.restrictedTopic(state.turn!.text), `the documents do not answer (${detail})`) ??
        leanHandoff(state.gate, `the documents do not answer (${detail})`) ?? {
          reason: "insufficient_retrieval",
          detail,
        };
    }
    if (grade.verdict === "ambiguous" && state.clarifyStreak >= budgets.clarifyStreak) {
      update.escalation = {
        reason: "budget_exhausted",
        detail: `still ambiguous after ${state.clarifyStreak} consecutive clarifying question(s)`,
        copyKey: "escalation.clarify_not_converging",
      };
    }
    return { ...update, grading: grade };
  };
}
