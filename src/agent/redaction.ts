import { findPersonalData, PERSONAL_DATA_KINDS, redactPersonalData, type PersonalDataKind, type RedactAction } from "../text/pii.js";

/**
 * The redaction policy (bundle/redaction.json): for every place where user text is stored or
 * sent, what becomes of the personal values in it (src/text/pii.ts) — kept, masked or dropped,
 * for all kinds at once or kind by kind. Applied where the text is first written into the graph
 * state (record_turn, escalate), so a checkpoint never holds more than the policy allows, and
 * again on derived texts when their field is stricter than the one they come from.
 *
 * Not configurable, and so not fields: logs, traces and metric labels never carry personal data
 * (src/domain/logger.ts redactForLog), nor does long-term memory (src/agent/memory-filter.ts).
 */

export const REDACTION_FIELDS = [
  /** The thread's recent turns in the checkpoint: user text, reply, rewritten query; also this turn's working fields (the message, the query). */
  "history",
  /** The running summary of older turns. */
  "summary",
  /** Stored results (request_id replay; also what the caller and watchers receive): answers, questions, messages. */
  "replay",
  /** HandoffContext.conversation_summary: what the human agent reads first. */
  "handoff.conversation_summary",
  /** HandoffContext.last_user_message (and rewritten_query, the same words restated). */
  "handoff.last_user_message",
  /** GetThread: the recent turns' user text and the summary. */
  "get_thread",
] as const;
export type RedactionField = (typeof REDACTION_FIELDS)[number];

export type KindActions = Readonly<Record<PersonalDataKind, RedactAction>>;
export type RedactionPolicy = Readonly<Record<RedactionField, KindActions>>;

const ACTIONS: readonly RedactAction[] = ["keep", "mask", "drop"];
const allKinds = (action: RedactAction): KindActions => Object.fromEntries(PERSONAL_DATA_KINDS.map((kind) => [kind, action])) as Record<PersonalDataKind, RedactAction>;

/** The defaults (and the shipped bundle/redaction.json): masked everywhere, last_user_message included. */
export const DEFAULT_REDACTION: RedactionPolicy = Object.fromEntries(REDACTION_FIELDS.map((field) => [field, allKinds("mask")])) as Record<RedactionField, KindActions>;

/** Fields people may look for that are fixed on purpose, with the reason given in the problem. */
const FIXED: Record<string, string> = {
  logs: "personal data never reaches logs, traces or metric labels",
  traces: "personal data never reaches logs, traces or metric labels",
  metrics: "personal data never reaches logs, traces or metric labels",
  memory: "long-term memory never keeps personal data",
};

const describeAction = `"keep", "mask" or "drop", or an object of kinds ({"default", ${PERSONAL_DATA_KINDS.map((k) => `"${k}"`).join(", ")}})`;

function parseKindActions(field: string, value: unknown, problems: string[]): KindActions | null {
  if (typeof value === "string") {
    if ((ACTIONS as readonly string[]).includes(value)) return allKinds(value as RedactAction);
    problems.push(`redaction.json: fields."${field}": "${value}" is not an action (must be ${describeAction})`);
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`redaction.json: fields."${field}": must be ${describeAction}`);
    return null;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  let ok = true;
  for (const [kind, action] of entries) {
    if (kind !== "default" && !(PERSONAL_DATA_KINDS as readonly string[]).includes(kind)) {
      problems.push(`redaction.json: fields."${field}": unknown kind "${kind}" (kinds: default, ${PERSONAL_DATA_KINDS.join(", ")})`);
      ok = false;
    } else if (typeof action !== "string" || !(ACTIONS as readonly string[]).includes(action)) {
      problems.push(`redaction.json: fields."${field}".${kind}: must be "keep", "mask" or "drop"`);
      ok = false;
    }
  }
  if (!ok) return null;
  const actions = value as Partial<Record<PersonalDataKind | "default", RedactAction>>;
  const fallback = actions.default ?? "mask";
  return Object.fromEntries(PERSONAL_DATA_KINDS.map((kind) => [kind, actions[kind] ?? fallback])) as Record<PersonalDataKind, RedactAction>;
}

/** Validates redaction.json (raw JSON, undefined when unreadable); every problem is listed, prefixed by the file. */
export function parseRedactionPolicy(raw: unknown): { problems: string[]; policy: RedactionPolicy | null } {
  if (raw === undefined) return { problems: [], policy: null };
  const problems: string[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { problems: ['redaction.json: (root): must be an object with "fields"'], policy: null };
  const { $comment, fields, ...rest } = raw as Record<string, unknown>;
  if ($comment !== undefined && typeof $comment !== "string") problems.push("redaction.json: $comment: must be a string");
  for (const key of Object.keys(rest)) problems.push(`redaction.json: unknown key "${key}" (keys: $comment, fields)`);
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    problems.push("redaction.json: fields: must be an object with one entry per field");
    return { problems, policy: null };
  }
  const parsed: Partial<Record<RedactionField, KindActions>> = {};
  for (const [field, value] of Object.entries(fields as Record<string, unknown>)) {
    const fixed = FIXED[field];
    if (fixed !== undefined) problems.push(`redaction.json: fields."${field}": not configurable: ${fixed}`);
    else if (!(REDACTION_FIELDS as readonly string[]).includes(field)) problems.push(`redaction.json: unknown field "${field}" (fields: ${REDACTION_FIELDS.join(", ")})`);
    else {
      const actions = parseKindActions(field, value, problems);
      if (actions !== null) parsed[field as RedactionField] = actions;
    }
  }
  for (const field of REDACTION_FIELDS) {
    if (!(field in (fields as object))) problems.push(`redaction.json: missing field "${field}" ("keep", "mask" or "drop"; the default is "mask")`);
  }
  return problems.length > 0 ? { problems, policy: null } : { problems, policy: parsed as RedactionPolicy };
}

const STRICTNESS: Record<RedactAction, number> = { keep: 0, mask: 1, drop: 2 };

/**
 * Applies the policy to one text. Two kinds of text, two rules:
 *  - the user's words (`user`): every value found is treated as the field says;
 *  - the agent's words (`agent`: answers, questions, messages): only the values the user gave in
 *    this thread are treated, so the insurer's own numbers and addresses, quoted from its
 *    documents, stay readable in stored answers, while an answer echoing the user's card does not.
 */
export interface Redactor {
  user(field: RedactionField, text: string): string;
  /**
   * A query kept for the next turns (a follow-up's context, a clarify pick's retrieval): the
   * user's words, where a value the field masks is dropped instead, so that mask words ("card",
   * "mobile") never become search terms. Kept values stay.
   */
  query(field: RedactionField, text: string): string;
  agent(field: RedactionField, text: string): string;
  /**
   * A text already treated under `source`, now written to `target`: values are treated only for
   * the kinds `target` is stricter about. Masked text has nothing left to find, so this changes
   * only what `source` kept.
   */
  tighten(source: RedactionField, target: RedactionField, text: string): string;
}

/**
 * A redactor for one turn. `userTexts` are the user's own words as they stand in the state (this
 * message, and stored turns, which hold values only where the policy kept them): the values in
 * them are what an agent text must not repeat.
 */
export function createRedactor(policy: RedactionPolicy, userTexts: readonly string[] = []): Redactor {
  const userValues = new Set(userTexts.flatMap((text) => findPersonalData(text).map((m) => m.canonical)));
  return {
    user: (field, text) => redactPersonalData(text, { action: (kind) => policy[field][kind] }),
    query: (field, text) => redactPersonalData(text, { action: (kind) => (policy[field][kind] === "keep" ? "keep" : "drop") }),
    agent: (field, text) => (userValues.size === 0 ? text : redactPersonalData(text, { action: (kind) => policy[field][kind], keep: (m) => !userValues.has(m.canonical) })),
    tighten: (source, target, text) =>
      redactPersonalData(text, { action: (kind) => (STRICTNESS[policy[target][kind]] > STRICTNESS[policy[source][kind]] ? policy[target][kind] : "keep") }),
  };
}
