#!/usr/bin/env node
// The package's executable. It runs the TypeScript sources directly: tsx's ESM loader is
// registered first so that the import below (and everything it imports) can be .ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
