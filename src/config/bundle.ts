import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Language } from "../text/language.js";

/**
 * The config bundle: a directory of JSON files (config.json plus one file per area) edited
 * without touching code. This module reads the files and checks the bundle's own header
 * (config.json); each other file is validated by the layer that owns its vocabulary
 * (src/agent/bundle.ts: copy, policy and redaction; src/models/bundle.ts: prompts and models), and the
 * composition root (src/app/bundle.ts) puts them together, reporting every problem at once.
 */

/**
 * The files of a bundle; any other .json file in the directory is reported (a misspelt name).
 * gates/model.json is the intent-gate classifier's artefact (src/learn), trained from
 * gates/data by `npm run train:gates`.
 */
export const BUNDLE_FILES = ["config.json", "copy.json", "policy.json", "prompts.json", "models.json", "redaction.json", "gates/model.json", "detector/model.json"] as const;
export type BundleFile = (typeof BUNDLE_FILES)[number];

type PerLanguage<T> = Record<Language, T>;

/** config.json: who the insurer is and which languages it serves. */
export interface BundleIdentity {
  version: string;
  languages: Language[];
  defaultLanguage: Language;
  insurerName: PerLanguage<string>;
}

export class BundleError extends Error {
  override readonly name = "BundleError";
  constructor(readonly problems: string[]) {
    super(`config bundle has ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  }
}

const ConfigFileSchema = z
  .object({
    version: z.string().regex(/^\d+\.\d+\.\d+$/u, "must be semver, e.g. 1.0.0"),
    languages: z.array(z.enum(["fa", "en"])).min(1),
    defaultLanguage: z.enum(["fa", "en"]),
    insurerName: z.object({ fa: z.string().min(1), en: z.string().min(1) }).strict(),
    // Removed in 1.3.0: domains and products are the documents' own (the tenant's taxonomy).
    domains: z.unknown().optional(),
    sharedDomains: z.unknown().optional(),
  })
  .strict();

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

function unknownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => file.endsWith(".json") && !(BUNDLE_FILES as readonly string[]).includes(file))
      .map((file) => `${file}: unknown bundle file (files: ${BUNDLE_FILES.join(", ")})`);
  } catch (error) {
    return [`${dir}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** The raw files of a bundle directory, and the problems met reading them and its config.json. */
export interface RawBundle {
  files: Record<BundleFile, unknown>;
  identity: BundleIdentity | null;
  /** Unknown and unreadable files. */
  readProblems: string[];
  /** config.json against its schema. */
  schemaProblems: string[];
  /** config.json's fields against each other (reported after every file's schema problems). */
  identityProblems: string[];
}

/** Reads every bundle file in `dir`; throws BundleError when the directory itself cannot be read. */
export function readBundle(dir: string): RawBundle {
  const readProblems: string[] = unknownFiles(dir);
  if (readProblems.some((p) => p.startsWith(dir))) throw new BundleError(readProblems);
  const files = Object.fromEntries(BUNDLE_FILES.map((file) => [file, readJson(dir, file, readProblems)])) as Record<BundleFile, unknown>;
  const schemaProblems: string[] = [];
  const identityProblems: string[] = [];
  const config = files["config.json"] === undefined ? undefined : ConfigFileSchema.safeParse(files["config.json"]);
  if (config && !config.success) schemaProblems.push(...zodProblems("config.json", config.error));
  let identity: BundleIdentity | null = null;
  if (config?.success) {
    const { domains: _domains, sharedDomains: _shared, ...header } = config.data;
    identity = header;
    if (!config.data.languages.includes(config.data.defaultLanguage)) {
      identityProblems.push(`config.json: defaultLanguage "${config.data.defaultLanguage}" is not one of languages`);
    }
    for (const field of ["domains", "sharedDomains"] as const) {
      if (config.data[field] !== undefined) {
        identityProblems.push(`config.json: "${field}" is no longer read: domains, products and general pages come from the documents themselves (remove it)`);
      }
    }
  }
  return { files, identity, readProblems, schemaProblems, identityProblems };
}

export { zodProblems };
