import type { ChitchatKind, PhraseList, RestrictedCategory } from "./bundle.js";
import type { AgentBundle } from "./bundle.js";
import { CHITCHAT_KINDS, RESTRICTED_CATEGORIES } from "./bundle.js";
import { analyze } from "../text/analysis/index.js";
import { ATTRIBUTE_TERMS, PAGE_WORDS } from "../text/attribute-words.js";
import { toldOfOthers } from "../text/habit.js";
import { compilePhrase, findPhrase, firstMatch, ruleWords, type CompiledPhrase } from "./phrases.js";
import type { ClarifyOption } from "../domain/turn.js";
import type { GateClass } from "../learn/index.js";
import type { Intent } from "../models/roles.js";
import { createInstructionDetector, withoutInstructions as withoutDetected, type InstructionDetector } from "../retrieval/index.js";

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
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  اول: 1,
  اولی: 1,
  دوم: 2,
  دومی: 2,
  سوم: 3,
  سومی: 3,
  چهارم: 4,
  چهارمی: 4,
};
const CARDINALS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, یک: 1, دو: 2, سه: 3, چهار: 4 };
/** Words around a number that still only pick it ("option 2", "the second one please", «گزینه دو»). */
const PICK_WORDS = new Set([
  "the",
  "a",
  "number",
  "no",
  "option",
  "choice",
  "one",
  "please",
  "pls",
  "plz",
  "just",
  "ok",
  "okay",
  "i",
  "want",
  "mean",
  "گزینه",
  "شماره",
  "همون",
  "لطفا",
  "لطفاً",
  "اون",
  "مورد",
  "یکی",
]);

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
  const digits = words.filter((w) => /^\d+$/u.test(w)).map(Number);
  // A number word picks only when nothing else describes the choice: "option two", "two please",
  // but "the usual one" and "the main one" are a description, not option 1.
  const spelled = words.filter((w) => CARDINALS[w] !== undefined);
  const described = words.some((w) => CARDINALS[w] === undefined && ORDINALS[w] === undefined && !/^\d+$/u.test(w) && !PICK_WORDS.has(w));
  const cardinals = [...digits, ...(described ? [] : spelled.map((w) => CARDINALS[w]!))];
  const numbers = ordinals.length > 0 ? ordinals : cardinals;
  if (numbers.length === 1 && words.length <= 4) {
    const index = numbers[0]! - 1;
    const option = options[index];
    if (option !== undefined) return { option, index };
  }
  const terms = new Set(analyze(text));
  let best: { option: ClarifyOption; index: number; hits: number } | null = null;
  let tie = false;
  // Options of several products are named by their products, not by what their titles say of
  // the page ("Price Guide": "just give me a price" picks none); a table's own labels ("Monthly",
  // "Adult 18–64") by every word, what is asked included.
  const products = new Set(options.map((o) => o.product)).size === options.length;
  const naming = (term: string) => !GENERIC_OPTION_TERMS.has(term) && !(products && (ATTRIBUTE_TERMS.has(term) || PAGE_WORDS.has(term)));
  options.forEach((option, index) => {
    const optionTerms = new Set(analyze(`${option.label} ${option.title} ${option.product.replace(/-/gu, " ")} ${option.domain}`));
    let hits = 0;
    for (const term of optionTerms) if (naming(term) && terms.has(term)) hits++;
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
      const hit = firstMatch(handoff, words, (all, start) => toldOfOthers(all.slice(0, start)));
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
 * Retrieved text is data (DESIGN §3): the planted-instruction detector lives with retrieval
 * (src/retrieval/instructions.ts), which runs it at ingestion; these are its patterns alone, the
 * detector without the bundle's classifier.
 */
const PATTERNS_ONLY = createInstructionDetector(null);

export function readsAsInstruction(sentence: string): boolean {
  return PATTERNS_ONLY.readsAsInstruction(sentence);
}

export function withoutInstructions(text: string, detector: InstructionDetector = PATTERNS_ONLY): { text: string; removed: string[] } {
  return withoutDetected(text, detector);
}
