#!/usr/bin/env node
// The package's executable. It runs the compiled service in dist/ (`npm run build`, which
// `npm start` and `npm test` run first), plain JavaScript on Node's own loader: no TypeScript
// toolchain at run time.
import { existsSync } from "node:fs";

const [major] = process.versions.node.split(".").map(Number);
if (major < 24) {
  console.error(
    `frontdesk needs Node.js 24 or newer; this is ${process.version} (${process.execPath}). ` + "Through npm (npm start, npx frontdesk) the Node 24 that npm ci installed is used.",
  );
  process.exit(1);
}

const entry = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  console.error(`frontdesk is not built: ${entry.pathname} is missing; run \`npm run build\` (npm start does it).`);
  process.exit(1);
}

// Stack traces name the lines of the TypeScript sources (dist/ carries source maps).
process.setSourceMapsEnabled(true);
const { main, endProcess } = await import(entry.href);
endProcess(await main(process.argv.slice(2)));
