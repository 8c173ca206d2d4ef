import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { PRUNED_HISTORY_CASES, renderCases, STOCK_SAVER_STORES_WHOLE_VALUES } from "../support/checkpoint-conformance-cases.js";

const doc = readFileSync(path.join(PACKAGE_ROOT, "docs/persistence.md"), "utf8");

function block(name: string): string | null {
  const begin = `<!-- conformance:begin ${name} -->\n`;
  const end = `\n<!-- conformance:end ${name} -->`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  return from < 0 || to < from ? null : doc.slice(from + begin.length, to);
}

describe("docs/persistence.md", () => {
  it("lists exactly the conformance cases the tests skip, with their reasons", () => {
    expect(block("skipped")).toBe(renderCases(PRUNED_HISTORY_CASES));
  });

  it("lists exactly the conformance cases the tests expect to fail, with their reasons", () => {
    expect(block("expected-failures")).toBe(renderCases(STOCK_SAVER_STORES_WHOLE_VALUES));
  });
});
