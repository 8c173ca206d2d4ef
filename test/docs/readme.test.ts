import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS, PACKAGE_ROOT } from "../../src/config/config.js";
import { readmeTable, renderDefault, renderTable, updateReadme } from "../../src/config/docs.js";
import { README_TABLES, SETTINGS, type ReadmeTable } from "../../src/config/registry.js";

const readReadme = () => readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");

describe("README", () => {
  it("documents every environment variable the configuration reads", () => {
    const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    expect(ENV_VARS.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it.each(Object.keys(README_TABLES) as ReadmeTable[])("holds the %s configuration table exactly as the settings registry renders it (npm run docs:config)", (table) => {
    expect(readmeTable(readReadme(), table)).toBe(renderTable(table));
  });

  it("states the two set-up commands that CI runs", () => {
    const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(readFileSync(path.join(PACKAGE_ROOT, ".ci/run"), "utf8")).toMatch(/^npm test$/mu);
  });
});

describe("the settings registry", () => {
  it("states each variable in exactly one README table", () => {
    const names = Object.values(README_TABLES).flatMap((settings) => Object.keys(settings));
    expect(names).toHaveLength(new Set(names).size);
    expect(names).toEqual(ENV_VARS);
  });

  it("shows schema defaults as they are, derived defaults in words, and no default as *(none)*", () => {
    expect(renderDefault(SETTINGS.FRONTDESK_TURN_TIMEOUT_MS)).toBe("`30000`");
    expect(renderDefault(SETTINGS.FRONTDESK_ALLOW_PUBLIC_BIND)).toBe("`false`");
    expect(renderDefault(SETTINGS.FRONTDESK_MIN_CONFIDENCE)).toBe("`0.45`");
    expect(renderDefault(SETTINGS.FRONTDESK_CORPUS_DIR)).toBe("`data/corpus`");
    expect(renderDefault(SETTINGS.DATABASE_URL)).toBe("*(none)*");
  });

  it("rewrites only what lies between the markers, and a second run changes nothing", () => {
    const stale =
      "intro\n<!-- config:begin service -->\n| old |\n<!-- config:end service -->\nmiddle\n<!-- config:begin retrieval -->\n<!-- config:end retrieval -->\n" +
      "later\n<!-- config:begin operating -->\n<!-- config:end operating -->\nend\n";
    const once = updateReadme(stale);
    expect(once).toBe(
      `intro\n<!-- config:begin service -->\n${renderTable("service")}\n<!-- config:end service -->\nmiddle\n` +
        `<!-- config:begin retrieval -->\n${renderTable("retrieval")}\n<!-- config:end retrieval -->\n` +
        `later\n<!-- config:begin operating -->\n${renderTable("operating")}\n<!-- config:end operating -->\nend\n`,
    );
    expect(updateReadme(once)).toBe(once);
    expect(() => updateReadme("no markers")).toThrow(/config:begin service/u);
  });
});
