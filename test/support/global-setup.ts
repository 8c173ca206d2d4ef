import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { PACKAGE_ROOT } from "../../src/config/config.js";

/**
 * Once per vitest run, before any test file: dist/ is brought up to date (incremental tsc). The
 * CLI and server tests spawn bin/frontdesk.js, which runs the compiled service, so they must not
 * run a stale build.
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", path.join(PACKAGE_ROOT, "tsconfig.build.json")], { cwd: PACKAGE_ROOT, stdio: "inherit" });
  console.log(`Node for tests: ${process.version} (${process.execPath})`);
}
