import { z } from "zod";
import type { BundleIdentity } from "../config/bundle.js";
import { KNOWN_GEMINI_MODELS, isKnownGeminiModel } from "./gemini/known-models.js";
import { ROLES, type Role } from "./roles.js";

/**
 * The models' slice of the config bundle: what each role is told (prompts.json) and which model
 * runs it (models.json). The roles are ROLES; the parts and placeholders each role's prompt has
 * are declared here, beside the code that fills them in.
 */

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
  triage: { system: SYSTEM_PART, user: { placeholders: ["text", "history", "candidate"], required: ["text"] } },
  contextualize: { system: SYSTEM_PART, user: { placeholders: ["text", "history", "summary", "profile"], required: ["text", "history"] } },
  grade: { system: SYSTEM_PART, user: { placeholders: ["query", "chunks"], required: ["query", "chunks"] } },
  clarify: { system: SYSTEM_PART, user: { placeholders: ["text", "query", "options"], required: ["options"] } },
  generate: {
    system: SYSTEM_PART,
    /** {reading}: the deterministic reader's match, offered first; "(none)" when it found none or on regeneration. */
    user: { placeholders: ["text", "query", "reading", "chunks", "regeneration"], required: ["text", "reading", "chunks", "regeneration"] },
    /** Inserted as {regeneration} after a draft failed verification; empty otherwise. */
    regeneration: { placeholders: ["feedback"], required: ["feedback"] },
  },
  verify: { system: SYSTEM_PART, user: { placeholders: ["claims"], required: ["claims"] } },
  extract_memory: { system: SYSTEM_PART, user: { placeholders: ["text", "profile"], required: ["text"] } },
} as const satisfies Record<Role, Record<string, PromptPartSpec>>;

export type PromptBundle = { [R in Role]: { [P in keyof (typeof PROMPT_SPEC)[R]]: string } };

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
  roles: Record<Role, string>;
}

/** What the model providers read of the bundle. */
export interface ModelBundle extends BundleIdentity {
  prompts: PromptBundle;
  models: ModelSettings;
}

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

/**
 * Checks prompts against the roles, parts and placeholders the code declares (PROMPT_SPEC):
 * a missing or unknown role or part, an empty part, a placeholder the code does not pass, and
 * a required placeholder a part does not use.
 */
export function validatePrompts(raw: Record<string, unknown>): { problems: string[]; prompts: PromptBundle | null } {
  const problems: string[] = [];
  const prompts: Record<string, Record<string, string>> = {};
  for (const [role, parts] of Object.entries(PROMPT_SPEC) as Array<[Role, Record<string, PromptPartSpec>]>) {
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
    if (role !== "$comment" && !(role in PROMPT_SPEC)) problems.push(`prompts.json: unknown role "${role}" (roles: ${ROLES.join(", ")})`);
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
  for (const role of ROLES) {
    const profile = models.roles[role];
    if (profile === undefined) problems.push(`models.json: no model profile for role "${role}"`);
    else if (!profileNames.includes(profile)) {
      problems.push(`models.json: role "${role}" uses unknown model profile "${profile}" (profiles: ${profileNames.join(", ") || "none"})`);
    }
  }
  for (const role of Object.keys(models.roles)) {
    if (!(ROLES as readonly string[]).includes(role)) problems.push(`models.json: unknown role "${role}" (roles: ${ROLES.join(", ")})`);
  }
  return problems;
}

/** Validates prompts.json and models.json (raw JSON, undefined when unreadable). */
export function parseModelBundle(
  raw: { prompts: unknown; models: unknown },
  zodProblems: (file: string, error: z.ZodError) => string[],
): { problems: string[]; parseProblems: string[]; slice: Pick<ModelBundle, "prompts" | "models"> | null } {
  const parseProblems: string[] = [];
  const promptsFile = raw.prompts === undefined ? undefined : PromptsFileSchema.safeParse(raw.prompts);
  if (promptsFile && !promptsFile.success) parseProblems.push(...zodProblems("prompts.json", promptsFile.error));
  const models = raw.models === undefined ? undefined : ModelsFileSchema.safeParse(raw.models);
  if (models && !models.success) parseProblems.push(...zodProblems("models.json", models.error));
  const prompts = promptsFile?.success ? validatePrompts(promptsFile.data) : undefined;
  const problems = [...(prompts?.problems ?? []), ...(models?.success ? validateModels(models.data) : [])];
  if (!prompts?.prompts || !models?.success) return { problems, parseProblems, slice: null };
  return { problems, parseProblems, slice: { prompts: prompts.prompts, models: { profiles: models.data.profiles, roles: models.data.roles as Record<Role, string> } } };
}

/**
 * Fills a prompt template: each {name} with its value, in one pass, so that a value containing
 * braces (a chunk quoting "{text}") is never expanded again. Validation guarantees every
 * placeholder of a loaded bundle has a value.
 */
export function renderPrompt(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (match, name: string) => values[name] ?? match);
}
