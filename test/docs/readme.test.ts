import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS, PACKAGE_ROOT } from "../../src/config/config.js";

describe("README", () => {
  it("documents every environment variable the configuration reads", () => {
    const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    expect(ENV_VARS.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it("states the two set-up commands that CI runs", () => {
    const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(readFileSync(path.join(PACKAGE_ROOT, ".ci/run"), "utf8")).toMatch(/^npm test$/mu);
  });
});
