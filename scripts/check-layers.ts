/**
 * `npm run lint:layers` (part of `npm test`): checks every import in src/ against the rules of
 * scripts/layers/rules.ts and that docs/architecture.md shows those rules; exits 1 with the list
 * of violations otherwise. `npm run docs:layers` rewrites the rendered part of the document.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkLayers, docsBegin, docsEnd, formatViolation, renderedPart, renderRules, updateDoc, type SourceFile } from "./layers/check.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = "docs/architecture.md";

function sources(dir: string): SourceFile[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return sources(file);
      return entry.name.endsWith(".ts") ? [{ file, text: readFileSync(path.join(ROOT, file), "utf8") }] : [];
    });
}

const doc = readFileSync(path.join(ROOT, DOC), "utf8");
if (process.argv.includes("--write-docs")) {
  const updated = updateDoc(doc);
  if (updated !== doc) writeFileSync(path.join(ROOT, DOC), updated);
  console.log(`${DOC}: ${updated === doc ? "already shows" : "rewritten from"} scripts/layers/rules.ts`);
  process.exit(0);
}

const files = sources("src");
const violations = checkLayers(files, (file) => existsSync(path.join(ROOT, file)));
const problems = violations.map(formatViolation);
if (renderedPart(doc) !== renderRules()) {
  problems.push(`${DOC}: the part between ${docsBegin} and ${docsEnd} is not what scripts/layers/rules.ts renders; run npm run docs:layers`);
}
if (problems.length > 0) {
  console.error(`check-layers: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`check-layers: ${files.length} files in src/, no violations; ${DOC} matches the rules`);
