import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BundleError, COPY_KEYS, loadBundle, renderCopy } from "../../src/config/bundle.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const baseline = path.join(PACKAGE_ROOT, "bundle");

function copyOfBaseline(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bundle-"));
  cpSync(baseline, dir, { recursive: true });
  return dir;
}

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

  it("reports unreadable files by name", () => {
    const dir = copyOfBaseline();
    writeFileSync(path.join(dir, "copy.json"), "{ not json");
    expect(() => loadBundle(dir)).toThrow(/copy\.json/u);
  });
});
