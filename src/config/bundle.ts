import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Language } from "../text/language.js";

/**
 * The config bundle: what the agent says and which phrases trigger which rule is data, edited
 * without touching code. Loaded once at start-up; every problem is reported at once.
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
  "clarify.question_again": ["insurer"],
  "chitchat.greeting": ["insurer"],
  "chitchat.thanks": ["insurer"],
  "chitchat.goodbye": ["insurer"],
  "chitchat.smalltalk": ["insurer"],
  "out_of_scope.reply": ["insurer"],
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
  frustration: PhraseList;
  chitchat: Record<ChitchatKind | "filler", PhraseList>;
  account: PhraseList;
}

export interface Bundle {
  version: string;
  languages: Language[];
  defaultLanguage: Language;
  insurerName: PerLanguage<string>;
  domains: string[];
  copy: Record<CopyKey, PerLanguage<string>>;
  policy: PolicyLists;
}

export class BundleError extends Error {
  override readonly name = "BundleError";
  constructor(readonly problems: string[]) {
    super(`config bundle has ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  }
}

const phrases = z.array(z.string().trim().min(1));
const phraseList = z.object({ fa: phrases, en: phrases }).strict();

const ConfigFileSchema = z
  .object({
    version: z.string().regex(/^\d+\.\d+\.\d+$/u, "must be semver, e.g. 1.0.0"),
    languages: z.array(z.enum(["fa", "en"])).min(1),
    defaultLanguage: z.enum(["fa", "en"]),
    insurerName: z.object({ fa: z.string().min(1), en: z.string().min(1) }).strict(),
    domains: z.array(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/u)).min(1),
  })
  .strict();

const PolicyFileSchema = z
  .object({
    $comment: z.string().optional(),
    handoffRequest: phraseList,
    restrictedIntents: z.object(Object.fromEntries(RESTRICTED_CATEGORIES.map((c) => [c, phraseList])) as Record<RestrictedCategory, typeof phraseList>).strict(),
    frustration: phraseList,
    chitchat: z
      .object(Object.fromEntries([...CHITCHAT_KINDS, "filler"].map((c) => [c, phraseList])) as Record<ChitchatKind | "filler", typeof phraseList>)
      .strict(),
    account: phraseList,
  })
  .strict();

const CopyFileSchema = z.record(z.string(), z.record(z.string(), z.string()));

function readJson(dir: string, file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(path.join(dir, file), "utf8")) as unknown;
  } catch (error) {
    problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function zodProblems(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${file}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
}

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
          problems.push(`copy.json: "${key}" (${language}) uses placeholder {${name}} that the code does not pass (allowed: ${placeholders.map((p) => `{${p}}`).join(", ") || "none"})`);
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

/** Loads and validates the bundle in `dir`; throws BundleError listing every problem. */
export function loadBundle(dir: string): Bundle {
  const problems: string[] = [];
  const configRaw = readJson(dir, "config.json", problems);
  const copyRaw = readJson(dir, "copy.json", problems);
  const policyRaw = readJson(dir, "policy.json", problems);

  const config = configRaw === undefined ? undefined : ConfigFileSchema.safeParse(configRaw);
  if (config && !config.success) problems.push(...zodProblems("config.json", config.error));
  const copy = copyRaw === undefined ? undefined : CopyFileSchema.safeParse(copyRaw);
  if (copy && !copy.success) problems.push(...zodProblems("copy.json", copy.error));
  const policy = policyRaw === undefined ? undefined : PolicyFileSchema.safeParse(policyRaw);
  if (policy && !policy.success) problems.push(...zodProblems("policy.json", policy.error));

  if (config?.success && !config.data.languages.includes(config.data.defaultLanguage)) {
    problems.push(`config.json: defaultLanguage "${config.data.defaultLanguage}" is not one of languages`);
  }
  const languages: Language[] = config?.success ? config.data.languages : ["fa", "en"];
  if (copy?.success) problems.push(...validateCopy(copy.data, languages));

  if (problems.length > 0 || !config?.success || !copy?.success || !policy?.success) {
    throw new BundleError(problems);
  }
  const { $comment: _comment, ...policyLists } = policy.data;
  return {
    ...config.data,
    copy: copy.data as Bundle["copy"],
    policy: policyLists,
  };
}

/** Renders a copy template with the values the code passes. */
export function renderCopy(bundle: Bundle, key: CopyKey, language: Language): string {
  const template = bundle.copy[key][language];
  return template.replace(/\{insurer\}/gu, bundle.insurerName[language]);
}
