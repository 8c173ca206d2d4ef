import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../src/config/config.js";
import { updateReadme } from "../src/config/docs.js";

// `npm run docs:config`: rewrites README.md's configuration tables from src/config/registry.ts.
const file = path.join(PACKAGE_ROOT, "README.md");
const readme = readFileSync(file, "utf8");
const updated = updateReadme(readme);
if (updated === readme) {
  console.log("README.md: configuration tables already match src/config/registry.ts");
} else {
  writeFileSync(file, updated);
  console.log("README.md: configuration tables rewritten from src/config/registry.ts");
}
