import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COPY_KEYS, parseGates, renderCopy } from "../../src/agent/bundle.js";
import { DEFAULT_REDACTION, REDACTION_FIELDS } from "../../src/agent/redaction.js";
import { BundleError } from "../../src/config/bundle.js";
import { renderPrompt } from "../../src/models/bundle.js";
import { loadBundle } from "../../src/app/bundle.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { KNOWN_GEMINI_MODELS, isKnownGeminiModel } from "../../src/models/gemini/known-models.js";
import { ROLES } from "../../src/models/roles.js";

const baseline = path.join(PACKAGE_ROOT, "bundle");

function copyOfBaseline(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bundle-"));
  cpSync(baseline, dir, { recursive: true });
  return dir;
}

// biome-ignore lint/suspicious/noExplicitAny: the edits reach into the bundle's JSON at any depth; the loader under test checks its shape.
function edit(dir: string, file: string, change: (json: Record<string, any>) => void) {
  const json = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  change(json);
  writeFileSync(path.join(dir, file), JSON.stringify(json));
}

describe("config bundle", () => {
  it("loads the shipped baseline with every copy key in both languages", () => {
    const bundle = loadBundle(baseline);
    expect(bundle.languages.sort()).toEqual(["en", "fa"]);
    for (const key of Object.keys(COPY_KEYS)) {
      expect(bundle.copy[key as keyof typeof COPY_KEYS].en.length).toBeGreaterThan(0);
      expect(bundle.copy[key as keyof typeof COPY_KEYS].fa.length).toBeGreaterThan(0);
    }
    expect(renderCopy(bundle, "chitchat.goodbye", "en")).toBe("Goodbye, and thank you for contacting Arman Insurance.");
  });

  it("reports every problem at once: missing key, unknown key, missing language, unknown placeholder", () => {
    const dir = copyOfBaseline();
    edit(dir, "copy.json", (copy) => {
      delete copy["clarify.question"];
      copy["made.up"] = { en: "x", fa: "y" };
      delete copy["chitchat.thanks"].fa;
      copy["chitchat.goodbye"].en = "Bye {customer}";
    });
    try {
      loadBundle(dir);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BundleError);
      const problems = (error as BundleError).problems;
      expect(problems).toContain('copy.json: missing key "clarify.question"');
      expect(problems).toContain('copy.json: unknown key "made.up"');
      expect(problems).toContain('copy.json: "chitchat.thanks" has no text for language "fa"');
      expect(problems.some((p) => p.includes("{customer}"))).toBe(true);
      expect(problems).toHaveLength(4);
    }
  });

  it("rejects a policy list with a missing restricted category and a bad config file", () => {
    const dir = copyOfBaseline();
    edit(dir, "policy.json", (policy) => delete policy.restrictedIntents.legal);
    edit(dir, "config.json", (config) => (config.defaultLanguage = "de"));
    expect(() => loadBundle(dir)).toThrow(/restrictedIntents[\s\S]*defaultLanguage|defaultLanguage[\s\S]*restrictedIntents/u);
  });

  it("refuses the fixed domain lists of earlier versions: domains are the documents' own", () => {
    const dir = copyOfBaseline();
    edit(dir, "config.json", (config) => {
      config.domains = ["motor"];
      config.sharedDomains = ["general"];
    });
    expect(problemsOf(dir)).toEqual([
      'config.json: "domains" is no longer read: domains, products and general pages come from the documents themselves (remove it)',
      'config.json: "sharedDomains" is no longer read: domains, products and general pages come from the documents themselves (remove it)',
    ]);
  });

  it("stops on a corrupt gates artefact, listing its problems with the other files'", () => {
    const dir = copyOfBaseline();
    edit(dir, "gates/model.json", (model) => {
      model.thresholds.knowledge = 2;
      model.biases.pop();
    });
    edit(dir, "copy.json", (copy) => delete copy["clarify.question"]);
    try {
      loadBundle(dir);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BundleError);
      const problems = (error as BundleError).problems;
      expect(problems).toContain("gates/model.json: thresholds.knowledge: must be in [0, 1]");
      expect(problems).toContain('copy.json: missing key "clarify.question"');
    }
    writeFileSync(path.join(dir, "gates/model.json"), "{ not json");
    expect(() => loadBundle(dir)).toThrow(/gates\/model\.json/u);
  });

  it("checks the gates' classes against the restricted categories the agent routes", () => {
    const dir = copyOfBaseline();
    edit(dir, "gates/model.json", (model) => (model.name = "detector"));
    expect(() => loadBundle(dir)).toThrow('gates/model.json: name: expected "gates", got "detector" (another classifier\'s artefact?)');
    expect(parseGates(undefined).problems).toEqual([]);
  });

  it("reports unreadable files by name", () => {
    const dir = copyOfBaseline();
    writeFileSync(path.join(dir, "copy.json"), "{ not json");
    expect(() => loadBundle(dir)).toThrow(/copy\.json/u);
  });
});

describe("config bundle: prompts and model profiles", () => {
  it("ships prompts for every model role and a model profile for each, small models except for generate", () => {
    const bundle = loadBundle(baseline);
    expect(Object.keys(bundle.prompts).sort()).toEqual([...ROLES].sort());
    for (const role of ROLES) {
      const profile = bundle.models.profiles[bundle.models.roles[role]]!;
      expect(isKnownGeminiModel(profile.model)).toBe(true);
      expect(profile.model, role).toBe(role === "generate" ? "gemini-2.5-flash" : "gemini-2.5-flash-lite");
    }
    // Arrays of lines are joined into one text.
    expect(bundle.prompts.generate.system.split("\n").length).toBeGreaterThan(5);
  });

  it("reports every prompt problem at once: missing role, missing and unknown part, stray and missing placeholders, unknown role", () => {
    const dir = copyOfBaseline();
    edit(dir, "prompts.json", (prompts) => {
      delete prompts.verify;
      delete prompts.generate.regeneration;
      prompts.grade.notes = "x";
      prompts.triage.user = "Classify {text} for {customer_name}";
      prompts.generate.user = "Answer {text}. {regeneration}";
      prompts.summarize = { system: "s", user: "u" };
      prompts.clarify.system = [];
    });
    const problems = problemsOf(dir);
    expect(problems).toEqual(
      expect.arrayContaining([
        'prompts.json: missing prompts for role "verify"',
        'prompts.json: missing part "generate.regeneration"',
        'prompts.json: unknown part "grade.notes" (parts of grade: system, user)',
        'prompts.json: "triage.user" uses placeholder {customer_name} that the code does not pass (allowed: {insurer}, {language}, {text}, {history}, {candidate})',
        'prompts.json: "generate.user" must use {chunks}: without it the model never sees that input',
        'prompts.json: "generate.user" must use {reading}: without it the model never sees that input',
        'prompts.json: unknown role "summarize" (roles: triage, contextualize, grade, clarify, generate, verify, extract_memory)',
        'prompts.json: "clarify.system" must be a non-empty string or array of lines',
      ]),
    );
    expect(problems).toHaveLength(8);
  });

  it("treats braces that are not {identifier} as text, so a JSON example in a prompt is allowed", () => {
    const dir = copyOfBaseline();
    edit(dir, "prompts.json", (prompts) => {
      prompts.triage.system = 'Reply like {"intent": "knowledge", "confidence": 0.9} for {insurer}.';
    });
    expect(loadBundle(dir).prompts.triage.system).toContain('{"intent"');
  });

  it("refuses an unknown model, an unknown profile, a role without a profile, and says which models are known", () => {
    const dir = copyOfBaseline();
    edit(dir, "models.json", (models) => {
      models.profiles.main.model = "gemini-2.5-flahs";
      models.roles.triage = "tiny";
      delete models.roles.verify;
      models.roles.summarize = "small";
    });
    const problems = problemsOf(dir);
    expect(problems).toEqual([
      `models.json: profile "main" names unknown model "gemini-2.5-flahs" (known: ${KNOWN_GEMINI_MODELS.join(", ")})`,
      'models.json: role "triage" uses unknown model profile "tiny" (profiles: small, main)',
      'models.json: no model profile for role "verify"',
      'models.json: unknown role "summarize" (roles: triage, contextualize, grade, clarify, generate, verify, extract_memory)',
    ]);
  });

  it("validates profile fields and reports problems of every file together", () => {
    const dir = copyOfBaseline();
    edit(dir, "models.json", (models) => (models.profiles.small.maxOutputTokens = 0));
    edit(dir, "copy.json", (copy) => delete copy["clarify.question"]);
    edit(dir, "prompts.json", (prompts) => delete prompts.triage);
    writeFileSync(path.join(dir, "prompt.json"), "{}");
    const problems = problemsOf(dir);
    expect(problems).toEqual(
      expect.arrayContaining([
        "prompt.json: unknown bundle file (files: config.json, copy.json, policy.json, prompts.json, models.json, redaction.json, gates/model.json, detector/model.json)",
        expect.stringMatching(/^models\.json: profiles\.small\.maxOutputTokens: /u),
        'copy.json: missing key "clarify.question"',
        'prompts.json: missing prompts for role "triage"',
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it("renders a prompt in one pass: a value containing {braces} is not expanded again", () => {
    expect(renderPrompt("Q: {text} ({language})", { text: "what is {language}?", language: "English" })).toBe("Q: what is {language}? (English)");
  });
});

describe("config bundle: redaction policy", () => {
  it("ships the defaults: every field masks every kind", () => {
    expect(loadBundle(baseline).redaction).toEqual(DEFAULT_REDACTION);
    for (const field of REDACTION_FIELDS) expect(Object.values(DEFAULT_REDACTION[field])).toEqual(["mask", "mask", "mask", "mask", "mask"]);
  });

  it("reads an action per field, or per kind with a default", () => {
    const dir = copyOfBaseline();
    edit(dir, "redaction.json", (r) => {
      r.fields["handoff.last_user_message"] = { default: "keep", card: "mask", national_id: "drop" };
      r.fields.get_thread = "drop";
      r.fields.summary = { mobile: "keep" };
    });
    const { redaction } = loadBundle(dir);
    expect(redaction["handoff.last_user_message"]).toEqual({ national_id: "drop", mobile: "keep", card: "mask", iban: "keep", email: "keep" });
    expect(redaction.get_thread.email).toBe("drop");
    // Kinds a per-kind object leaves out are masked.
    expect(redaction.summary).toEqual({ national_id: "mask", mobile: "keep", card: "mask", iban: "mask", email: "mask" });
  });

  it("reports every problem at once: missing, unknown and fixed fields, bad actions and kinds, stray keys", () => {
    const dir = copyOfBaseline();
    edit(dir, "redaction.json", (r) => {
      delete r.fields.replay;
      r.fields.histroy = "mask";
      r.fields.logs = "keep";
      r.fields.memory = "mask";
      r.fields.summary = "hide";
      r.fields.get_thread = { phone: "keep", card: "erase" };
      r.defaults = "mask";
    });
    expect(problemsOf(dir)).toEqual([
      'redaction.json: unknown key "defaults" (keys: $comment, fields)',
      'redaction.json: fields."summary": "hide" is not an action (must be "keep", "mask" or "drop", or an object of kinds ({"default", "national_id", "mobile", "card", "iban", "email"}))',
      'redaction.json: fields."get_thread": unknown kind "phone" (kinds: default, national_id, mobile, card, iban, email)',
      'redaction.json: fields."get_thread".card: must be "keep", "mask" or "drop"',
      `redaction.json: unknown field "histroy" (fields: ${REDACTION_FIELDS.join(", ")})`,
      'redaction.json: fields."logs": not configurable: personal data never reaches logs, traces or metric labels',
      'redaction.json: fields."memory": not configurable: long-term memory never keeps personal data',
      'redaction.json: missing field "replay" ("keep", "mask" or "drop"; the default is "mask")',
    ]);
  });

  it("is a required file of the bundle", () => {
    const dir = copyOfBaseline();
    rmSync(path.join(dir, "redaction.json"));
    expect(problemsOf(dir)).toEqual([`redaction.json: missing from ${dir}`]);
  });
});

function problemsOf(dir: string): string[] {
  try {
    loadBundle(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(BundleError);
    return (error as BundleError).problems;
  }
  throw new Error("expected the bundle to be refused");
}
