import path from "node:path";
import ts from "typescript";
import { APART, ENTRIES, IMPORTERS, LAYERS, PACKAGES, type ImporterRule, type PackageRule } from "./rules.js";

/** The rules the check applies; the defaults are scripts/layers/rules.ts. Tests pass their own. */
export interface LayerRules {
  readonly layers: readonly (readonly string[])[];
  readonly importers: readonly ImporterRule[];
  readonly packages: readonly PackageRule[];
  readonly apart: readonly (readonly string[])[];
  readonly entries: readonly { readonly folder: string; readonly entry: string }[];
}

export const RULES: LayerRules = { layers: LAYERS, importers: IMPORTERS, packages: PACKAGES, apart: APART, entries: ENTRIES };

/** One module reference in a source file. */
export interface ImportRef {
  /** The specifier as written; null for a dynamic import() whose argument is not a string literal. */
  readonly specifier: string | null;
  readonly line: number;
  /** Erased by the compiler: `import type`, `export type … from`, `import("…")` in a type. */
  readonly typeOnly: boolean;
}

/**
 * Every module reference in a TypeScript source: `import … from`, `import "…"`, `export … from`,
 * `import x = require(…)`, dynamic `import(…)` and type-level `import("…")`. Under
 * verbatimModuleSyntax only a whole-statement `import type` is erased; `import { type A }` still
 * loads its module, so it counts as a value import.
 */
export function importsOf(fileName: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ImportRef[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, typeOnly: boolean) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const literal = specifier !== undefined && (ts.isStringLiteral(specifier) || ts.isNoSubstitutionTemplateLiteral(specifier));
    found.push({ specifier: literal ? specifier.text : null, line, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      add(node, node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A source file to check: its repository-relative path ("src/agent/graph.ts") and its text. */
export interface SourceFile {
  readonly file: string;
  readonly text: string;
}

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly rule: "unresolved" | "unplaced" | "outside" | "outer" | "sibling" | "importers" | "package" | "apart" | "entry";
  readonly message: string;
}

/** `p` names `scope` (a file) or lies under it (a folder). */
export const within = (p: string, scope: string): boolean => p === scope || p.startsWith(`${scope}/`);

/** The package a bare specifier names ("@scope/name/sub" → "@scope/name"); null for node: builtins. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * The repository-relative file a relative specifier names, as the compiler resolves it under
 * NodeNext: "./x.js" is "./x.ts" when that exists. Null when nothing is there.
 */
export function resolveRelative(from: string, specifier: string, exists: (file: string) => boolean): string | null {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = target.endsWith(".js") ? [`${target.slice(0, -3)}.ts`, target] : [target];
  return candidates.find(exists) ?? null;
}

/** The src/ folder a path belongs to ("src/agent/nodes/x.ts" → "src/agent"), or "gen", or null. */
function areaOf(p: string): string | null {
  const parts = p.split("/");
  if (parts[0] === "gen") return "gen";
  if (parts[0] === "src" && parts.length >= 3) return `src/${parts[1]}`;
  return null;
}

/** Checks every import of `files` against `rules`; `exists` answers for repository-relative paths. */
export function checkLayers(files: readonly SourceFile[], exists: (file: string) => boolean, rules: LayerRules = RULES): Violation[] {
  const level = new Map<string, number>();
  rules.layers.forEach((row, i) => {
    for (const folder of row) level.set(folder, i);
  });
  const violations: Violation[] = [];
  for (const { file, text } of files) {
    const from = areaOf(file);
    const fromLevel = from === null ? undefined : level.get(from);
    const report = (line: number, specifier: string, rule: Violation["rule"], message: string) => violations.push({ file, line, specifier, rule, message });
    if (fromLevel === undefined) {
      report(1, "", "unplaced", `${from ?? file} is on no row of LAYERS in scripts/layers/rules.ts`);
      continue;
    }
    for (const ref of importsOf(file, text)) {
      if (ref.specifier === null) {
        report(ref.line, "import(…)", "unresolved", "a dynamic import() with a computed specifier cannot be checked");
        continue;
      }
      const specifier = ref.specifier;
      if (!specifier.startsWith(".")) {
        const name = packageOf(specifier);
        for (const rule of rules.packages) {
          if (name === null || !rule.packages.includes(name)) continue;
          const allowed = ref.typeOnly ? [...rule.load, ...rule.types] : rule.load;
          if (!allowed.some((scope) => within(file, scope))) {
            const how = ref.typeOnly ? "named (import type)" : "loaded";
            report(ref.line, specifier, "package", `${name} may be ${how} only in ${allowed.join(", ")}: ${rule.why}`);
          }
        }
        continue;
      }
      const target = resolveRelative(file, specifier, exists);
      if (target === null) {
        report(ref.line, specifier, "unresolved", "resolves to no file");
        continue;
      }
      const to = areaOf(target);
      if (to === null) {
        report(ref.line, specifier, "outside", `${target} is outside src/ and gen/`);
        continue;
      }
      for (const rule of rules.importers) {
        if (within(target, rule.target) && !rule.only.some((scope) => within(file, scope))) {
          report(ref.line, specifier, "importers", `${rule.target} may be imported only by ${rule.only.join(", ")}: ${rule.why}`);
        }
      }
      if (to !== from && to !== "gen") {
        const toLevel = level.get(to);
        if (toLevel === undefined) report(ref.line, specifier, "unplaced", `${to} is on no row of LAYERS in scripts/layers/rules.ts`);
        else if (toLevel < fromLevel) report(ref.line, specifier, "outer", `${from} (row ${fromLevel + 1}) imports the outer layer ${to} (row ${toLevel + 1})`);
        else if (toLevel === fromLevel) report(ref.line, specifier, "sibling", `${from} imports ${to}, on its own row`);
      }
      for (const group of rules.apart) {
        const a = group.find((scope) => within(file, scope));
        const b = group.find((scope) => within(target, scope));
        if (a !== undefined && b !== undefined && a !== b) report(ref.line, specifier, "apart", `${a} and ${b} are alternatives that never import each other`);
      }
      for (const { folder, entry } of rules.entries) {
        if (within(target, folder) && !within(file, folder) && target !== entry) {
          report(ref.line, specifier, "entry", `from outside ${folder}, import its public index ${entry}, not ${target}`);
        }
      }
    }
  }
  return violations;
}

/** One line per violation: "src/agent/x.ts:3 ../server/y.js: src/agent (row 7) imports …". */
export const formatViolation = (v: Violation): string => `${v.file}:${v.line} ${v.specifier}: ${v.message}`;

export const docsBegin = "<!-- layers:begin -->";
export const docsEnd = "<!-- layers:end -->";

/** The picture and rule list of docs/architecture.md, rendered from `rules` (no trailing newline). */
export function renderRules(rules: LayerRules = RULES): string {
  const rows = rules.layers.map((row) => row.join(" │ "));
  const width = Math.max(...rows.map((row) => row.length)) + 4;
  const notes = rules.layers.map((row) => rules.importers.filter((r) => row.some((folder) => r.only.includes(folder))).map((r) => r.target));
  const body: string[] = [];
  rows.forEach((row, i) => {
    const note = notes[i]!.length > 0 ? `◀ may import ${notes[i]!.join(", ")}` : "";
    body.push(`  ${row.padEnd(width)}${note}`.trimEnd());
    if (i < rows.length - 1) body.push("     ▼");
  });
  const edge = (label: string) => `${label} ${"─".repeat(Math.max(...body.map((line) => line.length)) - label.length - 1)}`;
  const picture = [edge("outer"), ...body, edge("inner")];
  const list = (scopes: readonly string[]) => scopes.map((s) => `\`${s}\``).join(", ");
  const lines = [
    "```text",
    ...picture,
    "```",
    "",
    "Each row may import any row below it, never one above it; folders on one row (│) do not import each other. ◀ marks the only rows that may import a restricted target.",
    "",
    ...rules.importers.map((r) => `- \`${r.target}\` is imported only by ${list(r.only)}: ${r.why}.`),
    ...rules.packages.map((r) => {
      const types = r.types.length > 0 ? `; \`import type\` also in ${list(r.types)}` : "";
      return `- ${list(r.packages)}: loaded only in ${list(r.load)}${types}. Why: ${r.why}.`;
    }),
    ...rules.apart.map((group) => `- ${list(group)} never import each other.`),
    ...rules.entries.map((e) => `- From outside \`${e.folder}\`, only \`${e.entry}\` is imported.`),
  ];
  return lines.join("\n");
}

/** What `doc` holds between the markers (without the newlines next to them); null when a marker is missing. */
export function renderedPart(doc: string): string | null {
  const begin = doc.indexOf(docsBegin);
  const end = doc.indexOf(docsEnd);
  if (begin < 0 || end < begin) return null;
  return doc
    .slice(begin + docsBegin.length, end)
    .replace(/^\n/u, "")
    .replace(/\n$/u, "");
}

/** `doc` with the rendered part rewritten; throws when the markers are missing. */
export function updateDoc(doc: string, rules: LayerRules = RULES): string {
  const begin = doc.indexOf(docsBegin);
  const end = doc.indexOf(docsEnd);
  if (begin < 0 || end < begin) throw new Error(`no ${docsBegin} … ${docsEnd} pair`);
  return `${doc.slice(0, begin + docsBegin.length)}\n${renderRules(rules)}\n${doc.slice(end)}`;
}
