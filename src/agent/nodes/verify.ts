import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { renderCopy } from "../bundle.js";
import { evidenceFromHits } from "../evidence.js";
import { detectLanguage } from "../../text/language.js";
import { toAsciiDigits } from "../../text/normalize.js";
import { checkGrounding } from "../grounding.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue, VerificationState } from "../state.js";
import type { Citation } from "../../domain/turn.js";
import type { Language } from "../../text/language.js";

const TERMINAL = /[.!?\u061F\u2026:;\u061B]$/u;

/**
 * The answer as one text. Extracted list items ("Up to 7 days: 4,500,000 rials") carry no final
 * punctuation; they are separated with a semicolon so the amounts do not run together.
 */
export function joinClaims(claims: readonly string[], language: Language): string {
  const separator = language === "fa" ? "\u061B " : "; ";
  return claims
    .map((raw, i) => {
      const text = raw.trim();
      if (TERMINAL.test(text)) return i === claims.length - 1 ? text : `${text} `;
      return i === claims.length - 1 ? `${text}.` : `${text}${separator}`;
    })
    .join("");
}

/**
 * Groundedness gate. Deterministic checks first: citations point at chunks retrieved this
 * turn, and every number in a claim is in a chunk it cites. A claim that is a verbatim
 * sentence of its cited chunk needs no further check; any other claim goes to the model's
 * verify role. An ungrounded draft is regenerated once, then escalates (ADR trigger 3).
 */
export function verifyNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const draft = state.draft!;
    const evidence = evidenceFromHits(state.hits, state.grading?.relevantChunkIds ?? []);
    const report = checkGrounding(draft.claims, evidence);
    let update: AgentStateUpdate = {};
    let verification: VerificationState;

    if (report.failures.length > 0) {
      verification = { grounded: false, failures: report.failures, method: "deterministic" };
    } else if (report.verbatim.every(Boolean)) {
      verification = { grounded: true, failures: [], method: "deterministic" };
    } else {
      const toCheck = draft.claims.map((claim, index) => ({ claim, index })).filter(({ index }) => !report.verbatim[index]);
      const byId = new Map(evidence.map((e) => [e.chunkId, e]));
      const call = await callModel(
        deps,
        state,
        "verify",
        {
          language: state.language,
          claims: toCheck.map(({ claim }) => ({ text: claim.text, chunks: claim.chunkIds.map((id) => byId.get(id)!).filter(Boolean) })),
        },
        config.signal,
      );
      if (call.kind !== "ok") return { ...call.accounting, escalation: call.escalation };
      update = { ...call.accounting };
      const verdicts = new Map(call.output.claims.map((c) => [c.index, c]));
      // A claim the model did not rule on is unsupported: silence is not evidence.
      const failures = toCheck.flatMap(({ index }, position) => {
        const verdict = verdicts.get(position);
        return verdict?.supported === true ? [] : [{ claimIndex: index, reason: verdict?.reason ?? "not confirmed by the verifier" }];
      });
      verification = { grounded: failures.length === 0, failures, method: "model" };
    }

    if (!verification.grounded) {
      if (state.regenerations >= deps.settings.budgets.regenerations) {
        update.escalation = {
          reason: "ungrounded",
          detail: `draft failed verification after ${state.regenerations} regeneration(s): ${verification.failures[0]?.reason ?? "unsupported claim"}`,
        };
      }
      return { ...update, verification };
    }

    const byId = new Map(evidence.map((e) => [e.chunkId, e]));
    const citations: Citation[] = [];
    for (const id of draft.claims.flatMap((c) => c.chunkIds)) {
      const chunk = byId.get(id);
      if (chunk !== undefined && !citations.some((c) => c.chunkId === id)) {
        citations.push({ chunkId: id, documentId: chunk.documentId, title: chunk.title });
      }
    }
    return {
      ...update,
      verification,
      outcome: {
        kind: "answer",
        answerKind: "grounded",
        text: answerText(
          draft.claims.map((c) => c.text),
          citations.map((c) => byId.get(c.chunkId)!.lang),
          state.language,
          deps,
        ),
        claims: draft.claims,
        citations,
        confidence: draft.confidence,
      },
    };
  };
}

/**
 * The reply's text. Claims quoted from documents only in the other language (a product documented
 * in Persian only, asked about in English) stand as written — no offline translation is trusted
 * with a policy's terms — under a line in the customer's language saying so (the bundle's copy),
 * with digits in the customer's own digit system. The claims themselves stay verbatim.
 */
function answerText(claims: readonly string[], sources: readonly Language[], language: Language, deps: AgentDeps): string {
  const joined = joinClaims(claims, language);
  // A model that answered in the customer's language (the Gemini path translates) needs no frame.
  if (sources.length === 0 || sources.some((l) => l === language) || detectLanguage(joined).language === language) return joined;
  const figures =
    language === "en"
      ? toAsciiDigits(joined)
          .replace(/\u066C/gu, ",")
          .replace(/\u066B/gu, ".")
      : joined;
  return `${renderCopy(deps.bundle, "answer.other_language", language)}\n${figures}`;
}
