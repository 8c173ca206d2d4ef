import type { ChitchatKind, PhraseList, RestrictedCategory } from "./bundle.js";
import type { AgentBundle } from "./bundle.js";
import { CHITCHAT_KINDS, RESTRICTED_CATEGORIES } from "./bundle.js";
import { analyze } from "../text/analysis/index.js";
import { foldForMatch } from "../text/normalize.js";
import { compilePhrase, findPhrase, firstMatch, ruleWords, type CompiledPhrase } from "./phrases.js";
import type { ClarifyOption } from "../domain/turn.js";
import type { GateClass } from "../learn/index.js";
import type { Intent } from "../models/roles.js";

/**
 * The deterministic gates: rules that decide a turn before any model is asked (DESIGN §3).
 * Escalation policy is data (the bundle's policy lists), applied here, never by a model.
 */

/**
 * What decided the turn before any model call. The first six are the policy lists and rules of
 * this file (explicit overrides); "frustration" also carries the conversation-level signals
 * (src/agent/conversation.ts); "classifier" is the learned gate (src/agent/gates.ts), with `by`
 * saying whether it acted alone or the triage model settled knowledge against the rest;
 * "clarify_reply" is a reply to a clarifying question that picked none of its options.
 * Checkpoint data: variants and fields are added, never renamed.
 */
export type Gate =
  | { kind: "handoff"; phrase: string }
  | { kind: "restricted"; category: RestrictedCategory; phrase: string }
  | { kind: "frustration"; signal: "phrase" | "repeat" | "shouting" | "again" | "rising"; detail: string }
  | { kind: "account"; phrase: string }
  | { kind: "chitchat"; chitchat: ChitchatKind }
  | { kind: "clarify_choice"; option: ClarifyOption; index: number }
  | {
      kind: "classifier";
      /** The class the turn is routed by, and the classifier's probability of it. */
      label: GateClass;
      probability: number;
      /** "alone": the classifier's best class reached its threshold; "model": it was unsure and the triage model settled knowledge against the rest. */
      by: "alone" | "model";
      /** With "model": the classifier's best class and probability, and the model's intent. */
      lean?: { label: GateClass; probability: number };
      model?: Intent;
      chitchat?: ChitchatKind;
    }
  | { kind: "clarify_reply"; label: GateClass; probability: number };

export interface GateContext {
  text: string;
  /** Options of the clarifying question asked in the previous turn, if any. */
  pendingOptions: ClarifyOption[] | null;
}

export interface Policy {
  evaluate(context: GateContext): Gate | null;
  /** The kind of chitchat a message contains, if any phrase of the chitchat lists occurs in it (the copy to reply with). */
  chitchatKind(text: string): ChitchatKind | null;
  /** The restricted topic a message is about (policy.json restrictedTopics), if any: it names a handoff, never decides one. */
  restrictedTopic(text: string): { category: RestrictedCategory; phrase: string } | null;
}

const compileList = (list: PhraseList): CompiledPhrase[] => [...list.en, ...list.fa].map(compilePhrase);

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, اول: 1, اولی: 1, دوم: 2, دومی: 2, سوم: 3, سومی: 3, چهارم: 4, چهارمی: 4,
};
const CARDINALS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, یک: 1, دو: 2, سه: 3, چهار: 4 };

/** Capitals or "!!!": a sign of anger, weighed with the classifier's reading (triage), not an override. */
export function isShouting(text: string): boolean {
  if (/[!！]{3,}/u.test(text)) return true;
  const letters = text.match(/[A-Za-z]/gu) ?? [];
  const upper = text.match(/[A-Z]/gu) ?? [];
  return letters.length >= 12 && upper.length / letters.length >= 0.8;
}

/** Terms that name no product in particular: matching them does not pick an option. */
const GENERIC_OPTION_TERMS = new Set(analyze("insurance insure policy plan cover coverage بیمه بیمه‌نامه پوشش طرح"));

/** Picks a clarify option by number, ordinal, or words that name exactly one option. */
export function matchClarifyChoice(text: string, options: readonly ClarifyOption[]): { option: ClarifyOption; index: number } | null {
  if (options.length === 0) return null;
  const words = ruleWords(text);
  // A bare number or ordinal ("2", "the second one", «گزینه ۲») selects by position; an ordinal
  // wins over a cardinal ("the second one" is 2).
  const ordinals = words.map((w) => ORDINALS[w]).filter((n): n is number => n !== undefined);
  const cardinals = words.map((w) => (/^\d+$/u.test(w) ? Number(w) : CARDINALS[w])).filter((n): n is number => n !== undefined);
  const numbers = ordinals.length > 0 ? ordinals : cardinals;
  if (numbers.length === 1 && words.length <= 4) {
    const index = numbers[0]! - 1;
    const option = options[index];
    if (option !== undefined) return { option, index };
  }
  const terms = new Set(analyze(text));
  let best: { option: ClarifyOption; index: number; hits: number } | null = null;
  let tie = false;
  options.forEach((option, index) => {
    const optionTerms = new Set(analyze(`${option.label} ${option.title} ${option.product.replace(/-/gu, " ")} ${option.domain}`));
    let hits = 0;
    for (const term of optionTerms) if (!GENERIC_OPTION_TERMS.has(term) && terms.has(term)) hits++;
    if (hits === 0) return;
    if (best === null || hits > best.hits) {
      best = { option, index, hits };
      tie = false;
    } else if (hits === best.hits) tie = true;
  });
  if (best === null || tie) return null;
  const { option, index } = best;
  return { option, index };
}

export function createPolicy(bundle: AgentBundle): Policy {
  const handoff = compileList(bundle.policy.handoffRequest);
  const restricted = RESTRICTED_CATEGORIES.map((category) => ({ category, phrases: compileList(bundle.policy.restrictedIntents[category]) }));
  const topics = RESTRICTED_CATEGORIES.map((category) => ({ category, phrases: compileList(bundle.policy.restrictedTopics[category]) }));
  const frustration = compileList(bundle.policy.frustration);
  const account = compileList(bundle.policy.account);
  const chitchat = CHITCHAT_KINDS.map((kind) => ({ kind, phrases: compileList(bundle.policy.chitchat[kind]) }));
  const filler = new Set(compileList(bundle.policy.chitchat.filler).flatMap((p) => p.tokens.map((t) => (t.kind === "gap" ? "" : t.value))));

  /** Chitchat only when nothing but chitchat phrases and filler remains ("Hi, does travel cover skiing?" is not). */
  function chitchatKind(words: string[]): ChitchatKind | null {
    let remaining = [...words];
    let first: ChitchatKind | null = null;
    for (let changed = true; changed; ) {
      changed = false;
      for (const { kind, phrases } of chitchat) {
        for (const phrase of phrases) {
          const span = findPhrase(phrase, remaining);
          if (span === null) continue;
          first ??= kind;
          remaining = [...remaining.slice(0, span.start), ...remaining.slice(span.end)];
          changed = true;
        }
      }
    }
    if (first === null) return null;
    return remaining.every((w) => filler.has(w) || (w.length <= 1 && !/\d/u.test(w))) ? first : null;
  }

  return {
    restrictedTopic(text) {
      const words = ruleWords(text);
      for (const { category, phrases } of topics) {
        const match = firstMatch(phrases, words);
        if (match) return { category, phrase: match.source };
      }
      return null;
    },
    chitchatKind(text) {
      const words = ruleWords(text);
      return chitchat.find(({ phrases }) => firstMatch(phrases, words) !== null)?.kind ?? null;
    },
    evaluate({ text, pendingOptions }) {
      const words = ruleWords(text);
      const hit = firstMatch(handoff, words);
      if (hit) return { kind: "handoff", phrase: hit.source };
      for (const { category, phrases } of restricted) {
        const match = firstMatch(phrases, words);
        if (match) return { kind: "restricted", category, phrase: match.source };
      }
      const annoyed = firstMatch(frustration, words);
      if (annoyed) return { kind: "frustration", signal: "phrase", detail: `said "${annoyed.source}"` };
      if (pendingOptions !== null) {
        const choice = matchClarifyChoice(text, pendingOptions);
        if (choice) return { kind: "clarify_choice", ...choice };
      }
      const own = firstMatch(account, words);
      if (own) return { kind: "account", phrase: own.source };
      const kind = chitchatKind(words);
      if (kind) return { kind: "chitchat", chitchat: kind };
      return null;
    },
  };
}

/**
 * Retrieved text is data (DESIGN §3). A document sentence that addresses the assistant instead
 * of the customer ("ignore all previous instructions…", "note to the AI assistant…", «دستورهای
 * قبلی را نادیده بگیر») is an injection attempt planted in the corpus: it is withheld from every
 * model, so it can be neither followed nor quoted to a customer. Patterns run on folded text
 * (lower case, Persian letters unified, ZWNJ as a space) and stay narrow: no sentence of the
 * bundled corpus matches them (test/agent/instructions.test.ts checks every one).
 */
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\b[^.]{0,40}\b(?:previous|prior|above|earlier|preceding|all|your|any)\b[^.]{0,20}\b(?:instructions?|rules|directions|prompts?|guidelines)\b/u,
  /\b(?:note|message|instructions?|notice)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:ai|assistants?|chat ?bots?|bots?|models?|language models?|llms?)\b/u,
  /\bsystem\s+(?:override|prompt|instructions?|message)\b/u,
  /^(?:system|assistant|ai)\s*:/u,
  /\b(?:reveal|print|show|repeat|output)\s+(?:your|the)\s+(?:system\s+|hidden\s+)?(?:prompt|instructions)\b/u,
  /\bdeveloper mode\b/u,
  /دستور[^.]{0,40}(?:نادیده بگیر|فراموش کن|کنار بگذار)/u,
  /(?:نادیده بگیر|فراموش کن)[^.]{0,40}دستور/u,
  /(?:پیام|یادداشت|دستور|توجه|اطلاعیه)\s+(?:برای|به)\s+(?:دستیار|ربات|هوش مصنوعی|مدل زبانی)/u,
  /(?:پرامپت|دستورالعمل)\s+(?:سیستم|سیستمی|مخفی)/u,
];

export function readsAsInstruction(sentence: string): boolean {
  const folded = foldForMatch(sentence).trim();
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(folded));
}

const LIST_MARKER = /^(\s*(?:[-*+]|\d+[.)])\s+)/u;

/**
 * The text without its instruction-like sentences. Lines (list items, headings) keep their
 * layout, which extractive answering relies on; a line left empty is dropped.
 */
export function withoutInstructions(text: string): { text: string; removed: string[] } {
  const removed: string[] = [];
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const marker = LIST_MARKER.exec(line)?.[1] ?? "";
    const sentences = line.slice(marker.length).split(/(?<=[.!?\u061F\u06D4])\s+/u);
    const kept = sentences.filter((sentence) => {
      if (!readsAsInstruction(sentence)) return true;
      removed.push(sentence.trim());
      return false;
    });
    if (kept.length === sentences.length) lines.push(line);
    else if (kept.some((s) => s.trim() !== "")) lines.push(`${marker}${kept.join(" ")}`);
  }
  return { text: removed.length === 0 ? text : lines.join("\n"), removed };
}
