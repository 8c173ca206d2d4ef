import { ESCALATION_REASONS, type TurnOutcome } from "../domain/turn.js";
import { GATE_CLASSES } from "../learn/index.js";
import { INTENTS } from "../models/roles.js";
import { foldForMatch } from "../text/index.js";
import { COPY_KEYS, type PolicyLists } from "./bundle.js";

/**
 * The last check on what a turn sends (the answer, a clarifying question, an escalation
 * message): it must carry none of the service's own workings — prompt text, reason codes, policy
 * list entries, bundle internals — and nothing of a sentence retrieval withheld as a planted
 * instruction. Whatever a model was talked into, the text that would carry it never leaves.
 * Deterministic, over folded text (case, Persian letters, digits, ZWNJ unified).
 */

/** Consecutive words shared with a prompt part that make a quotation of it. */
export const PROMPT_SHINGLE_WORDS = 8;
/** Consecutive words shared with a withheld sentence that make a quotation of it. */
export const WITHHELD_SHINGLE_WORDS = 5;
/** Distinct policy-list phrases (of POLICY_PHRASE_MIN_WORDS words or more) that make a listing of the lists. */
export const POLICY_PHRASES_MAX = 3;
export const POLICY_PHRASE_MIN_WORDS = 3;

export type LeakKind = "prompt" | "reason_code" | "policy_list" | "bundle_internals" | "withheld";

export interface Leak {
  kind: LeakKind;
  /** What matched, for the log and the handoff detail: never the customer's words. */
  what: string;
}

export interface OutgoingCheck {
  leaks(text: string, withheld: readonly string[]): Leak[];
}

const wordsOfFolded = (folded: string) =>
  folded
    .split(/[^\p{L}\p{N}@.:_/-]+/u)
    .filter((w) => w !== "")
    .map((w) => w.replace(/[.:]+$/u, ""));

const words = (text: string) => wordsOfFolded(foldForMatch(text));

/** Each run of `n` consecutive words, in order. */
function runsOf(w: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= w.length; i++) out.push(w.slice(i, i + n).join(" "));
  return out;
}

function shingles(text: string, n: number): Set<string> {
  return new Set(runsOf(words(text), n));
}

// Names the service uses inside and nobody writes to a customer.
const CODE_NAMES = [...new Set([...ESCALATION_REASONS, ...GATE_CLASSES, ...INTENTS].filter((c) => /[_:]/u.test(c)))];
const BUNDLE_NAMES = ["config.json", "copy.json", "policy.json", "prompts.json", "models.json", "redaction.json", "model.json", ...Object.keys(COPY_KEYS)];
const INTERNALS = [
  /<\/?(?:user_message|history|chunk|claim|profile|summary)\b/u,
  /\bfrontdesk_[a-z_]+\b/u,
  /\$comment\b/u,
  /\b(?:trainingdatasha256|targetprecision\w*|restrictedintents|restrictedtopics|handoffrequest)\b/u,
];

/** Tokens that single out a planted sentence: addresses, links, codes ("GG-FREEYEAR-2291", "ACCESS GRANTED"). */
export function distinctiveTokens(sentence: string): string[] {
  const out = new Set<string>();
  for (const m of sentence.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?:\/\/|www\.)\S+|\b[\w.-]+\.example\b/gu)) out.add(m[0].replace(/[.,;:)]+$/u, ""));
  for (const m of sentence.matchAll(/\b(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b/gu)) out.add(m[0]);
  for (const m of sentence.matchAll(/\b[A-Z]{4,}(?:\s+[A-Z]{4,})*\b/gu)) out.add(m[0]);
  return [...out].map((t) => foldForMatch(t));
}

export function createOutgoingCheck(options: { prompts: readonly string[]; policy: PolicyLists }): OutgoingCheck {
  // A prompt part's placeholders split it: only its literal runs can be quoted.
  const promptShingles = new Set(options.prompts.flatMap((part) => part.split(/\{[^{}]*\}/u)).flatMap((piece) => [...shingles(piece, PROMPT_SHINGLE_WORDS)]));
  const lists: string[][] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) lists.push(value.filter((v): v is string => typeof v === "string"));
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(options.policy);
  const entries = [...new Set(lists.flat().map((e) => foldForMatch(e)))];
  // Pattern syntax ("talk ... human", "cancel*") only ever appears in the list itself.
  const syntax = entries.filter((e) => e.includes("...") || e.includes("*"));
  const phrases = entries.filter((e) => !syntax.includes(e) && e.split(" ").length >= POLICY_PHRASE_MIN_WORDS);

  // A phrase is in a text when its words are consecutive words of the text (` ${p} ` in the
  // padded words): looked up from each word of the text instead of searching for every phrase.
  const phrasesByFirstWord = new Map<string, string[]>();
  for (const phrase of phrases) {
    const first = phrase.split(" ")[0]!;
    const list = phrasesByFirstWord.get(first);
    if (list === undefined) phrasesByFirstWord.set(first, [phrase]);
    else list.push(phrase);
  }
  const phrasesIn = (w: readonly string[]): string[] => {
    const found = new Set<string>();
    w.forEach((word, i) => {
      for (const phrase of phrasesByFirstWord.get(word) ?? []) {
        const length = phrase.split(" ").length;
        if (i + length <= w.length && w.slice(i, i + length).join(" ") === phrase) found.add(phrase);
      }
    });
    // In the lists' order, as a filter of them would give.
    return phrases.filter((p) => found.has(p));
  };

  return {
    leaks(text, withheld) {
      const folded = foldForMatch(text);
      const w = wordsOfFolded(folded);
      const padded = ` ${w.join(" ")} `;
      const out: Leak[] = [];
      if (runsOf(w, PROMPT_SHINGLE_WORDS).some((run) => promptShingles.has(run))) out.push({ kind: "prompt", what: `${PROMPT_SHINGLE_WORDS} words of a prompt` });
      const code = CODE_NAMES.find((c) => padded.includes(` ${c} `));
      if (code !== undefined) out.push({ kind: "reason_code", what: code });
      const listed = phrasesIn(w);
      const pattern = syntax.find((p) => folded.includes(p));
      if (listed.length >= POLICY_PHRASES_MAX || pattern !== undefined) out.push({ kind: "policy_list", what: pattern ?? `${listed.length} policy-list phrases` });
      const name = BUNDLE_NAMES.find((n) => padded.includes(` ${n} `)) ?? INTERNALS.find((r) => r.test(folded))?.source;
      if (name !== undefined) out.push({ kind: "bundle_internals", what: name });
      const withheldRuns = withheld.length === 0 ? [] : runsOf(w, WITHHELD_SHINGLE_WORDS);
      for (const sentence of withheld) {
        const sentenceRuns = shingles(sentence, WITHHELD_SHINGLE_WORDS);
        const quoted = withheldRuns.some((run) => sentenceRuns.has(run));
        const token = distinctiveTokens(sentence).find((t) => folded.includes(t));
        if (quoted || token !== undefined) {
          out.push({ kind: "withheld", what: token !== undefined ? "a marker of a withheld sentence" : `${WITHHELD_SHINGLE_WORDS} words of a withheld sentence` });
          break;
        }
      }
      return out;
    },
  };
}

/** What a result sends to the customer: the texts the check reads. */
export function outgoingTexts(outcome: TurnOutcome): string[] {
  switch (outcome.kind) {
    case "answer":
      return [outcome.text, ...outcome.claims.map((c) => c.text)];
    case "clarify":
      return [outcome.question, ...outcome.options.map((o) => o.label)];
    case "escalate":
      return [outcome.message];
  }
}
