import { z } from "zod";
import type { BundleIdentity } from "../config/bundle.js";
import { createClassifier, DETECTOR_CLASSES, GATE_CLASSES, validateArtefact, type Classifier } from "../learn/index.js";
import type { Language } from "../text/language.js";
import { parseRedactionPolicy, type RedactionPolicy } from "./redaction.js";

/**
 * The agent's slice of the config bundle: what it says (copy.json), which phrases trigger
 * which rule (policy.json) and what becomes of personal data in what it stores (redaction.json). The agent declares the keys and categories its code reads, validates
 * the files against them, and renders copy at request time.
 */

/** Copy keys the code reads, each with the placeholders the code passes. */
export const COPY_KEYS = {
  "escalation.user_requested": ["insurer"],
  "escalation.insufficient_retrieval": ["insurer"],
  "escalation.ungrounded": ["insurer"],
  "escalation.low_confidence": ["insurer"],
  "escalation.restricted_intent": ["insurer"],
  "escalation.budget_exhausted": ["insurer"],
  "escalation.clarify_not_converging": ["insurer"],
  "escalation.frustration": ["insurer"],
  "escalation.account_specific": ["insurer"],
  "escalation.dependency_failure": ["insurer"],
  "clarify.question": ["insurer"],
  "clarify.question_table": ["insurer"],
  "clarify.question_again": ["insurer"],
  "chitchat.greeting": ["insurer"],
  "chitchat.thanks": ["insurer"],
  "chitchat.goodbye": ["insurer"],
  "chitchat.smalltalk": ["insurer"],
  "out_of_scope.reply": ["insurer"],
  "answer.other_language": ["insurer"],
} as const satisfies Record<string, readonly string[]>;

export type CopyKey = keyof typeof COPY_KEYS;

export const RESTRICTED_CATEGORIES = ["claim_dispute", "complaint", "cancellation", "payout", "legal"] as const;
export type RestrictedCategory = (typeof RESTRICTED_CATEGORIES)[number];

export const CHITCHAT_KINDS = ["greeting", "thanks", "goodbye", "smalltalk"] as const;
export type ChitchatKind = (typeof CHITCHAT_KINDS)[number];

type PerLanguage<T> = Record<Language, T>;
export type PhraseList = PerLanguage<string[]>;

export interface PolicyLists {
  handoffRequest: PhraseList;
  restrictedIntents: Record<RestrictedCategory, PhraseList>;
  /** Words of a question about a restricted topic: they name the handoff when the documents cannot answer it, never decide a turn. */
  restrictedTopics: Record<RestrictedCategory, PhraseList>;
  frustration: PhraseList;
  chitchat: Record<ChitchatKind | "filler", PhraseList>;
  account: PhraseList;
}

/** What the agent reads of the bundle. */
export interface AgentBundle extends BundleIdentity {
  copy: Record<CopyKey, PerLanguage<string>>;
  policy: PolicyLists;
  redaction: RedactionPolicy;
  /** The intent-gate classifier, loaded from gates/model.json (validated, classes cross-checked). */
  gates: Classifier;
  /** The planted-instruction detector's classifier, loaded from detector/model.json (src/retrieval/instructions.ts). */
  detector: Classifier;
}

export const GATES_FILE = "gates/model.json";
export const DETECTOR_FILE = "detector/model.json";

/** The detector artefact: valid, named "detector", with exactly DETECTOR_CLASSES and a threshold for "instruction". */
export function parseDetector(raw: unknown): { problems: string[]; classifier: Classifier | null } {
  if (raw === undefined) return { problems: [], classifier: null };
  const validation = validateArtefact(raw);
  if (validation.kind === "invalid") return { problems: validation.problems.map((p) => `${DETECTOR_FILE}: ${p}`), classifier: null };
  const problems: string[] = [];
  const { classes, name, thresholds } = validation.artefact;
  if (name !== "detector") problems.push(`${DETECTOR_FILE}: name: expected "detector", got "${name}" (another classifier's artefact?)`);
  if (classes.length !== DETECTOR_CLASSES.length || !DETECTOR_CLASSES.every((c) => classes.includes(c))) {
    problems.push(`${DETECTOR_FILE}: classes: expected ${DETECTOR_CLASSES.join(", ")}, got ${classes.join(", ")}; retrain with npm run train:detector`);
  }
  // Without a threshold the classifier would never flag: the detector would be its patterns alone.
  if (problems.length === 0 && thresholds["instruction"] === null)
    problems.push(`${DETECTOR_FILE}: thresholds.instruction: null (the class never acts alone); retrain with more data`);
  return { problems, classifier: problems.length === 0 ? createClassifier(validation.artefact) : null };
}

/**
 * The gates artefact against the classifier's own validation and against what the code routes:
 * its classes must be exactly GATE_CLASSES, whose restricted:* classes must be exactly the
 * bundle's restricted categories (a category the policy lists know but the model does not, or
 * the reverse, would route nowhere).
 */
export function parseGates(raw: unknown): { problems: string[]; classifier: Classifier | null } {
  const problems: string[] = [];
  const restricted = GATE_CLASSES.filter((c) => c.startsWith("restricted:")).map((c) => c.slice("restricted:".length));
  for (const category of RESTRICTED_CATEGORIES) {
    if (!restricted.includes(category)) problems.push(`${GATES_FILE}: the restricted category "${category}" has no gate class restricted:${category}`);
  }
  for (const category of restricted) {
    if (!(RESTRICTED_CATEGORIES as readonly string[]).includes(category))
      problems.push(`${GATES_FILE}: the gate class restricted:${category} is not a restricted category (${RESTRICTED_CATEGORIES.join(", ")})`);
  }
  if (raw === undefined) return { problems, classifier: null };
  const validation = validateArtefact(raw);
  if (validation.kind === "invalid") return { problems: [...problems, ...validation.problems.map((p) => `${GATES_FILE}: ${p}`)], classifier: null };
  const { classes } = validation.artefact;
  const missing = GATE_CLASSES.filter((c) => !classes.includes(c));
  const extra = classes.filter((c) => !(GATE_CLASSES as readonly string[]).includes(c));
  if (missing.length > 0) problems.push(`${GATES_FILE}: classes: missing ${missing.join(", ")} (the gates need ${GATE_CLASSES.join(", ")}); retrain with npm run train:gates`);
  if (extra.length > 0) problems.push(`${GATES_FILE}: classes: ${extra.join(", ")} not routed by the agent (gate classes: ${GATE_CLASSES.join(", ")})`);
  if (validation.artefact.name !== "gates") problems.push(`${GATES_FILE}: name: expected "gates", got "${validation.artefact.name}" (another classifier's artefact?)`);
  return { problems, classifier: problems.length === 0 ? createClassifier(validation.artefact) : null };
}

const phrases = z.array(z.string().trim().min(1));
const phraseList = z.object({ fa: phrases, en: phrases }).strict();

const PolicyFileSchema = z
  .object({
    $comment: z.string().optional(),
    handoffRequest: phraseList,
    restrictedIntents: z.object(Object.fromEntries(RESTRICTED_CATEGORIES.map((c) => [c, phraseList])) as Record<RestrictedCategory, typeof phraseList>).strict(),
    restrictedTopics: z.object(Object.fromEntries(RESTRICTED_CATEGORIES.map((c) => [c, phraseList])) as Record<RestrictedCategory, typeof phraseList>).strict(),
    frustration: phraseList,
    chitchat: z.object(Object.fromEntries([...CHITCHAT_KINDS, "filler"].map((c) => [c, phraseList])) as Record<ChitchatKind | "filler", typeof phraseList>).strict(),
    account: phraseList,
  })
  .strict();

const CopyFileSchema = z.record(z.string(), z.record(z.string(), z.string()));

/** Checks copy against the keys and placeholders the code declares, for every language. */
export function validateCopy(copy: Record<string, Record<string, string>>, languages: readonly Language[]): string[] {
  const problems: string[] = [];
  for (const [key, placeholders] of Object.entries(COPY_KEYS)) {
    const entry = copy[key];
    if (entry === undefined) {
      problems.push(`copy.json: missing key "${key}"`);
      continue;
    }
    for (const language of languages) {
      const text = entry[language];
      if (text === undefined || text.trim() === "") {
        problems.push(`copy.json: "${key}" has no text for language "${language}"`);
        continue;
      }
      for (const match of text.matchAll(/\{([^{}]*)\}/gu)) {
        const name = match[1] ?? "";
        if (!(placeholders as readonly string[]).includes(name)) {
          problems.push(
            `copy.json: "${key}" (${language}) uses placeholder {${name}} that the code does not pass (allowed: ${placeholders.map((p) => `{${p}}`).join(", ") || "none"})`,
          );
        }
      }
    }
    for (const language of Object.keys(entry)) {
      if (!(languages as readonly string[]).includes(language)) problems.push(`copy.json: "${key}" has text for undeclared language "${language}"`);
    }
  }
  for (const key of Object.keys(copy)) {
    if (!(key in COPY_KEYS)) problems.push(`copy.json: unknown key "${key}"`);
  }
  return problems;
}

/** Validates copy.json, policy.json, redaction.json, gates/model.json and detector/model.json (raw JSON, undefined when unreadable); problems are prefixed by file. */
export function parseAgentBundle(
  raw: { copy: unknown; policy: unknown; redaction: unknown; gates: unknown; detector: unknown },
  languages: readonly Language[],
  zodProblems: (file: string, error: z.ZodError) => string[],
): { problems: string[]; parseProblems: string[]; slice: Pick<AgentBundle, "copy" | "policy" | "redaction" | "gates" | "detector"> | null } {
  const parseProblems: string[] = [];
  const copy = raw.copy === undefined ? undefined : CopyFileSchema.safeParse(raw.copy);
  if (copy && !copy.success) parseProblems.push(...zodProblems("copy.json", copy.error));
  const policy = raw.policy === undefined ? undefined : PolicyFileSchema.safeParse(raw.policy);
  if (policy && !policy.success) parseProblems.push(...zodProblems("policy.json", policy.error));
  const redaction = parseRedactionPolicy(raw.redaction);
  parseProblems.push(...redaction.problems);
  const gates = parseGates(raw.gates);
  parseProblems.push(...gates.problems);
  const detector = parseDetector(raw.detector);
  parseProblems.push(...detector.problems);
  const problems = copy?.success ? validateCopy(copy.data, languages) : [];
  if (!copy?.success || !policy?.success || redaction.policy === null || gates.classifier === null || detector.classifier === null) return { problems, parseProblems, slice: null };
  const { $comment: _comment, ...policyLists } = policy.data;
  return {
    problems,
    parseProblems,
    slice: { copy: copy.data as AgentBundle["copy"], policy: policyLists, redaction: redaction.policy, gates: gates.classifier, detector: detector.classifier },
  };
}

/** Renders a copy template with the values the code passes. */
export function renderCopy(bundle: Pick<AgentBundle, "copy" | "insurerName">, key: CopyKey, language: Language): string {
  const template = bundle.copy[key][language];
  return template.replace(/\{insurer\}/gu, bundle.insurerName[language]);
}
