import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Language } from "../text/language.js";
import { KNOWN_GEMINI_MODELS, isKnownGeminiModel } from "./gemini-models.js";

/**
 * The config bundle: what the agent says, which phrases trigger which rule, what each model
 * role is told and which model runs it are data, edited without touching code. A directory of
 * JSON files (config.json plus one file per area); loaded once at start-up; every problem is
 * reported at once.
 */

/** The files of a bundle; any other .json file in the directory is reported (a misspelt name). */
export const BUNDLE_FILES = ["config.json", "copy.json", "policy.json", "prompts.json", "models.json"] as const;

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

/**
 * The model roles, as the bundle names them (the same names as src/models/roles.ts's ROLES;
 * test/config/bundle.test.ts keeps the two lists equal).
 */
export const MODEL_ROLES = ["triage", "contextualize", "grade", "clarify", "generate", "verify", "extract_memory"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

interface PromptPartSpec {
  /** Placeholders the code passes to this part (besides PROMPT_COMMON_PLACEHOLDERS). */
  placeholders: readonly string[];
  /** Placeholders the part must use: without them the model would not see its input. */
  required: readonly string[];
}

/** Placeholders every prompt part may use: the insurer's name and the reply language's name. */
export const PROMPT_COMMON_PLACEHOLDERS = ["insurer", "language"] as const;

const SYSTEM_PART: PromptPartSpec = { placeholders: [], required: [] };

/**
 * The prompt parts of each role and the placeholders the Gemini provider fills in. Retrieved
 * chunks ({chunks}, {claims}) and the user's words ({text}, {history}) are inserted as delimited
 * blocks by the code, never by the template, so that their text cannot pose as instructions.
 */
export const PROMPT_SPEC = {
  triage: { system: SYSTEM_PART, user: { placeholders: ["text", "history"], required: ["text"] } },
  contextualize: { system: SYSTEM_PART, user: { placeholders: ["text", "history", "summary", "profile"], required: ["text", "history"] } },
  grade: { system: SYSTEM_PART, user: { placeholders: ["query", "chunks"], required: ["query", "chunks"] } },
  clarify: { system: SYSTEM_PART, user: { placeholders: ["text", "query", "options"], required: ["options"] } },
  generate: {
    system: SYSTEM_PART,
    user: { placeholders: ["text", "query", "chunks", "regeneration"], required: ["text", "chunks", "regeneration"] },
    /** Inserted as {regeneration} after a draft failed verification; empty otherwise. */
    regeneration: { placeholders: ["feedback"], required: ["feedback"] },
  },
  verify: { system: SYSTEM_PART, user: { placeholders: ["claims"], required: ["claims"] } },
  extract_memory: { system: SYSTEM_PART, user: { placeholders: ["text", "profile"], required: ["text"] } },
} as const satisfies Record<ModelRole, Record<string, PromptPartSpec>>;

export type PromptBundle = { [R in ModelRole]: { [P in keyof (typeof PROMPT_SPEC)[R]]: string } };

export interface ModelProfile {
  /** A Gemini model id from KNOWN_GEMINI_MODELS. */
  model: string;
  /** Upper bound of one reply's tokens. */
  maxOutputTokens: number;
  /** Gemini 2.5+ "thinking" tokens per call; 0 turns thinking off. Unset: the model's default. */
  thinkingBudget?: number;
}

export interface ModelSettings {
  profiles: Record<string, ModelProfile>;
  /** The profile each role runs on. */
  roles: Record<ModelRole, string>;
}

export interface Bundle {
  version: string;
  languages: Language[];
  defaultLanguage: Language;
  insurerName: PerLanguage<string>;
  domains: string[];
  copy: Record<CopyKey, PerLanguage<string>>;
  policy: PolicyLists;
  prompts: PromptBundle;
  models: ModelSettings;
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

/** A prompt part is a string or, for readability in JSON, an array of lines. */
const promptText = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join("\n") : v));
const PromptsFileSchema = z.record(z.string(), z.unknown());

const ModelProfileSchema = z
  .object({
    model: z.string().min(1),
    maxOutputTokens: z.number().int().min(1).max(65_536),
    thinkingBudget: z.number().int().min(0).max(32_768).optional(),
  })
  .strict();

const ModelsFileSchema = z
  .object({
    $comment: z.string().optional(),
    profiles: z.record(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/u, "profile names are lower-case words"), ModelProfileSchema),
    roles: z.record(z.string(), z.string()),
  })
  .strict();

/** Placeholders are {identifier}; other braces (a JSON example in a prompt) are literal text. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.-]*)\}/gu;

function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "");
}

const listOf = (names: readonly string[]) => names.map((p) => `{${p}}`).join(", ") || "none";

function readJson(dir: string, file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(path.join(dir, file), "utf8")) as unknown;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") problems.push(`${file}: missing from ${dir}`);
    else problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
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

/**
 * Checks prompts against the roles, parts and placeholders the code declares (PROMPT_SPEC):
 * a missing or unknown role or part, an empty part, a placeholder the code does not pass, and
 * a required placeholder a part does not use.
 */
export function validatePrompts(raw: Record<string, unknown>): { problems: string[]; prompts: PromptBundle | null } {
  const problems: string[] = [];
  const prompts: Record<string, Record<string, string>> = {};
  for (const [role, parts] of Object.entries(PROMPT_SPEC) as Array<[ModelRole, Record<string, PromptPartSpec>]>) {
    const entry = raw[role];
    if (entry === undefined) {
      problems.push(`prompts.json: missing prompts for role "${role}"`);
      continue;
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      problems.push(`prompts.json: "${role}" must be an object of prompt parts (${Object.keys(parts).join(", ")})`);
      continue;
    }
    const texts: Record<string, string> = {};
    for (const [part, spec] of Object.entries(parts)) {
      const name = `${role}.${part}`;
      const value = (entry as Record<string, unknown>)[part];
      if (value === undefined) {
        problems.push(`prompts.json: missing part "${name}"`);
        continue;
      }
      const parsed = promptText.safeParse(value);
      if (!parsed.success || parsed.data.trim() === "") {
        problems.push(`prompts.json: "${name}" must be a non-empty string or array of lines`);
        continue;
      }
      const allowed = [...PROMPT_COMMON_PLACEHOLDERS, ...spec.placeholders];
      const used = placeholdersOf(parsed.data);
      for (const placeholder of new Set(used)) {
        if (!allowed.includes(placeholder)) {
          problems.push(`prompts.json: "${name}" uses placeholder {${placeholder}} that the code does not pass (allowed: ${listOf(allowed)})`);
        }
      }
      for (const placeholder of spec.required) {
        if (!used.includes(placeholder)) problems.push(`prompts.json: "${name}" must use {${placeholder}}: without it the model never sees that input`);
      }
      texts[part] = parsed.data;
    }
    for (const part of Object.keys(entry)) {
      if (!(part in parts)) problems.push(`prompts.json: unknown part "${role}.${part}" (parts of ${role}: ${Object.keys(parts).join(", ")})`);
    }
    prompts[role] = texts;
  }
  for (const role of Object.keys(raw)) {
    if (role !== "$comment" && !(role in PROMPT_SPEC)) problems.push(`prompts.json: unknown role "${role}" (roles: ${MODEL_ROLES.join(", ")})`);
  }
  return { problems, prompts: problems.length === 0 ? (prompts as PromptBundle) : null };
}

/**
 * Checks model profiles: every role runs on a profile that exists, and every profile names a
 * known Gemini model (KNOWN_GEMINI_MODELS, in code).
 */
export function validateModels(models: z.infer<typeof ModelsFileSchema>): string[] {
  const problems: string[] = [];
  const profileNames = Object.keys(models.profiles);
  for (const [name, profile] of Object.entries(models.profiles)) {
    if (!isKnownGeminiModel(profile.model)) {
      problems.push(`models.json: profile "${name}" names unknown model "${profile.model}" (known: ${KNOWN_GEMINI_MODELS.join(", ")})`);
    }
  }
  for (const role of MODEL_ROLES) {
    const profile = models.roles[role];
    if (profile === undefined) problems.push(`models.json: no model profile for role "${role}"`);
    else if (!profileNames.includes(profile)) {
      problems.push(`models.json: role "${role}" uses unknown model profile "${profile}" (profiles: ${profileNames.join(", ") || "none"})`);
    }
  }
  for (const role of Object.keys(models.roles)) {
    if (!(MODEL_ROLES as readonly string[]).includes(role)) problems.push(`models.json: unknown role "${role}" (roles: ${MODEL_ROLES.join(", ")})`);
  }
  return problems;
}

function unknownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => file.endsWith(".json") && !(BUNDLE_FILES as readonly string[]).includes(file))
      .map((file) => `${file}: unknown bundle file (files: ${BUNDLE_FILES.join(", ")})`);
  } catch (error) {
    return [`${dir}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Loads and validates the bundle in `dir`; throws BundleError listing every problem. */
export function loadBundle(dir: string): Bundle {
  const problems: string[] = unknownFiles(dir);
  if (problems.some((p) => p.startsWith(dir))) throw new BundleError(problems);
  const configRaw = readJson(dir, "config.json", problems);
  const copyRaw = readJson(dir, "copy.json", problems);
  const policyRaw = readJson(dir, "policy.json", problems);
  const promptsRaw = readJson(dir, "prompts.json", problems);
  const modelsRaw = readJson(dir, "models.json", problems);

  const config = configRaw === undefined ? undefined : ConfigFileSchema.safeParse(configRaw);
  if (config && !config.success) problems.push(...zodProblems("config.json", config.error));
  const copy = copyRaw === undefined ? undefined : CopyFileSchema.safeParse(copyRaw);
  if (copy && !copy.success) problems.push(...zodProblems("copy.json", copy.error));
  const policy = policyRaw === undefined ? undefined : PolicyFileSchema.safeParse(policyRaw);
  if (policy && !policy.success) problems.push(...zodProblems("policy.json", policy.error));
  const promptsFile = promptsRaw === undefined ? undefined : PromptsFileSchema.safeParse(promptsRaw);
  if (promptsFile && !promptsFile.success) problems.push(...zodProblems("prompts.json", promptsFile.error));
  const models = modelsRaw === undefined ? undefined : ModelsFileSchema.safeParse(modelsRaw);
  if (models && !models.success) problems.push(...zodProblems("models.json", models.error));

  if (config?.success && !config.data.languages.includes(config.data.defaultLanguage)) {
    problems.push(`config.json: defaultLanguage "${config.data.defaultLanguage}" is not one of languages`);
  }
  const languages: Language[] = config?.success ? config.data.languages : ["fa", "en"];
  if (copy?.success) problems.push(...validateCopy(copy.data, languages));
  const prompts = promptsFile?.success ? validatePrompts(promptsFile.data) : undefined;
  if (prompts) problems.push(...prompts.problems);
  if (models?.success) problems.push(...validateModels(models.data));

  if (problems.length > 0 || !config?.success || !copy?.success || !policy?.success || !prompts?.prompts || !models?.success) {
    throw new BundleError(problems);
  }
  const { $comment: _comment, ...policyLists } = policy.data;
  return {
    ...config.data,
    copy: copy.data as Bundle["copy"],
    policy: policyLists,
    prompts: prompts.prompts,
    models: { profiles: models.data.profiles, roles: models.data.roles as Record<ModelRole, string> },
  };
}

/**
 * Fills a prompt template: each {name} with its value, in one pass, so that a value containing
 * braces (a chunk quoting "{text}") is never expanded again. Validation guarantees every
 * placeholder of a loaded bundle has a value.
 */
export function renderPrompt(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (match, name: string) => values[name] ?? match);
}

/** Renders a copy template with the values the code passes. */
export function renderCopy(bundle: Bundle, key: CopyKey, language: Language): string {
  const template = bundle.copy[key][language];
  return template.replace(/\{insurer\}/gu, bundle.insurerName[language]);
}
