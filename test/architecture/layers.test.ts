import { describe, expect, it } from "vitest";
import { checkLayers, importsOf, renderedPart, renderRules, resolveRelative, updateDoc, type LayerRules, type SourceFile } from "../../scripts/layers/check.js";

// The check itself, on small made-up trees; `npm run lint:layers` runs it over the real src/.
const RULES: LayerRules = {
  layers: [["src/cli"], ["src/server", "src/client"], ["src/agent"], ["src/store", "src/models"], ["src/text"]],
  importers: [
    { target: "gen", only: ["src/server", "src/client"], why: "edge" },
    { target: "src/store/factory.ts", only: ["src/cli"], why: "root" },
  ],
  packages: [{ packages: ["pg"], load: ["src/store/postgres"], types: ["src/agent"], why: "driver" }],
  apart: [["src/store/postgres", "src/store/sqlite"]],
  entries: [{ folder: "src/models", entry: "src/models/index.ts" }],
};

const FILES = new Set([
  "src/cli/main.ts",
  "src/server/routes.ts",
  "src/client/client.ts",
  "src/agent/graph.ts",
  "src/store/factory.ts",
  "src/store/postgres/saver.ts",
  "src/store/sqlite/saver.ts",
  "src/models/index.ts",
  "src/models/offline.ts",
  "src/text/normalize.ts",
  "gen/agent_pb.ts",
]);
const exists = (file: string) => FILES.has(file);
const check = (file: string, text: string) => checkLayers([{ file, text }], exists, RULES).map((v) => `${v.rule} ${v.line} ${v.specifier}`);

describe("importsOf", () => {
  it("finds static, re-exported, dynamic and type-level imports, and tells which the compiler erases", () => {
    const text = [
      'import a from "./a.js";',
      'import type { B } from "./b.js";',
      'import { type C } from "./c.js";',
      'import "./d.js";',
      'export { e } from "./e.js";',
      'export type { F } from "./f.js";',
      "export * from './g.js';",
      'const h = await import("./h.js");',
      'type I = typeof import("./i.js");',
      "const j = await import(name);",
    ].join("\n");
    expect(importsOf("x.ts", text)).toEqual([
      { specifier: "./a.js", line: 1, typeOnly: false },
      { specifier: "./b.js", line: 2, typeOnly: true },
      // verbatimModuleSyntax keeps `import {} from "./c.js"`: the module still loads.
      { specifier: "./c.js", line: 3, typeOnly: false },
      { specifier: "./d.js", line: 4, typeOnly: false },
      { specifier: "./e.js", line: 5, typeOnly: false },
      { specifier: "./f.js", line: 6, typeOnly: true },
      { specifier: "./g.js", line: 7, typeOnly: false },
      { specifier: "./h.js", line: 8, typeOnly: false },
      { specifier: "./i.js", line: 9, typeOnly: true },
      { specifier: null, line: 10, typeOnly: false },
    ]);
  });

  it("resolves a .js specifier to the .ts file beside it, as NodeNext does", () => {
    expect(resolveRelative("src/agent/graph.ts", "../text/normalize.js", exists)).toBe("src/text/normalize.ts");
    expect(resolveRelative("src/agent/graph.ts", "../../gen/agent_pb.js", exists)).toBe("gen/agent_pb.ts");
    expect(resolveRelative("src/agent/graph.ts", "./missing.js", exists)).toBeNull();
  });
});

describe("checkLayers", () => {
  it("accepts imports of inner rows, of the folder's own files and of allowed targets", () => {
    expect(check("src/cli/main.ts", 'import "../server/routes.js";\nimport "../store/factory.js";\nimport "../text/normalize.js";\nimport "node:fs";')).toEqual([]);
    expect(check("src/server/routes.ts", 'import "../../gen/agent_pb.js";\nimport { x } from "../models/index.js";')).toEqual([]);
    expect(check("src/store/postgres/saver.ts", 'import pg from "pg";\nimport "../../text/normalize.js";')).toEqual([]);
  });

  it("rejects an outer layer, a sibling, and a dynamic import of either", () => {
    expect(check("src/agent/graph.ts", 'import { a } from "../server/routes.js";\nconst c = await import("../cli/main.js");')).toEqual([
      "outer 1 ../server/routes.js",
      "outer 2 ../cli/main.js",
    ]);
    expect(check("src/server/routes.ts", 'export { c } from "../client/client.js";')).toEqual(["sibling 1 ../client/client.js"]);
    expect(check("src/models/offline.ts", 'import type { S } from "../store/sqlite/saver.js";')).toEqual(["sibling 1 ../store/sqlite/saver.js"]);
  });

  it("rejects gen/ and the factory outside their importers", () => {
    expect(check("src/agent/graph.ts", 'import type { T } from "../../gen/agent_pb.js";\nimport "../store/factory.js";')).toEqual([
      "importers 1 ../../gen/agent_pb.js",
      "importers 2 ../store/factory.js",
    ]);
  });

  it("lets a package load only in its adapter, and be named by type where allowed", () => {
    expect(check("src/agent/graph.ts", 'import type pg from "pg";')).toEqual([]);
    expect(check("src/agent/graph.ts", 'import pg from "pg";')).toEqual(["package 1 pg"]);
    expect(check("src/agent/graph.ts", 'import { type Pool } from "pg/lib/pool";')).toEqual(["package 1 pg/lib/pool"]);
    expect(check("src/text/normalize.ts", 'import type pg from "pg";')).toEqual(["package 1 pg"]);
  });

  it("keeps alternatives apart and a public index public", () => {
    expect(check("src/store/postgres/saver.ts", 'import "../sqlite/saver.js";')).toEqual(["apart 1 ../sqlite/saver.js"]);
    expect(check("src/agent/graph.ts", 'import "../models/offline.js";')).toEqual(["entry 1 ../models/offline.js"]);
    expect(check("src/models/index.ts", 'export * from "./offline.js";')).toEqual([]);
  });

  it("reports what it cannot place or resolve", () => {
    expect(check("src/agent/graph.ts", 'import "./nowhere.js";\nimport "../../test/support.js";\nawait import(name);')).toEqual([
      "unresolved 1 ./nowhere.js",
      "unresolved 2 ../../test/support.js",
      "unresolved 3 import(…)",
    ]);
    const withTests = (file: string) => exists(file) || file === "test/support.ts";
    expect(checkLayers([{ file: "src/agent/graph.ts", text: 'import "../../test/support.js";' }], withTests, RULES).map((v) => v.rule)).toEqual(["outside"]);
    const files: SourceFile[] = [{ file: "src/extra/thing.ts", text: "" }];
    expect(checkLayers(files, exists, RULES).map((v) => v.message)).toEqual(["src/extra is on no row of LAYERS in scripts/layers/rules.ts"]);
  });
});

describe("the rendered rules", () => {
  it("draws every row and rule, and rewrites only what lies between the markers", () => {
    const rendered = renderRules(RULES);
    expect(rendered).toContain("  src/server │ src/client");
    expect(rendered).toContain("- `pg`: loaded only in `src/store/postgres`; `import type` also in `src/agent`. Why: driver.");
    const doc = "# A\n<!-- layers:begin -->\nold\n<!-- layers:end -->\nafter\n";
    const once = updateDoc(doc, RULES);
    expect(once).toBe(`# A\n<!-- layers:begin -->\n${rendered}\n<!-- layers:end -->\nafter\n`);
    expect(renderedPart(once)).toBe(rendered);
    expect(updateDoc(once, RULES)).toBe(once);
    expect(() => updateDoc("no markers", RULES)).toThrow(/layers:begin/u);
  });
});
